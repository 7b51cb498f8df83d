/* Server refusals are a code with params; the browser words them from the catalogs.
   The English templates come from GET /api/meta ("messages": {CODE: template}). */

import {app} from "./state.js";
import {t} from "./i18n.js";
import {cardsShort, cardShort, suitName} from "./cards.js";

/** Words for the params of a refusal: cards as 10♥, suits by name, seats by name ("You" for your own). */
export function formatParams(params, seatNamer) {
  const out = {};
  for (const [key, value] of Object.entries(params || {})) {
    if (key === "card" && typeof value === "string") out[key] = cardShort(value);
    else if (key === "cards" && Array.isArray(value)) out[key] = cardsShort(value);
    else if (key === "suit" && typeof value === "string") out[key] = suitName(value);
    else if (key === "seat" && typeof value === "number") out[key] = seatNamer ? seatNamer(value) : t("Seat {n}", {n: value + 1});
    else if (Array.isArray(value)) out[key] = value.join(", ");
    else out[key] = String(value);
  }
  return out;
}

/** The sentence for a refusal in the page's language; `fallback` is the server's English for unknown codes. */
export function errorText(code, params, fallback, seatNamer) {
  const templates = (app.meta && app.meta.messages) || {};
  const template = code ? templates[code] : null;
  if (!template) return fallback || t("That was refused.");
  return t(template, formatParams(params, seatNamer));
}

/** The words of an ApiError (from dom.api) or any other error. */
export function errorMessage(error, seatNamer) {
  if (error && error.code) return errorText(error.code, error.params, error.message, seatNamer);
  return (error && error.message) || t("Something went wrong.");
}
