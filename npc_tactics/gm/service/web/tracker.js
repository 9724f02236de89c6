// The combat tracker page: a fight of /fights run step by step. Plain JS, no build step, no third-party code.
// Words come from words.js (GET /i18n/{lang}, gettext domain "web"); the fight's own words come translated from the
// server (stat lines and classes in the French edition's notation, errors in the page's language).
"use strict";

const $ = (id) => document.getElementById(id);
const T = { id: null, view: null, templates: [], classes: [], advice: null, busy: false, formats: [], editing: null };
const MAX_IMPORT = 1024 * 1024;  // the server reads at most 1 MiB of an actor file
const KEEP = "npc-tactics-fight";

function lang() { return $("lang").value; }

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

// The fields a GM meets in the tracker's errors, in the page's language (the API's own path stays in the JSON).
function fieldWords() {
  return { name: tr("the name"), side: tr("the side"), template: tr("the bestiary entry"),
           stat_block: tr("the stat block"), class: tr("Class"), level: tr("Level"), face: tr("the die"),
           action: tr("the move") };
}

// One error per message, in words: the field the server named (in the page's language), then its message.
function errorText(body) {
  if (body && Array.isArray(body.detail)) {
    const words = fieldWords();
    return body.detail.map((d) => {
      const path = (d.loc || []).filter((p) => !["body", "fields", "data"].includes(p));
      const where = path.map((p) => words[p] || p).join(" › ");
      return where ? `${where}${colon()}${d.msg}` : d.msg;
    }).join("\n");
  }
  return body && body.detail ? String(body.detail) : tr("Error");
}

async function call(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) { options.headers["content-type"] = "application/json"; options.body = JSON.stringify(body); }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, body: data };
}

function showError(box, body) {
  const node = $(box);
  if (body === null) { node.hidden = true; node.textContent = ""; return; }
  node.textContent = errorText(body);
  node.hidden = false;
}

// The sides' default names ("NPCs", "PCs") in the page's language, unless the GM typed a name of their own.
const SIDE_DEFAULTS = ["NPCs", "PCs"];
function defaultSideNames() {
  SIDE_DEFAULTS.forEach((msgid, k) => {
    const box = $(`side${k}`);
    if (box.value === msgid || box.value === box.dataset.shown) box.value = tr(msgid);
    box.dataset.shown = tr(msgid);
  });
}

async function setLanguage() {
  await loadWords(lang(), "data-tr");
  defaultSideNames();
  if (T.id) { await loadTemplates(); await refresh(); }
}

async function loadTemplates() {
  const system = T.view ? T.view.system : $("system").value;
  const r = await call("GET", `/fights/templates/${encodeURIComponent(system)}?lang=${lang()}`);
  T.templates = r.ok ? r.body.templates : [];
  drawParties();
  T.classes = r.ok ? r.body.classes || [] : [];
  // the value is the template's id (what the API takes), the label its name in the page's language
  $("templates").replaceChildren(...T.templates.map((t) => {
    const text = t.text || t.name;
    return el("option", { value: t.name, label: t.description ? `${text}${colon()}${t.description}` : text });
  }));
  $("drop").hidden = !importFormat();
}

// The format of an actor file for this fight's system (the registry's importers, GET /fights/formats).
function importFormat() {
  const system = T.view ? T.view.system : $("system").value;
  const f = T.formats.find((x) => x.system === system);
  return f ? f.format : null;
}

async function loadFormats() {
  const r = await call("GET", "/fights/formats");
  T.formats = r.ok ? r.body.formats : [];
}

function showNotes(imported) {
  const box = $("import-notes");
  const parts = [];
  if (imported.notes.length) parts.push(el("p", { text: tr("Notes") }), el("ul", {}, ...imported.notes.map((n) => el("li", { text: n }))));
  if (imported.unused.length) parts.push(el("p", { text: tr("Not read from the file") }), el("ul", {}, ...imported.unused.map((n) => el("li", { text: n }))));
  box.replaceChildren(el("strong", { text: `${tr("Imported")}${colon()}${imported.name}` }), ...parts);
  box.hidden = false;
}

// An actor file dropped or chosen: parsed here as JSON (never run), sent to POST /fights/{id}/import.
async function importFile(file) {
  if (!file || !T.id) return;
  $("import-notes").hidden = true;
  const format = importFormat();
  if (!format) return;
  if (file.size > MAX_IMPORT) { showError("import-error", { detail: tr("the file is larger than 1 MiB") }); return; }
  let data;
  try { data = JSON.parse(await file.text()); } catch (e) {
    showError("import-error", { detail: `${file.name}${colon()}${tr("not valid JSON")}` }); return;
  }
  const body = { format, data, side: Number($("add-side").value), file: file.name.slice(0, 60) };
  const r = await call("POST", fightUrl("/import"), body);
  $("import-file").value = "";
  if (!r.ok) { showError("import-error", r.body); return; }
  showError("import-error", null);
  draw(r.body);
  showNotes(r.body.imported);
}

function fightUrl(tail) { return `/fights/${T.id}${tail || ""}?lang=${lang()}`; }

async function create() {
  const body = { system: $("system").value, seed: Number($("seed").value) || 0, dice: $("dice").value,
                 sides: [{ name: $("side0").value.trim() || tr("NPCs"), control: $("control0").value },
                         { name: $("side1").value.trim() || tr("PCs"), control: $("control1").value }] };
  if ($("distance").value !== "") body.distance = Number($("distance").value);
  const r = await call("POST", `/fights?lang=${lang()}`, body);
  if (!r.ok) { showError("add-error", r.body); $("add-form").hidden = false; return; }
  T.id = r.body.id;
  T.advice = null;
  T.editing = null;
  $("import-notes").hidden = true;
  showError("import-error", null);
  draw(r.body);
  $("add-form").hidden = false;
  $("search").focus();
}

async function addCombatants(event) {
  event.preventDefault();
  const count = Math.max(1, Math.min(8, Number($("count").value) || 1));
  const base = { side: Number($("add-side").value) };
  const typed = $("search").value.trim();  // an id picked from the list, or a name typed in the page's language
  const named = T.templates.find((t) => t.text && t.text.toLowerCase() === typed.toLowerCase());
  const template = named && !T.templates.some((t) => t.name === typed) ? named.name : typed;
  const block = $("stat-block").value.trim();
  let fields = {};
  if ($("fields").value.trim()) {
    try { fields = JSON.parse($("fields").value); } catch (e) {
      showError("add-error", { detail: [{ loc: ["fields"], msg: tr("not valid JSON") }] }); return;
    }
  }
  if (block) fields.stat_block = block;
  if (!template && !Object.keys(fields).length) { $("search").focus(); return; }
  if (template && !block && !fields.class) base.template = template;
  base.fields = fields;
  const name = $("add-name").value.trim();
  // clear the boxes now: the GM may type the next combatant while this one is on its way
  $("search").value = ""; $("add-name").value = ""; $("stat-block").value = ""; $("fields").value = "";
  $("count").value = "1";
  for (let k = 0; k < count; k++) {
    const body = { ...base };
    if (name) body.name = count > 1 ? `${name} ${k + 1}` : name;
    const r = await call("POST", fightUrl("/combatants"), body);
    if (!r.ok) { showError("add-error", r.body); return; }
    draw(r.body);
  }
  showError("add-error", null);
  $("search").focus();
}

async function post(tail, body, box) {
  if (T.busy) return null;
  T.busy = true;
  document.body.dataset.busy = "1";
  try {
    const r = await call("POST", fightUrl(tail), body);
    if (!r.ok) { showError(box || "fight-error", r.body); return null; }
    showError(box || "fight-error", null);
    T.advice = null;
    draw(r.body);
    return r.body;
  } finally { T.busy = false; delete document.body.dataset.busy; }
}

async function refresh() {
  const r = await call("GET", fightUrl(""));
  if (r.ok) { T.advice = null; draw(r.body); }
}

function drawSetup(v) {
  const side = $("add-side").value;
  $("add-side").replaceChildren(...v.sides.map((s, k) => el("option", { value: String(k), text: s.name })));
  if (side) $("add-side").value = side;
  $("roster").replaceChildren(...v.members.map((m) => rosterItem(m, v)));
  drawParties();
  $("start").disabled = !v.sides.every((_s, k) => v.members.some((m) => m.side === k));
}

function rosterItem(m, v) {
  const remove = el("button", { type: "button", "aria-label": `${tr("Remove")} ${m.name}`, text: "×", onclick: async () => {
    const r = await call("DELETE", fightUrl(`/combatants/${m.index}`));
    if (r.ok) draw(r.body); else showError("add-error", r.body);
  } });
  const item = el("li", { "data-index": String(m.index) }, `${m.name} (${m.what}) · ${v.sides[m.side].name}`);
  const line = m.stat_line ? el("span", { class: "statline", text: m.stat_line }) : "";
  const level = classLevel(m);
  if (T.editing === m.index) { item.append(remove, level ? classForm(m, level) : editForm(m)); return item; }
  const edit = (m.entry.class && !level) ? "" : el("button", { type: "button", class: "edit-line", text: tr("Edit"),
    "aria-label": `${tr("Edit")} ${m.name}`, onclick: () => { T.editing = m.index; drawSetup(T.view); } });
  item.append(edit, remove, line);
  return item;
}

// A character's class and level ({cls, level}) when the system has classes: given by class and level, or a
// class-and-level template ("fighter_2"); null for a monster.
function classLevel(m) {
  const known = (key) => T.classes.some((c) => c.value === key);
  const key = (text) => String(text).toLowerCase().replace(/[- ]+/g, "_");
  if (m.entry.class && known(key(m.entry.class))) return { cls: key(m.entry.class), level: Number(m.entry.level) || 1 };
  const found = /^([a-z_]+)_(\d{1,2})$/.exec(m.entry.template || "");
  return found && known(found[1]) && !m.entry.stat_block ? { cls: found[1], level: Number(found[2]) } : null;
}

// The class and level of a character changed before the start (PATCH, checked again by the server); a mistake is
// shown at its field, in the page's language (the server says it in the language asked).
function classForm(m, now) {
  const id = `edit-${m.index}`;
  const cls = el("select", { id: `${id}-class` }, ...T.classes.map((c) => el("option", { value: c.value, text: c.text })));
  cls.value = now.cls;
  const level = el("input", { id: `${id}-level`, type: "number", min: "1", inputmode: "numeric" });
  level.value = String(now.level);
  const top = () => { const c = T.classes.find((x) => x.value === cls.value); level.max = c ? String(c.max_level) : ""; };
  cls.addEventListener("change", top);
  top();
  const errors = { class: fieldError(`${id}-class-error`), level: fieldError(`${id}-level-error`) };
  const other = fieldError(`${id}-error`);
  const save = el("button", { type: "submit", class: "primary", text: tr("Save") });
  const cancel = el("button", { type: "button", text: tr("Cancel"), onclick: () => { T.editing = null; drawSetup(T.view); } });
  // novalidate: the server says the mistake at its field in the page's language, not the browser in its own
  const form = el("form", { class: "edit", novalidate: "", "aria-label": `${tr("Edit")} ${m.name}` },
    el("label", { for: cls.id }, el("span", { text: tr("Class") }), cls), errors.class,
    el("label", { for: level.id }, el("span", { text: tr("Level") }), level), errors.level,
    other, el("div", { class: "buttons" }, save, cancel));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const box of [errors.class, errors.level, other]) { box.hidden = true; box.textContent = ""; }
    cls.removeAttribute("aria-invalid"); level.removeAttribute("aria-invalid");
    const n = Number(level.value);
    const body = { fields: { class: cls.value, level: Number.isInteger(n) && level.value !== "" ? n : level.value },
                   remove: ["template", "stat_block"] };
    const r = await call("PATCH", fightUrl(`/combatants/${m.index}`), body);
    if (!r.ok) {
      const details = Array.isArray(r.body.detail) ? r.body.detail : [{ loc: [], msg: errorText(r.body) }];
      for (const d of details) {
        const field = (d.loc || []).filter((p) => p !== "body" && p !== "fields")[0];
        const box = errors[field] || other;
        box.textContent = d.msg;
        box.hidden = false;
        const input = field === "class" ? cls : field === "level" ? level : null;
        if (input) { input.setAttribute("aria-invalid", "true"); input.setAttribute("aria-describedby", box.id); input.focus(); }
      }
      return;
    }
    T.editing = null;
    draw(r.body);
  });
  setTimeout(() => cls.focus(), 0);
  return form;
}

function fieldError(id) { return el("p", { id, class: "error field-error", role: "alert", hidden: "" }); }

// A stat line pasted over a combatant's: re-checked by the server, its error shown at this field.
function editForm(m) {
  const area = el("textarea", { class: "stat-edit", rows: "5", "aria-label": `${tr("Stat block (as the book prints it)")}${colon()}${m.name}` });
  area.value = m.entry.stat_block || m.stat_block || "";  // the English notation: the one the parser reads
  const error = el("p", { class: "error field-error", role: "alert", hidden: "" });
  const save = el("button", { type: "submit", class: "primary", text: tr("Save") });
  const cancel = el("button", { type: "button", text: tr("Cancel"), onclick: () => { T.editing = null; drawSetup(T.view); } });
  const form = el("form", { class: "edit" }, area, error, el("div", { class: "buttons" }, save, cancel));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = area.value.trim();
    if (!text) { area.focus(); return; }
    const r = await call("PATCH", fightUrl(`/combatants/${m.index}`), { fields: { stat_block: text }, remove: ["template"] });
    if (!r.ok) {
      error.textContent = `${tr("This stat line was refused")}${colon()}${errorText(r.body)}`;
      error.hidden = false;
      area.setAttribute("aria-invalid", "true");
      area.focus();
      return;
    }
    T.editing = null;
    draw(r.body);
  });
  setTimeout(() => area.focus(), 0);
  return form;
}

function card(c, v) {
  const down = c.status !== "active";
  const pct = c.max_hp ? Math.max(0, Math.min(100, Math.round(100 * c.hp / c.max_hp))) : 0;
  return el("article", { class: `card side${c.side}${c.acting ? " acting" : ""}${down ? " down" : ""}`,
                         "data-index": String(c.index) },
    el("h4", { text: `${c.name}` }),
    el("div", { class: "muted" }, `${c.side_name} `, controlTag(c.control), ` · ${c.status_text}`),
    c.stat_line ? el("p", { class: "statline", text: c.stat_line }) : "",
    el("div", { class: "hpbar", role: "img", "aria-label": `${c.hp}/${c.max_hp}` }, el("span", { style: `width:${pct}%` })),
    el("ul", {}, ...[...c.details, ...c.resources].map((d) => el("li", { text: d }))));
}

// Who plays a side, as a short tag: the GM (a PC) or the advisor (an NPC).
function controlTag(control) {
  return el("span", { class: `tag ${control}`, text: control === "pc" ? tr("PC") : tr("NPC") });
}

// The order this round as the rules engine holds it (the server reads it off the engine state): never sorted here.
function drawOrder(v) {
  const o = v.order;
  $("order").hidden = !o;
  if (!o) return;
  $("order-title").textContent = o.title;
  $("order-notes").textContent = o.notes.join(" · ");
  $("order-list").replaceChildren(...o.rows.map((r) => el("li", {
    class: [r.done ? "done" : "", r.now ? "now" : "", r.acting ? "acting" : ""].filter(Boolean).join(" "),
    "data-index": String(r.index), "aria-current": r.acting ? "true" : "false" },
  el("span", { class: "name", text: r.name }), " ",
  el("span", { class: "who" }, `${r.side_name}`, controlTag(r.control)), ` · ${r.text}`)));
}

// The sides' names and who plays each, changed during the fight (PATCH /fights/{id}/sides/{k}).
function drawSides(v) {
  const form = $("sides-form");
  if (form.contains(document.activeElement)) return;  // the GM is typing: keep the boxes as they are
  $("sides-rows").replaceChildren(...v.sides.map((s, k) => {
    const name = el("input", { id: `side-name-${k}`, maxlength: "60", "aria-label": `${tr("Side name")} ${k + 1}` });
    name.value = s.name;
    const control = el("select", { id: `side-control-${k}`, "aria-label": `${tr("Played by")} ${k + 1}` },
      el("option", { value: "npc", text: tr("the advisor (NPCs)") }), el("option", { value: "pc", text: tr("the GM (PCs)") }));
    control.value = s.control;
    control.disabled = !v.can_change_control;
    return el("fieldset", { class: "side-set" }, el("legend", { text: s.name }),
      el("label", {}, el("span", { text: tr("Side name") }), name),
      el("label", {}, el("span", { text: tr("Played by") }), control));
  }));
}

async function saveSides(event) {
  event.preventDefault();
  if (!T.view) return;
  for (const [k, s] of T.view.sides.entries()) {
    const body = {};
    const name = $(`side-name-${k}`).value.trim();
    if (name && name !== s.name) body.name = name;
    if ($(`side-control-${k}`).value !== s.control) body.control = $(`side-control-${k}`).value;
    if (!Object.keys(body).length) continue;
    const r = await call("PATCH", fightUrl(`/sides/${k}`), body);
    if (!r.ok) { showError("sides-error", r.body); $(`side-name-${k}`).focus(); return; }
    T.advice = null;
    draw(r.body);
  }
  showError("sides-error", null);
  document.activeElement.blur();
  drawSides(T.view);
}

function moveButton(m, by, primary) {
  return el("button", { type: "button", class: primary ? "primary" : "", "data-action": m.action,
                        onclick: () => post("/step", { action: m.action, by }) },
            primary ? `${tr("Do:")} ${m.label}` : m.label);
}

async function askAdvisor(v) {
  const box = $("decide");
  const d = v.decision;
  box.replaceChildren(el("p", {}, el("strong", { text: `${d.name} (${tr("NPC")})` }), ` · ${d.kind_text} · `,
                                   el("span", { class: "muted", text: tr("Thinking...") })));
  const steps = v.steps;
  const r = await call("POST", fightUrl("/advise"), { odds: Math.max(0, Math.min(400, Number($("odds").value) || 0)) });
  if (!T.view || T.view.steps !== steps || !T.view.decision) return;  // the fight moved on meanwhile
  if (!r.ok) { showError("fight-error", r.body); return; }
  T.advice = r.body;
  const a = r.body;
  const alts = el("ul", { class: "alts" }, ...a.alternatives.map((m) => el("li", {}, moveButton(m, "advisor", false),
    el("span", { class: "odds", text: m.odds_text || "" }))));
  const more = el("details", {}, el("summary", { text: tr("More moves") }),
    el("div", { class: "moves" }, ...a.more.map((m) => moveButton(m, "gm", false))));
  const notes = el("ul", { class: "muted" }, ...a.notes.map((n) => el("li", { text: n })));
  const rule = a.card_rule ? el("p", { class: "muted", text: `${tr("Tactics card")}${colon()}${a.card_rule.text}` }) : "";
  box.replaceChildren(
    el("p", {}, el("strong", { text: `${d.name} (${tr("NPC")})` }), ` · ${d.kind_text}`),
    moveButton(a.do, "advisor", true),
    el("p", { class: "odds", text: a.do.odds_text || "" }),
    a.alternatives.length ? el("p", { class: "muted", text: tr("Alternatives") }) : "", alts, rule, notes, more);
  box.dataset.advised = String(steps);
  const first = box.querySelector("button.primary");
  if (first && !box.contains(document.activeElement)) first.focus();
}

function drawDecision(v) {
  const box = $("decide");
  delete box.dataset.advised;
  const d = v.decision;
  if (!d) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  if (d.who === "npc") { askAdvisor(v); return; }
  box.replaceChildren(el("p", {}, el("strong", { text: `${d.name} (${tr("PC")})` }), ` · ${d.kind_text} · `,
                                  tr("the player's move:")),
                      el("div", { class: "moves" }, ...d.moves.map((m) => moveButton(m, "gm", false))));
  box.dataset.advised = String(v.steps);
  const first = box.querySelector("button");
  if (first) first.focus();
}

function draw(v) {
  T.view = v;
  document.body.dataset.steps = String(v.steps);
  document.body.dataset.state = v.over ? "over" : v.die ? "die" : v.decision ? v.decision.who : v.started ? "" : "setup";
  drawSetup(v);
  $("setup").hidden = v.started;
  $("fight").hidden = !v.started;
  if (!v.started) { $("add-form").hidden = false; return; }
  $("round").textContent = v.round_text;
  $("where").textContent = v.decision ? v.decision.where.join(" · ") : "";
  drawOrder(v);
  $("cards").replaceChildren(...v.combatants.map((c) => card(c, v)));
  drawSides(v);
  $("log").replaceChildren(...v.log.map((l) => el("li", { class: l.kind, text: l.text })));
  $("log").scrollTop = $("log").scrollHeight;
  $("outcome").hidden = !v.over;
  $("outcome").textContent = v.over ? v.outcome.text : "";
  $("undo").disabled = !v.can_undo;
  $("die-form").hidden = !v.die;
  if (v.die) {
    $("die-text").textContent = v.die.text;
    $("die").max = String(v.die.sides);
    $("die").value = "";
    $("die").focus();
  }
  drawDecision(v);
}

async function typeDie(event) {
  event.preventDefault();
  const face = Number($("die").value);
  if (!Number.isInteger(face)) { $("die").focus(); return; }
  await post("/die", { face });
}

async function save() {
  const r = await call("GET", `/fights/${T.id}/save`);
  if (!r.ok) { showError("fight-error", r.body); return null; }
  return r.body;
}

async function download() {
  const data = await save();
  if (!data) return;
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `fight-${data.system}-round-${T.view.round}.json` });
  document.body.append(a); a.click(); a.remove();
}

// The log as the page shows it, in the page's language, as a text file (GET /fights/{id}/log).
async function exportLog() {
  const response = await fetch(`/fights/${T.id}/log?lang=${lang()}`);
  if (!response.ok) { showError("fight-error", await response.json().catch(() => ({}))); return; }
  const blob = new Blob([await response.text()], { type: "text/plain;charset=utf-8" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `fight-${T.view.system}-round-${T.view.round}-${lang()}.txt` });
  document.body.append(a); a.click(); a.remove();
}

async function keep() {
  const data = await save();
  if (data) { localStorage.setItem(KEEP, JSON.stringify(data)); document.body.dataset.kept = String(T.view.steps); }
}

async function loadFight(data) {
  const r = await call("POST", `/fights/load?lang=${lang()}`, { fight: data });
  if (!r.ok) { showError("load-error", r.body); return; }
  showError("load-error", null);
  T.id = r.body.id;
  T.advice = null;
  showError("fight-error", null);
  draw(r.body);
}

async function restore() {
  const text = localStorage.getItem(KEEP);
  if (!text) { showError("load-error", { detail: tr("Nothing kept in this browser yet") }); return; }
  await loadFight(JSON.parse(text));
}

async function loadFile() {
  const file = $("load").files[0];
  if (!file) return;
  let data;
  try { data = JSON.parse(await file.text()); } catch (e) {
    showError("load-error", { detail: tr("not valid JSON") }); return;
  }
  await loadFight(data);
  $("load").value = "";
}

async function main() {
  $("lang").addEventListener("change", setLanguage);
  $("system").addEventListener("change", loadTemplates);
  $("create").addEventListener("click", create);
  $("add-form").addEventListener("submit", addCombatants);
  $("start").addEventListener("click", () => post("/start", undefined, "add-error"));
  $("die-form").addEventListener("submit", typeDie);
  $("sides-form").addEventListener("submit", saveSides);
  $("undo").addEventListener("click", () => post("/undo"));
  $("save").addEventListener("click", download);
  $("export-log").addEventListener("click", exportLog);
  $("keep").addEventListener("click", keep);
  $("restore").addEventListener("click", restore);
  $("load").addEventListener("change", loadFile);
  setupParties();
  $("import-file").addEventListener("change", () => importFile($("import-file").files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault(); drop.classList.remove("over");
    if (e.dataTransfer && e.dataTransfer.files.length) importFile(e.dataTransfer.files[0]);
  });
  $("new").addEventListener("click", () => {
    T.id = null; T.view = null; T.editing = null;
    $("fight").hidden = true; $("setup").hidden = false; $("add-form").hidden = true;
    $("roster").replaceChildren();
    document.body.dataset.state = "setup";
    $("create").focus();
  });
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "fr" || asked === "en") $("lang").value = asked;
  await setLanguage();
  await loadFormats();
  await loadTemplates();
  document.body.dataset.ready = "1";
}

main();
