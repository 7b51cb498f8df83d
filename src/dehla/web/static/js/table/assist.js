/* Hints, undo and claims at the table (issue 38): the buttons, the hint's words with its card marked in the
   hand, and a claim waiting for answers. The server decides everything; this only asks and shows. */

import {announce, h} from "../dom.js";
import {t} from "../i18n.js";
import {errorText} from "../errors.js";
import {seatName} from "../names.js";

export class AssistPanel {
  constructor(page) {
    this.page = page;
    this.hintMessage = null;   // the last hint received, valid only at its version
    this.asked = null;         // the version a hint was asked at, until it comes
    this.box = h("section", {class: "assist", id: "assist", "aria-label": t("Help with this hand")});
    this.onKey = (event) => {
      const typing = event.target && event.target.closest && event.target.closest("input, textarea, select");
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "h" && this.canHint()) { event.preventDefault(); this.askHint(); }
      else if (event.key === "u" && this.canUndo()) { event.preventDefault(); this.undo(); }
    };
    document.addEventListener("keydown", this.onKey);
  }

  close() { document.removeEventListener("keydown", this.onKey); }

  myTurnInPlay() {
    const state = this.page.state;
    const obs = state && state.observation;
    return !!(obs && state.seat !== null && obs.to_act === state.seat && !this.page.moved
      && ["call", "hide", "play"].includes(obs.phase));
  }

  canHint() { const state = this.page.state; return !!(state && state.table.assists && this.myTurnInPlay() && !state.table.claim); }

  canUndo() {
    const state = this.page.state;
    const obs = state && state.observation;
    return !!(state && state.table.assists && state.seat !== null && obs && obs.phase === "play" && !state.table.claim);
  }

  canClaim() {
    const state = this.page.state;
    return !!(state && state.observation && state.observation.phase === "play" && this.myTurnInPlay() && !state.table.claim);
  }

  askHint() {
    const version = this.page.state.version;
    if (this.asked === version) return;
    if (this.page.send({type: "hint", version})) { this.asked = version; this.render(); }
  }

  undo() { this.page.send({type: "undo"}); }

  claim(what) { this.page.send({type: "claim", what}); }

  answer(accept) { this.page.send({type: "claim_answer", accept}); }

  /** A hint from the server: its words, and its card marked in the hand. */
  hint(message) {
    this.hintMessage = message;
    this.asked = null;
    this.render();
    announce(this.words(message).join(" "));
  }

  words(message) {
    return message.words.map((word) => errorText(word.code, word.params, word.message, this.page.seatNamer()));
  }

  /** The hint still fits the table as it is (the same version). */
  currentHint() {
    const message = this.hintMessage;
    return message && this.page.state && message.version === this.page.state.version ? message : null;
  }

  render() {
    const state = this.page.state;
    const box = this.box;
    box.replaceChildren();
    if (!state || !state.observation || state.seat === null) { box.hidden = true; return; }
    box.hidden = false;
    const table = state.table;
    const claim = table.claim;
    if (claim) {
      const who = seatName(table, claim.seat, state.seat);
      const mine = claim.seat === state.seat;   // "You claim ...", never "You claims ..."
      const text = claim.what === "tens"
        ? (mine ? t("You claim every remaining ten.") : t("{who} claims every remaining ten.", {who}))
        : (mine ? t("You claim every remaining trick.") : t("{who} claims every remaining trick.", {who}));
      const row = h("div", {class: "claim-box", id: "claim-box", role: "status"}, h("p", {}, text));
      if (claim.waiting.includes(state.seat)) {
        row.append(h("div", {class: "claim-answer"},
          h("button", {type: "button", class: "primary", id: "claim-accept", onclick: () => this.answer(true)}, t("Accept the claim")),
          h("button", {type: "button", id: "claim-refuse", onclick: () => this.answer(false)}, t("Refuse the claim"))));
      } else {
        row.append(h("p", {class: "muted"}, t("Waiting for the other team's answer…")));
      }
      box.append(row);
    }
    const buttons = h("div", {class: "assist-row"});
    if (table.assists) {
      buttons.append(h("button", {type: "button", class: "small", id: "hint-button", disabled: !this.canHint() || this.asked === state.version,
        "aria-keyshortcuts": "h", onclick: () => this.askHint()},
      this.asked === state.version ? t("Thinking…") : t("Hint")));
      buttons.append(h("button", {type: "button", class: "small", id: "undo-button", disabled: !this.canUndo(),
        "aria-keyshortcuts": "u", onclick: () => this.undo()}, t("Undo my card")));
    }
    if (this.canClaim()) {
      buttons.append(h("button", {type: "button", class: "small", id: "claim-tricks", onclick: () => this.claim("tricks")},
        t("Claim the remaining tricks")));
      buttons.append(h("button", {type: "button", class: "small", id: "claim-tens", onclick: () => this.claim("tens")},
        t("Claim the remaining tens")));
    }
    if (buttons.childNodes.length) box.append(buttons);
    const hint = this.currentHint();
    if (hint) {
      box.append(h("div", {class: "hint-box", id: "hint-box", role: "status"}, ...this.words(hint).map((line) => h("p", {}, line))));
      for (const button of this.page.hand.box.querySelectorAll(".hand button")) {
        if (button.dataset.action === hint.action) button.classList.add("hinted");
      }
    }
  }
}
