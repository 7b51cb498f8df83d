/* The game's own words (dehla, kot, hukum, haath): one panel that explains a word the first time it
   matters and can be opened and dismissed; never a stack of banners. */

import {h} from "./dom.js";
import {t} from "./i18n.js";
import {pref, setPref} from "./storage.js";

export const TERMS = {
  dehla: () => t("Dehla: a ten. The four tens are the only cards that score."),
  kot: () => t("Kot: a big win: all four tens in one hand, or (Pagat rules) seven hands in a row."),
  hukum: () => t("Hukum: trump. A trump beats every card of the other suits."),
  haath: () => t("Haath: a trick, one card from each player; the highest trump, else the highest card of the suit led, wins it."),
  centre: () => t("Centre: every trick's cards go to the middle; a player who wins two tricks in a row takes them all, with their tens."),
};

/** The lobby's list of every word. */
export function glossary() {
  return h("details", {class: "glossary"}, h("summary", {}, t("Words of the game")),
    h("ul", {}, Object.keys(TERMS).map((term) => h("li", {}, TERMS[term]()))));
}

/** The table's word panel: new words open it; "Got it" closes it; the "Words" button opens it again. */
export class WordPanel {
  constructor() {
    this.box = h("aside", {class: "notes", "aria-label": t("Words of the game")});
    this.fresh = [];      // words explained for the first time, not yet dismissed
    this.open = false;    // opened by hand: every word
  }

  /** Explain `term` if this browser has never seen it. */
  explainOnce(term) {
    const seen = pref("terms", []);
    if (seen.includes(term)) return;
    seen.push(term);
    setPref("terms", seen);
    this.fresh.push(term);
  }

  toggle() {
    if (this.open || this.fresh.length) { this.open = false; this.fresh = []; }
    else this.open = true;
    this.draw();
    if (!this.box.hidden) this.box.scrollIntoView({block: "nearest"});
  }

  draw() {
    const terms = this.open ? Object.keys(TERMS) : this.fresh;
    if (!terms.length) { this.box.replaceChildren(); this.box.hidden = true; return; }
    this.box.hidden = false;
    this.box.replaceChildren(h("div", {class: "explain", role: "note"},
      h("ul", {}, terms.map((term) => h("li", {"data-term": term}, TERMS[term]()))),
      h("button", {type: "button", class: "small", id: "words-done", onclick: () => {
        this.open = false; this.fresh = []; this.draw();
      }}, t("Got it"))));
  }
}
