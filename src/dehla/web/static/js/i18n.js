/* Translations.  Every text of the page is written t("...") or tn("...", "...", n) so that pybabel
   extract finds it.  A language's catalog is an ES module served by /i18n/LANG.js (messages, plurals,
   pluralIndex from Babel's plural forms); /api/i18n/LANG (JSON) is the fallback. */

import {app} from "./state.js";

function fill(text, vars) {
  if (!vars) return text;
  let out = text;
  for (const key of Object.keys(vars)) out = out.split("{" + key + "}").join(String(vars[key]));
  return out;
}

/** The translation of `text`, with {placeholders} filled from `vars`. */
export function t(text, vars) {
  return fill(app.catalog.messages[text] || text, vars);
}

/** A text that depends on a number: tn("{n} card", "{n} cards", n). `n` is among the placeholders. */
export function tn(singular, plural, n, vars) {
  const all = {n, ...(vars || {})};
  const forms = app.catalog.plurals[singular];
  if (forms && forms.length) {
    const index = Math.min(forms.length - 1, Math.max(0, Number(app.catalog.pluralIndex(n)) || 0));
    if (forms[index]) return fill(forms[index], all);
  }
  return fill(n === 1 ? singular : plural, all);
}

const english = {messages: {}, plurals: {}, pluralIndex: (n) => (n === 1 ? 0 : 1)};

/** Load the catalog of `lang` into the app state. */
export async function loadLanguage(lang) {
  if (lang === "en") { app.catalog = english; app.lang = lang; return; }
  let catalog = null;
  try {
    const module = await import("/i18n/" + encodeURIComponent(lang) + ".js");
    catalog = {messages: module.messages || {}, plurals: module.plurals || {},
      pluralIndex: typeof module.pluralIndex === "function" ? module.pluralIndex : english.pluralIndex};
  } catch (error) {
    const response = await fetch("/api/i18n/" + encodeURIComponent(lang));
    const data = response.ok ? await response.json() : {};
    // The JSON form cannot carry code (no eval under the page's CSP): "(n != 1)" fits both languages we ship.
    catalog = {messages: data.messages || {}, plurals: data.plurals || {}, pluralIndex: english.pluralIndex};
  }
  app.catalog = catalog;
  app.lang = lang;
}
