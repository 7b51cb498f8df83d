/* Your hand and what you may do: the prompt, the trump call, asking for trump, and the cards, fanned
   in one or two rows so that 13 cards fit on a phone with every card at least 44 px wide. */

import {h} from "../dom.js";
import {t, tn} from "../i18n.js";
import {cardFace, cardParts, SUITS, suitName} from "../cards.js";
import {seatName} from "../names.js";

/** How to lay `count` cards in `width` px: rows of cards and the step between card starts. */
export function handLayout(count, width) {
  const cardWidth = width < 420 ? 50 : 62;
  const gap = 4;
  if (count <= 1 || count * (cardWidth + gap) - gap <= width) return {cardWidth, rows: [count], step: cardWidth + gap};
  // one row while every card shows at least 44 px (a finger's width), else two rows
  const one = (width - cardWidth) / (count - 1);
  if (one >= Math.min(44, cardWidth * 0.8)) return {cardWidth, rows: [count], step: one};
  const first = Math.ceil(count / 2);
  const step = Math.min(cardWidth + gap, (width - cardWidth) / Math.max(1, first - 1));
  return {cardWidth, rows: [first, count - first], step};
}

export class HandControls {
  constructor(page) {
    this.page = page;
    this.box = h("section", {class: "controls", "aria-label": t("Your hand")});
  }

  prompt(obs, mySeat) {
    const myTurn = obs.to_act === mySeat;
    const legal = new Set(obs.legal_actions);
    if (obs.phase === "deal") return obs.match.over ? t("The match is over.") : t("The next hand is about to be dealt.");
    if (!myTurn) return obs.to_act === null ? "" : t("Waiting for {name}…", {name: seatName(this.page.state.table, obs.to_act, mySeat)});
    if (obs.phase === "call") return t("Call trump: choose the suit from your first five cards.");
    if (obs.phase === "hide") return t("Band hukum: choose a card to hide face down. Its suit will be trump once it is turned up.");
    if (!obs.trick.length) return t("Your turn: lead any card.");
    const led = obs.led || cardParts(obs.trick[0].card).suit;
    const canFollow = obs.hand.some((card) => cardParts(card).suit === led);
    if (canFollow) return t("Your turn: follow suit ({suit}).", {suit: SUITS[led] + " " + suitName(led)});
    if (legal.has("reveal")) return t("You cannot follow suit: play any card, or ask for trump.");
    return t("You cannot follow suit: play any card.");
  }

  render() {
    const state = this.page.state;
    const obs = state.observation;
    const mySeat = state.seat;
    const box = this.box;
    const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    box.replaceChildren();
    if (mySeat === null) {
      box.append(h("p", {class: "muted"}, t("You are watching. Cards in hands are never shown to watchers.")));
      return;
    }
    const legal = new Set(obs.legal_actions);
    const myTurn = obs.to_act === mySeat && !this.page.moved;
    box.append(h("p", {class: "prompt" + (myTurn ? " your-turn" : ""), id: "prompt"}, this.prompt(obs, mySeat), " ",
      state.deadline !== null && myTurn ? h("span", {id: "deadline", class: "deadline"}) : null));
    if (myTurn && obs.phase === "call") {
      box.append(h("div", {class: "call-row"}, ["S", "H", "D", "C"].map((suit) =>
        h("button", {type: "button", class: "suit-button suit-" + suit, "data-action": "call " + suit,
          onclick: () => this.page.act("call " + suit)}, SUITS[suit] + " " + suitName(suit)))));
    }
    if (myTurn && legal.has("reveal")) {
      box.append(h("button", {type: "button", class: "primary", "data-action": "reveal", id: "ask-trump",
        onclick: () => this.page.act("reveal")}, t("Ask for trump (turn up the hidden card)")));
    }
    const hand = h("div", {class: "hand", role: "group", "aria-label": t("Your cards")});
    const hiding = myTurn && obs.phase === "hide";
    const buttons = obs.hand.map((card) => {
      const action = hiding ? "hide " + card : card;
      const ok = myTurn && legal.has(action);
      // the name is the card's own (hidden) words, so that what is seen is part of what is read
      return h("button", {type: "button", class: "card-button" + (ok ? " legal" : " dimmed"), "data-action": action,
        "data-card": card, disabled: !ok, onclick: () => this.page.act(action)},
      hiding ? h("span", {class: "sr-only"}, t("Hide:") + " ") : null, cardFace(card));
    });
    const width = Math.max(200, box.clientWidth - 24);
    const layout = handLayout(buttons.length, width);
    hand.style.setProperty("--card-w", layout.cardWidth + "px");
    hand.style.setProperty("--overlap", (layout.step - layout.cardWidth).toFixed(1) + "px");
    let index = 0;
    for (const size of layout.rows) {
      const row = h("div", {class: "hand-row"});
      const mid = (size - 1) / 2;
      for (let i = 0; i < size; i++) {
        const button = buttons[index++];
        const off = size > 1 ? (i - mid) / Math.max(mid, 1) : 0;
        button.style.setProperty("--rot", (off * (size > 6 ? 6 : 3)).toFixed(2) + "deg");
        button.style.setProperty("--arc", (off * off * 6).toFixed(1) + "px");
        row.append(button);
      }
      hand.append(row);
    }
    hand.addEventListener("keydown", (event) => {
      if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
      const enabled = [...hand.querySelectorAll("button:not([disabled])")];
      const at = enabled.indexOf(document.activeElement);
      if (at < 0 || !enabled.length) return;
      enabled[(at + (event.key === "ArrowRight" ? 1 : enabled.length - 1)) % enabled.length].focus();
      event.preventDefault();
    });
    box.append(hand);
    if (obs.hidden_card) box.append(h("p", {class: "muted"}, t("Your hidden card:") + " ", cardFace(obs.hidden_card, "mini")));
    if (obs.undealt[mySeat]) {
      box.append(h("p", {class: "muted"}, tn("{n} more card will be dealt to you after the trick in which someone first cannot follow suit.",
        "{n} more cards will be dealt to you after the trick in which someone first cannot follow suit.", obs.undealt[mySeat])));
    }
    if (obs.tricks.length && obs.phase !== "deal") {
      box.append(h("button", {type: "button", class: "small", id: "last-trick", "aria-pressed": this.page.showLast ? "true" : "false",
        onclick: () => { this.page.showLast = !this.page.showLast; this.page.render(); }},
      this.page.showLast ? t("Back to the trick") : t("Show the last trick")));
    }
    if (focused) {
      const again = box.querySelector('[data-action="' + CSS.escape(focused) + '"]');
      if (again && !again.disabled) again.focus();
    } else if (myTurn && (document.activeElement === document.body || !document.activeElement)) {
      const first = box.querySelector(".hand button.legal, .call-row button");
      if (first) first.focus({preventScroll: true});
    }
  }
}
