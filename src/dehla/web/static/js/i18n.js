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

/** Babel's plural rule (a C expression of n, as the JSON catalog carries it) read without eval, which the
    page's CSP forbids: numbers, n, brackets, ?: and the C operators, by precedence. */
export function pluralRule(expr) {
  const tokens = String(expr).match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  return (n) => {
    let at = 0;
    const peek = () => tokens[at];
    const binary = (next, ops) => () => {
      let left = next();
      while (ops[peek()]) { const op = ops[tokens[at++]]; left = op(left, next()); }
      return left;
    };
    const primary = () => {
      const token = tokens[at++];
      if (token === "(") { const value = ternary(); at++; return value; }
      if (token === "!") return Number(!primary());
      if (token === "-") return -primary();
      return token === "n" ? n : Number(token) || 0;
    };
    const product = binary(primary, {"*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b});
    const sum = binary(product, {"+": (a, b) => a + b, "-": (a, b) => a - b});
    const order = binary(sum, {"<": (a, b) => Number(a < b), ">": (a, b) => Number(a > b),
      "<=": (a, b) => Number(a <= b), ">=": (a, b) => Number(a >= b)});
    const equal = binary(order, {"==": (a, b) => Number(a === b), "!=": (a, b) => Number(a !== b)});
    const both = binary(equal, {"&&": (a, b) => Number(Boolean(a && b))});
    const either = binary(both, {"||": (a, b) => Number(Boolean(a || b))});
    function ternary() {
      const test = either();
      if (peek() !== "?") return test;
      at++;
      const yes = ternary();
      at++;  // ":"
      const no = ternary();
      return test ? yes : no;
    }
    return Number(ternary()) || 0;
  };
}

/** Load the catalog of `lang` into the app state. */
export async function loadLanguage(lang) {
  // Intl writes Marathi numbers in Devanagari digits by default; the cards, scores and counts use Latin ones
  app.locale = lang + "-u-nu-latn";
  if (lang === "en") { app.catalog = english; app.lang = lang; return; }
  let catalog = null;
  try {
    const module = await import("/i18n/" + encodeURIComponent(lang) + ".js");
    catalog = {messages: module.messages || {}, plurals: module.plurals || {},
      pluralIndex: typeof module.pluralIndex === "function" ? module.pluralIndex : english.pluralIndex};
  } catch (error) {
    const response = await fetch("/api/i18n/" + encodeURIComponent(lang));
    const data = response.ok ? await response.json() : {};
    // The JSON form carries the plural rule as text: read by pluralRule, never run as code (the page's CSP).
    catalog = {messages: data.messages || {}, plurals: data.plurals || {},
      pluralIndex: data.plural_expr ? pluralRule(data.plural_expr) : english.pluralIndex};
  }
  app.catalog = catalog;
  app.lang = lang;
}
