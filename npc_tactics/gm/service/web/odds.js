// The "Encounter odds" section: party and foes as 'name xN, ...', POST /odds, the four figures with their 95%
// intervals. Uses app.js's helpers ($, el, t, getJSON); its words carry data-i18n so a language switch
// retranslates them with the rest of the page.
"use strict";

const oddsPage = {
  last: null,       // the last answer shown, shown again when the language changes
  templates: {},    // system -> {lang -> [{name, text}]}: the template list in each language of the page
  asked: 0,         // the last template list asked for (an older answer arriving late is dropped)
};

function parseGroup(text) {
  // "goblin x4, archer gobelin x2" -> [{template: "goblin", count: 4}, ...]; a name may have spaces (the French
  // "archer gobelin"): the server takes the id or the name in the page's language and names any bad entry. The
  // count is read as the command line reads it (gm/encounter/spec.py): "xN" as a word of its own, or "×N" / "*N",
  // so a name ending in x keeps its x ("lynx 2" is the template "lynx 2", not two "lyn")
  return text.split(",").map((part) => part.trim()).filter((part) => part).map((part) => {
    const m = part.match(/^(.+?)(?:(?:\s+[xX]|\s*[×*])\s*(\d+))?$/);
    return m ? { template: m[1], count: Number(m[2] || 1) } : { template: part, count: 1 };
  });
}

// A template as the list shows it: its name in the page's language with the id a GM types when they differ
// ("gobelin (goblin)", a no-break space keeping the id beside its name), the id alone when the name is the id in
// other words ("goblin_archer", "goblin archer"). The server's errors write them so too (odds_routes.listed).
function listed(x) {
  const bare = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  return !x.text || bare(x.text) === bare(x.name) ? x.name : `${x.text}\u00a0(${x.name})`;
}

// The list under the boxes, in the page's language, in that language's alphabetical order ("clerc 2" before
// "clerc 10").
function showTemplates() {
  const system = $("odds-system").value, lang = $("lang").value;
  const found = (oddsPage.templates[system] || {})[lang];
  if (!found) return false;
  const order = new Intl.Collator(lang, { numeric: true, sensitivity: "base" });
  $("odds-templates").textContent = found.map(listed).sort(order.compare).join(", ");
  document.body.dataset.oddsSystem = system;  // the template list now shows this system's names,
  document.body.dataset.oddsLang = lang;      // in this language
  return true;
}

// The templates POST /odds takes (GET /fights/templates: every bestiary and character name the encounter builder
// composes, each named in a language), fetched in every language of the page at once so a language switch shows
// them again at once.
async function oddsTemplates() {
  const system = $("odds-system").value;
  const asked = ++oddsPage.asked;
  if (!oddsPage.templates[system]) {
    const langs = [...$("lang").options].map((o) => o.value);
    const answers = await Promise.all(langs.map((l) => getJSON(`/fights/templates/${system}?lang=${l}`)));
    if (answers.every((r) => r.ok)) {
      oddsPage.templates[system] = Object.fromEntries(langs.map((l, i) => [l, answers[i].body.templates]));
    }
  }
  if (asked !== oddsPage.asked) return;  // the GM picked another system meanwhile
  if (!showTemplates()) {
    $("odds-templates").textContent = "";
    document.body.dataset.oddsSystem = system;
  }
}

// "34% [28–41]"; in French "34 % [28–41]" (words.js writes the numbers in the page's language)
function rateText(entry) {
  return `${percentText(entry.rate)} [${numberText(100 * entry.low, 0)}–${numberText(100 * entry.high, 0)}]`;
}

function showOdds(answer) {
  oddsPage.last = answer;
  const odds = answer.odds;
  for (const row of $("odds-table").tBodies[0].rows) {
    const key = row.dataset.key;
    row.cells[0].textContent = t(row.cells[0].dataset.i18n);
    row.querySelector("td").textContent = key === "rounds"
      ? `${numberText(odds.rounds, 1)} [${numberText(odds.rounds_low, 1)}–${numberText(odds.rounds_high, 1)}]`
      : rateText(odds[key]);
  }
  $("odds-fights-done").textContent = numberText(odds.fights);
  $("odds-fights-word").textContent = plural(odds.fights) ? t("fights") : t("fight");  // "1 combat", "2 combats"
  $("odds-seconds").textContent = numberText(answer.seconds, 1);
  $("odds-result").hidden = false;
}

// After a language switch (app.js's setLanguage): the template list and the figures shown, written again in the
// new language.
function showOddsAgain() {
  if (!showTemplates()) oddsTemplates();
  if (oddsPage.last && !$("odds-result").hidden) showOdds(oddsPage.last);
}

async function askOdds() {
  $("odds-error").hidden = true;
  const body = { system: $("odds-system").value, party: parseGroup($("odds-party").value),
                 foes: parseGroup($("odds-foes").value), fights: Number($("odds-fights").value || 500),
                 seed: Number($("odds-seed").value || 0), lang: $("lang").value };
  $("odds-busy").hidden = false;
  const r = await getJSON("/odds", { method: "POST", headers: { "content-type": "application/json" },
                                     body: JSON.stringify(body) });
  $("odds-busy").hidden = true;
  if (!r.ok) {
    const detail = r.body.detail;
    $("odds-error").textContent = Array.isArray(detail)
      ? detail.map((d) => named((d.loc || []).slice(1).join("."), d.msg)).join("\n")
      : named(`${t("Error")} ${r.status}`, typeof detail === "string" ? detail : JSON.stringify(detail));
    $("odds-error").hidden = false;
    $("odds-result").hidden = true;
    oddsPage.last = null;
    return;
  }
  showOdds(r.body);
  document.body.dataset.odds = String(r.body.odds.fights);
}

window.addEventListener("DOMContentLoaded", async () => {
  $("odds-system").addEventListener("change", oddsTemplates);
  $("odds-ask").addEventListener("click", askOdds);
  await oddsTemplates();
  document.body.dataset.oddsReady = "1";
});
