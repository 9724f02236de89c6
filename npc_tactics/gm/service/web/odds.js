// The "Encounter odds" section: party and foes as 'name xN, ...', POST /odds, the four figures with their 95%
// intervals. Uses app.js's helpers ($, el, t, getJSON); its words carry data-i18n so a language switch
// retranslates them with the rest of the page.
"use strict";

const oddsPage = { last: null };  // the last answer shown, shown again when the language changes

function parseGroup(text) {
  // "goblin x4, goblin_archer x2" -> [{template: "goblin", count: 4}, ...]; the server names any bad entry
  return text.split(",").map((part) => part.trim()).filter((part) => part).map((part) => {
    const m = part.match(/^(\S+?)\s*(?:[x×*]\s*(\d+))?$/);
    return m ? { template: m[1], count: Number(m[2] || 1) } : { template: part, count: 1 };
  });
}

async function oddsTemplates() {
  const system = $("odds-system").value;
  const r = await getJSON(`/bestiary/${system}`);
  $("odds-templates").textContent = r.ok ? r.body.templates.map((x) => x.name).join(", ") : "";
  document.body.dataset.oddsSystem = system;  // the template list now shows this system's names
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
  $("odds-seconds").textContent = numberText(answer.seconds, 1);
  $("odds-result").hidden = false;
}

// After a language switch (app.js's setLanguage): the figures shown, written again in the new language.
function showOddsAgain() {
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
