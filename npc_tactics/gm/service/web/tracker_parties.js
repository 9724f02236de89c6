// Saved parties on the tracker page: the combatants of one side kept in this browser (the PCs of a campaign, a
// band that comes back) and added to any later fight of the same system in one click. A party is kept as the
// bodies POST /fights/{id}/combatants takes, so the server checks each member again as it is added; the positions
// are left out, each fight places its own sides. Loaded before tracker.js, whose helpers ($, el, call, tr...) it
// uses once the page runs.
"use strict";

const PARTIES = "npc-tactics-parties";
const PLACED_BY_THE_FIGHT = ["position"];

function savedParties() {
  try {
    const kept = JSON.parse(localStorage.getItem(PARTIES) || "[]");
    return Array.isArray(kept) ? kept.filter((p) => p && typeof p.name === "string" && Array.isArray(p.members)) : [];
  } catch (e) { return []; }
}

function partySystem() { return T.view ? T.view.system : $("system").value; }

// One roster member as the body that adds it again: its template, its name, every other field the GM gave.
function memberBody(m) {
  const fields = { ...m.entry };
  delete fields.name; delete fields.template;
  for (const key of PLACED_BY_THE_FIGHT) delete fields[key];
  const body = { name: m.entry.name, fields };
  if (m.entry.template) body.template = m.entry.template;
  return body;
}

function partyNote(text) {
  $("party-note").textContent = text;
  $("party-note").hidden = !text;
}

function drawParties(selected) {
  const mine = savedParties().filter((p) => p.system === partySystem());
  const chosen = selected || $("party").value;
  $("party").replaceChildren(...(mine.length
    ? mine.map((p) => el("option", { value: p.name, text: `${p.name} (${p.members.length})` }))
    : [el("option", { value: "", text: tr("no saved party") })]));
  if (mine.some((p) => p.name === chosen)) $("party").value = chosen;
  $("party-add").disabled = !mine.length;
  $("party-forget").disabled = !mine.length;
}

function saveParty() {
  const side = Number($("add-side").value);
  const members = T.view.members.filter((m) => m.side === side);
  if (!members.length) { partyNote(tr("This side has no combatant yet")); return; }
  const name = T.view.sides[side].name;
  const others = savedParties().filter((p) => !(p.system === T.view.system && p.name === name));
  others.push({ name, system: T.view.system, members: members.map(memberBody) });
  localStorage.setItem(PARTIES, JSON.stringify(others));
  drawParties(name);
  partyNote(`${tr("Party saved in this browser")}${colon()}${name} (${members.length})`);
}

async function addParty() {
  const party = savedParties().find((p) => p.system === partySystem() && p.name === $("party").value);
  if (!party) return;
  partyNote("");  // an earlier "Party added" must not stand beside this add's error
  const side = Number($("add-side").value);
  for (const member of party.members) {
    const r = await call("POST", fightUrl("/combatants"), { ...member, side });
    if (!r.ok) { showError("add-error", r.body); return; }
    draw(r.body);
  }
  showError("add-error", null);
  partyNote(`${tr("Party added")}${colon()}${party.name} (${party.members.length})`);
}

function forgetParty() {
  const name = $("party").value;
  localStorage.setItem(PARTIES, JSON.stringify(savedParties().filter((p) => !(p.system === partySystem() && p.name === name))));
  drawParties();
  partyNote("");
}

function setupParties() {
  $("party-save").addEventListener("click", saveParty);
  $("party-add").addEventListener("click", addParty);
  $("party-forget").addEventListener("click", forgetParty);
}
