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

// A word and what it names, joined by the colon of the page's language ("note : ..." in French).
function named(word, text) { return `${word}${colon()}${text}`; }

// The page's numbers in the page's language (not the browser's): French has a decimal comma and a narrow no-break
// space between thousands ("600 064", "10,5"). With digits, that many decimals; without, the number as it is.
// English is written as the page always wrote it (toFixed, String: "10.5", "1200"), ungrouped.
function numberText(x, digits) {
  const n = Number(x);
  if (Words.lang !== "fr") return digits === undefined ? String(n) : n.toFixed(digits);
  if (digits === undefined) return new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 6 }).format(n);
  // rounded as in English first (toFixed: 4.05 is 4.0499... so "4.0", where Intl alone would write "4,1")
  return new Intl.NumberFormat("fr-FR", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(Number(n.toFixed(digits)));
}

// Whether a count takes the plural form of its word in the page's language, as gettext's Plural-Forms say: French
// uses the singular for 0 and 1 ("0 combat", "1 combat", "2 combats"), English for 1 only ("0 fights", "1 fight").
function plural(n) {
  return Words.lang === "fr" ? Number(n) > 1 : Number(n) !== 1;
}

// A count with its thousands grouped in the page's language: "600,064" in English, "600 064" in French.
function countText(n) {
  return new Intl.NumberFormat(Words.lang === "fr" ? "fr-FR" : "en-US").format(Number(n));
}

// A fraction (0.341) as a percentage: "34.1%" in English, "34,1 %" in French (a narrow no-break space before %,
// so the sign never goes alone to the next line).
function percentText(p, digits = 0) {
  return numberText(100 * p, digits) + (Words.lang === "fr" ? "\u202f%" : "%");
}

// Load the words of lang and put them on every element carrying attribute (e.g. "data-tr").
async function loadWords(lang, attribute) {
  const response = await fetch(`/i18n/${lang}`);
  const body = response.ok ? await response.json().catch(() => ({})) : {};
  Words.messages = body.messages || {};
  Words.lang = lang;
  document.documentElement.lang = lang;
  const key = attribute.replace(/^data-/, "").replace(/-([a-z])/g, (_m, c) => c.toUpperCase());
  for (const node of document.querySelectorAll(`[${attribute}]`)) node.textContent = tr(node.dataset[key]);
  for (const node of document.querySelectorAll("[data-colon]")) node.textContent = colon();  // "Engaged: ..."
}
