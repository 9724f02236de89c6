// The page's words in the GM's language, shared by the question page (index.html) and the combat tracker
// (tracker.html): GET /i18n/{lang} gives the msgids of the gettext domain "web" translated, and every element
// with the page's word attribute (data-i18n on the question page, data-tr on the tracker) shows its word.
// Plain JS, no build step; loaded before the page's own script.
"use strict";

const Words = { messages: {}, lang: "en" };

// The word for msgid in the language loaded last (the msgid itself, English, when it has none).
function tr(msgid) { return Words.messages[msgid] || msgid; }

// French typography: a narrow no-break space before the colon ("Carte tactique : ...").
function colon() { return Words.lang === "fr" ? "\u202f: " : ": "; }

// Load the words of lang and put them on every element carrying attribute (e.g. "data-tr").
async function loadWords(lang, attribute) {
  const response = await fetch(`/i18n/${lang}`);
  const body = response.ok ? await response.json().catch(() => ({})) : {};
  Words.messages = body.messages || {};
  Words.lang = lang;
  document.documentElement.lang = lang;
  const key = attribute.replace(/^data-/, "").replace(/-([a-z])/g, (_m, c) => c.toUpperCase());
  for (const node of document.querySelectorAll(`[${attribute}]`)) node.textContent = tr(node.dataset[key]);
}
