// The GM page: pick a bundle, edit the situation with forms drawn from GET /bestiary/{system}, ask POST /suggest.
// Plain JS, no build step, no third-party code. Words come from GET /i18n/{lang} (gettext domain "web").
"use strict";

const $ = (id) => document.getElementById(id);
const page = { bundles: [], form: null, sit: null, lastAnswer: null };
const t = tr;  // words.js: the page's words in the language loaded last

async function getJSON(url, options) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, body };
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

// The whole page in ``lang``; ``body[data-lang]`` says when it is done (the words, the stat blocks' names, the
// answer asked again), so a person or a test reads one language, never a half-switched page.
async function setLanguage(lang) {
  delete document.body.dataset.lang;
  // the stat blocks' names and descriptions come with the words: fetched together, shown together
  const form = page.form ? getJSON(`/bestiary/${page.form.system}?lang=${lang}`) : null;
  await loadWords(lang, "data-i18n");
  if (form) page.form = (await form).body;
  if (page.form) renderSituation();
  if (typeof showOddsAgain === "function") showOddsAgain();  // odds.js: its figures in the new language's numbers
  const b = page.bundles.find((x) => x.id === $("bundle").value);
  if (b) await showBundle(b);
  if (page.lastAnswer) await ask();  // move names and notes come translated from the server
  document.body.dataset.lang = lang;
}

async function loadBundles() {
  const r = await getJSON("/bundles");
  page.bundles = r.body.bundles || [];
  const systems = [...new Set(page.bundles.map((b) => b.system))];
  $("system").replaceChildren(...systems.map((s) => el("option", { value: s, text: s })));
  await pickSystem();
}

async function pickSystem() {
  const system = $("system").value;
  const mine = page.bundles.filter((b) => b.system === system);
  $("bundle").replaceChildren(...mine.map((b) => el("option", { value: b.id, text: `${b.id} (${b.scenario})` })));
  page.form = (await getJSON(`/bestiary/${system}?lang=${Words.lang || "en"}`)).body;
  await pickBundle();
}

async function pickBundle() {
  const b = page.bundles.find((x) => x.id === $("bundle").value);
  if (!b) return;
  await showBundle(b);
  const r = await getJSON(`/bundles/${encodeURIComponent(b.id)}/start`);
  page.sit = r.ok ? r.body.situation : { round: 1, acting: "", sides: [{ name: "npcs", combatants: [] },
                                                                       { name: "others", combatants: [] }] };
  page.lastAnswer = null;
  $("result").hidden = true;
  renderSituation();
  document.body.dataset.loaded = b.id;  // the forms now show this bundle's situation
}

async function showBundle(b) {
  const info = [named(t("scenario"), b.scenario), `${t("rules")} ${b.rules_version}`];
  if (b.timesteps) info.push(named(t("trained"), `${countText(b.timesteps)} ${t("timesteps")}`));
  for (const w of b.warnings) info.push(named(t("warning"), w));
  $("bundle-info").textContent = info.join(" · ");
  await loadCard(b);
}

async function loadCard(b) {
  $("card-box").hidden = !b.has_card;
  if (!b.has_card) return;
  const card = await getJSON(`/bundles/${encodeURIComponent(b.id)}/card?lang=${$("lang").value}`);
  $("card").textContent = card.ok ? (card.body.markdown || JSON.stringify(card.body.card, null, 2)) : "";
}

function numberInput(value, onchange, attrs) {
  return el("input", { type: "number", value: value ?? "", ...(attrs || {}),
    onchange: (e) => onchange(e.target.value === "" ? undefined : Number(e.target.value)) });
}

// choices: values, or [value, text] pairs (a stat block's id and its name in the page's language)
function choiceInput(choices, value, onchange) {
  const pair = (c) => (Array.isArray(c) ? c : [c, c === "" ? t("not given") : c]);
  const select = el("select", { onchange: (e) => onchange(e.target.value || undefined) },
    ...choices.map(pair).map(([v, text]) => el("option", { value: v, text })));
  select.value = value ?? "";
  return select;
}

function setKey(obj, key, value) {
  if (value === undefined || value === "") delete obj[key]; else obj[key] = value;
  refresh();
}

// A list of small records (RuneQuest's poison doses, `[{potency, rounds}]`): a row of number inputs per record,
// a button to take each away and one to add another (up to spec.max, pre-filled with the fields' defaults); the
// key is left out when the list is empty. The server checks the records (an error names `poison_doses[0].potency`).
function recordsInput(spec, obj) {
  const box = el("div", { class: "records", "data-key": spec.key }, el("span", { text: t(spec.label) + colon() }));
  const list = obj[spec.key] || [];
  const save = () => setKey(obj, spec.key, list.length ? list : undefined);
  list.forEach((rec, i) => {
    const row = el("div", { class: "record", "data-index": String(i) }, el("span", { class: "index", text: `${i + 1}.` }));
    for (const f of spec.fields) {
      row.append(el("label", {}, el("span", { text: t(f.label) + " " }), numberInput(rec[f.key], (v) => {
        if (v === undefined) delete rec[f.key]; else rec[f.key] = v;
        save();
      }, { min: f.min, max: f.max, name: `${spec.key}-${f.key}` })));
    }
    row.append(el("button", { type: "button", text: t("Remove"),
      onclick: () => { list.splice(i, 1); save(); renderSituation(); } }));
    box.append(row);
  });
  if (list.length < (spec.max ?? Infinity)) {
    box.append(el("button", { type: "button", class: "add-record", text: `+ ${t("Add")}`, onclick: () => {
      const rec = {};
      for (const f of spec.fields) if (f.default !== undefined) rec[f.key] = f.default;
      list.push(rec);
      save();
      renderSituation();
    } }));
  }
  return box;
}

function fieldInput(spec, obj) {
  if (spec.type === "records") return recordsInput(spec, obj);
  const label = el("label", {}, el("span", { text: t(spec.label) + " " }));
  if (spec.choices) {
    label.append(choiceInput(spec.choices.includes("") ? spec.choices : ["", ...spec.choices], obj[spec.key],
      (v) => setKey(obj, spec.key, v)));
  } else if (spec.type === "bool") {
    const box = el("input", { type: "checkbox", onchange: (e) => setKey(obj, spec.key, e.target.checked || undefined) });
    box.checked = Boolean(obj[spec.key]);
    label.append(box);
  } else {
    label.append(numberInput(obj[spec.key], (v) => setKey(obj, spec.key, v), { min: spec.min, max: spec.max }));
  }
  label.dataset.key = spec.key;
  return label;
}

// A location the server gave no label for, written readably: "right_front_leg" is "Right front leg".
function locationWords(loc) {
  const text = String(loc).replace(/_/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "?";
}

function woundInputs(c, templateName = c.template, saved = () => {}) {
  const form = page.form, box = el("div", { class: "wounds" });
  if (form.wounds.kind === "hp") {
    box.append(el("label", {}, el("span", { text: t("HP now") + " " }),
      numberInput(c[form.wounds.key], (v) => setKey(c, form.wounds.key, v), { name: "hp" })));
    box.append(el("label", {}, el("span", { text: t("Max HP") + " " }),
      numberInput(c[form.wounds.max_key], (v) => setKey(c, form.wounds.max_key, v), { name: "max_hp" })));
    return box;
  }
  const template = form.templates.find((x) => x.name === templateName);
  const key = form.wounds.key;
  box.append(el("span", { text: (form.wounds.kind === "damage" ? t("Damage taken") : t("HP left")) + colon() }));
  const labels = (template && template.location_text) || {};  // each location's name in the page's language
  for (const loc of (template ? template.locations : [])) {
    const current = (c[key] || {})[loc];
    const input = numberInput(current, (v) => {
      const locs = { ...(c[key] || {}) };
      if (v === undefined) delete locs[loc]; else locs[loc] = v;
      setKey(c, key, Object.keys(locs).length ? locs : undefined);
      saved();
    }, { name: `loc-${loc}` });
    const label = el("span", { text: (labels[loc] || locationWords(loc)) + " " });
    box.append(el("label", { "data-loc": loc }, label, input));
  }
  return box;
}

// A rider's mount (MRQ): its own status and wounds, written under the rider as `mount: {...}`.
function mountBox(c) {
  const form = page.form, rider = form.templates.find((x) => x.name === c.template);
  const mount = rider && rider.mount ? form.templates.find((x) => x.name === rider.mount) : undefined;
  if (!mount) return null;
  const m = { ...(c.mount || {}) };
  const saved = () => setKey(c, "mount", Object.keys(m).length ? m : undefined);
  const box = el("div", { class: "mount", "data-mount": mount.name },
    el("span", { text: `${t("Mount")} (${mount.text || mount.name})${colon()}` }));
  box.append(el("label", {}, el("span", { text: t("Status") + " " }),
    choiceInput(["", ...form.statuses], m.status, (v) => { setKey(m, "status", v); saved(); })));
  const wounds = woundInputs(m, mount.name, saved);
  for (const input of wounds.querySelectorAll("input[name^='loc-']")) input.name = `mount-${input.name}`;  // not the rider's
  box.append(wounds);
  return box;
}

function combatantBox(side, c, index) {
  const form = page.form;
  const box = el("div", { class: "combatant", "data-name": c.name || "" });
  const template = choiceInput(form.templates.map((x) => [x.name, x.text || x.name]), c.template, (v) => {
    c.template = v; delete c[form.wounds.key]; delete c.mount; renderSituation();
  });
  template.title = (form.templates.find((x) => x.name === c.template) || {}).description || "";
  template.name = "template";
  box.append(el("label", {}, el("span", { text: t("Template") + " " }), template));
  box.append(el("label", {}, el("span", { text: t("Name") + " " }), el("input", { value: c.name || "", name: "name",
    onchange: (e) => { c.name = e.target.value; renderSituation(); } })));
  if (form.position) {
    box.append(el("label", {}, el("span", { text: t("Position (m)") + " " }),
      numberInput(c[form.position.key], (v) => setKey(c, form.position.key, v), { step: "0.5", name: "position" })));
  }
  box.append(el("label", {}, el("span", { text: t("Status") + " " }),
    choiceInput(["", ...form.statuses], c.status, (v) => setKey(c, "status", v))));
  for (const spec of form.combatant_fields) box.append(fieldInput(spec, c));
  box.append(el("button", { type: "button", text: t("Remove"),
    onclick: () => { side.combatants.splice(index, 1); renderSituation(); } }));
  box.append(woundInputs(c));
  const mount = mountBox(c);
  if (mount) box.append(mount);
  return box;
}

function renderSituation() {
  const sit = page.sit, form = page.form;
  $("situation-fields").replaceChildren(...form.situation_fields.map((spec) => fieldInput(spec, sit)));
  $("sides").replaceChildren(...sit.sides.map((side, s) => {
    const legend = el("legend", { text: named(`${t("Side")} ${s + 1}`, side.name) });
    const set = el("fieldset", { "data-side": String(s) }, legend);
    side.combatants.forEach((c, k) => set.append(combatantBox(side, c, k)));
    set.append(el("button", { type: "button", text: t("Add combatant"), onclick: () => {
      side.combatants.push({ template: form.templates[0].name, name: `${form.templates[0].name}_${s}${side.combatants.length}` });
      renderSituation();
    } }));
    return set;
  }));
  const names = sit.sides.flatMap((s) => s.combatants.map((c) => c.name));
  $("acting").replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
  if (!names.includes(sit.acting)) sit.acting = names[0];
  $("acting").value = sit.acting;
  refresh();
}

function engagedPairs() {
  const sit = page.sit, form = page.form;
  if (!form.position) return sit.distance ? named(t("all opponents"), numberText(sit.distance)) : t("not given");
  const key = form.position.key, pairs = [];
  const [a, b] = sit.sides;
  const placed = [...a.combatants, ...b.combatants].every((c) => c[key] !== undefined);
  if (!placed && sit.distance !== undefined) return named(t("all opponents"), `${numberText(sit.distance)} m`);
  for (const x of a.combatants) for (const y of b.combatants) {
    if (x[key] !== undefined && y[key] !== undefined && Math.abs(x[key] - y[key]) <= form.engaged_within) {
      pairs.push(`${x.name} – ${y.name}`);
    }
  }
  return pairs.length ? pairs.join(", ") : t("none");
}

function situation() {
  const sit = JSON.parse(JSON.stringify(page.sit));
  const extra = $("extra").value.trim(), pending = $("pending").value.trim();
  if (extra) Object.assign(sit, JSON.parse(extra));
  if (pending) sit.pending = JSON.parse(pending);
  return sit;
}

function refresh() {
  $("engaged").textContent = engagedPairs();
  try { $("preview").textContent = JSON.stringify(situation(), null, 2); }
  catch (e) { $("preview").textContent = named(t("Error"), e.message); }
}

// A rate and its 95% interval in the page's language: "50% [15–85]", "50 % [15–85]" in French.
function rate(v) {
  if (v === undefined || v === null) return "";
  if (typeof v === "number") return percentText(v);
  const r = v.rate ?? v.p ?? v.value, lo = v.low ?? v.lo, hi = v.high ?? v.hi;
  return lo === undefined ? percentText(r)
    : `${percentText(r)} [${numberText(100 * lo, 0)}–${numberText(100 * hi, 0)}]`;
}

function oddsParts(odds) {
  if (!odds) return [];
  const parts = [];
  for (const k of ["win", "fled", "dead"]) if (odds[k] !== undefined) parts.push(`${t(k)} ${rate(odds[k])}`);
  const rounds = odds.rounds ?? odds.expected_rounds;
  if (rounds !== undefined) parts.push(`${t("expected rounds")} ${numberText(rounds, 1)}`);
  return parts;
}

// "1 play-out", "1 200 play-outs"; in French "1 partie jouée", "1 200 parties jouées" (words.js: plural)
function playoutsText(n) {
  return `${numberText(n)} ${plural(n) ? t("play-outs") : t("play-out")}`;
}

function searchText(s) {
  if (!s) return "";
  return `${t("value")} ${numberText(s.value, 2)} (${playoutsText(s.playouts)})`;
}

function ruleText(rule) {
  if (!rule) return "";
  return typeof rule === "string" ? rule : (rule.text || rule.rule || JSON.stringify(rule));
}

function renderAnswer(a) {
  $("result-title").textContent = `${a.actor} — ${t("round")} ${a.round}, ${named(t("decision"), a.decision)}`;
  // data-label: the column's name, shown before the figure when a narrow screen stacks each move as a card
  const label = (msgid) => t(msgid) + colon();
  const rows = a.moves.map((m, i) => {
    const p = Number(m.probability);
    const bar = el("span", { class: "bar" }, el("span", { style: `width:${(100 * p).toFixed(1)}%` }));
    const best = m.within_best ? " ★" : "";
    const rule = m.card_rule || (a.card_rule && a.card_rule.action === m.action ? a.card_rule : null);
    const parts = [...oddsParts(m.odds), searchText(m.search)].filter(Boolean);
    const odds = el("td", { class: "odds", "data-label": label("Odds") });
    parts.forEach((part, k) => odds.append(...(k ? [" "] : []),  // "win 50% [15–85] ·": the dot ends its figure
      el("span", { class: "part", text: k < parts.length - 1 ? `${part}\u00a0·` : part })));
    return el("tr", { class: i === 0 ? "move best" : "move" },
      el("td", { text: String(i + 1) }), el("td", { class: "move-name", text: (m.label || m.action) + best }),
      el("td", { "data-label": label("Probability") }, bar,
         el("span", { class: "pct", text: ` ${percentText(p, 1)}` })),
      odds,
      el("td", { class: "rule", "data-label": label("Card rule"), text: ruleText(rule) }));
  });
  $("moves").tBodies[0].replaceChildren(...rows);
  const lead = [];
  if (a.card_rule) lead.push(named(t("Card rule"), ruleText(a.card_rule)));
  if (a.search) lead.push(named(t("Searched"), playoutsText(a.search.playouts)));
  if (a.turn && a.turn.steps && a.turn.steps.length > 1) {
    lead.push(named(t("This round"), a.turn.steps.map((s) => s.label || s.action).join(" → ")));
  }
  $("card-rule").textContent = lead.join(" · ");
  const lines = [...(a.notes || []).map((n) => named(t("note"), n)),  // n: the server's words, already French
                 ...(a.assumptions || []).map((n) => named(t("assumed"), n))];
  $("notes").replaceChildren(...lines.map((n) => el("li", { text: n })));
  $("result").hidden = false;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

async function ask() {
  $("error").hidden = true;
  let sit;
  try { sit = situation(); } catch (e) { showError(named(t("Error"), named("JSON", e.message))); return; }
  const body = { bundle: $("bundle").value, situation: sit, lang: $("lang").value,
                 odds: Number($("odds").value || 0), think: Number($("think").value || 0),
                 seed: Number($("seed").value || 0) };
  $("busy").hidden = false;
  const r = await getJSON("/suggest", { method: "POST", headers: { "content-type": "application/json" },
                                         body: JSON.stringify(body) });
  $("busy").hidden = true;
  if (!r.ok) {
    const detail = r.body.detail;
    // a situation's error already names its field ("situation: sides[0].hp : ..."): said once, not twice
    const said = (d) => ((d.loc || [])[1] === "situation" ? d.msg : named((d.loc || []).slice(1).join("."), d.msg));
    showError(Array.isArray(detail)
      ? detail.map(said).join("\n")
      : named(`${t("Error")} ${r.status}`, typeof detail === "string" ? detail : JSON.stringify(detail)));
    $("result").hidden = true;
    page.lastAnswer = null;
    return;
  }
  page.lastAnswer = r.body;
  renderAnswer(r.body);
}

window.addEventListener("DOMContentLoaded", async () => {
  $("lang").addEventListener("change", (e) => setLanguage(e.target.value));
  $("system").addEventListener("change", pickSystem);
  $("bundle").addEventListener("change", pickBundle);
  $("acting").addEventListener("change", (e) => { page.sit.acting = e.target.value; refresh(); });
  $("extra").addEventListener("input", refresh);
  $("pending").addEventListener("input", refresh);
  $("ask").addEventListener("click", ask);
  const asked = new URLSearchParams(location.search).get("lang");  // a link to the French page: ?lang=fr
  if (asked === "fr" || asked === "en") $("lang").value = asked;
  await setLanguage($("lang").value);
  await loadBundles();
  document.body.dataset.ready = "1";
});
