/* Your hand and what you may do: the prompt, the trump call, asking for trump, and the cards, fanned
   in one or two rows so that 13 cards fit on a phone with every card at least 44 px wide. */

import {announce, h} from "../dom.js";
import {t, tn} from "../i18n.js";
import {cardFace, cardLabel, cardParts, SUITS, suitName} from "../cards.js";
import {seatName} from "../names.js";
import {pref, setPref} from "../storage.js";

/** Px of every overlapped card left showing: a finger's width. */
export const MIN_SHOWN = 44;
/** Below this step the fan is not tilted, so that the tilt takes nothing from the part that shows. */
const TILT_STEP = 48;

/** How to lay `count` cards in `width` px: rows of cards and the step between card starts, so that every
    overlapped card shows at least MIN_SHOWN px (more rows rather than thinner slivers). */
export function handLayout(count, width) {
  const cardWidth = width < 420 ? 50 : 62;
  const gap = 4;
  if (count <= 1 || count * (cardWidth + gap) - gap <= width) return {cardWidth, rows: [count], step: cardWidth + gap};
  const perRow = Math.max(2, Math.floor((width - cardWidth) / MIN_SHOWN) + 1);
  const rowCount = Math.ceil(count / perRow);
  const rows = [];
  let left = count;
  for (let row = rowCount; row > 0; row--) {
    const size = Math.ceil(left / row);
    rows.push(size);
    left -= size;
  }
  const step = Math.min(cardWidth + gap, (width - cardWidth) / Math.max(1, rows[0] - 1));
  return {cardWidth, rows, step};
}

/** Why `card` may not be played now (for screen readers and the card's title). */
function whyNot(obs, card) {
  if (obs.phase !== "play") return t("Not playable now.");
  const led = obs.led || (obs.trick.length ? cardParts(obs.trick[0].card).suit : null);
  if (led && cardParts(card).suit !== led && obs.hand.some((held) => cardParts(held).suit === led)) {
    return t("Cannot be played: you must follow suit ({suit}).", {suit: suitName(led)});
  }
  return t("Cannot be played now by the rules.");
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

  /** The setting "play my only legal card automatically": offered once the player has met the follow-suit rule. */
  autoPlaySetting() {
    const input = h("input", {type: "checkbox", id: "auto-play", "data-action": "auto-play", checked: pref("auto_play", false) === true,
      onchange: () => { setPref("auto_play", input.checked); if (input.checked) this.page.render(); }});
    return h("p", {class: "auto-play"}, h("label", {class: "check"}, input, " " + t("Play my only legal card automatically")));
  }

  /** With the setting on, a turn with exactly one legal card plays it (once per state, after a short look). */
  autoPlay(obs, myTurn, legal) {
    if (!myTurn || obs.phase !== "play" || legal.size !== 1 || pref("auto_play", false) !== true) return;
    const [only] = legal;
    const version = this.page.state.version;
    if (!obs.hand.includes(only) || this.autoVersion === version) return;
    this.autoVersion = version;
    const play = () => {
      const now = this.page.state;
      if (this.page.closed || !now || now.version !== version || now.observation.to_act !== now.seat) return;
      // the finished trick is seen to its end first: playing would cut its pause short
      if (this.page.felt.showing()) { setTimeout(play, 300); return; }
      announce(t("Your only legal card was played: {card}", {card: cardLabel(only)}));
      this.page.act(only);
    };
    setTimeout(play, 600);
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
    // the cards are dimmed only on your turn, and only those you may not play; while you wait all show in full
    const choosing = myTurn && (obs.phase === "play" || obs.phase === "hide");
    const buttons = obs.hand.map((card) => {
      const action = hiding ? "hide " + card : card;
      const ok = myTurn && legal.has(action);
      const why = choosing && !ok ? whyNot(obs, card) : null;
      // the name is the card's own (hidden) words, so that what is seen is part of what is read
      return h("button", {type: "button", class: "card-button" + (ok ? " legal" : choosing ? " dimmed" : " waiting"),
        "data-action": action, "data-card": card, "aria-disabled": ok ? null : "true", title: why, tabindex: "-1",
        onclick: () => { if (ok) this.page.act(action); }},
      hiding ? h("span", {class: "sr-only"}, t("Hide:") + " ") : null, cardFace(card),
      why ? h("span", {class: "sr-only why"}, " — " + why) : null);
    });
    if (choosing && buttons.some((button) => button.classList.contains("dimmed")) && obs.trick.length) setPref("follow_seen", true);
    let layout = handLayout(buttons.length, Math.max(200, box.clientWidth - 24));
    let flat = false;
    if (window.innerWidth < 420 && layout.rows.length > 2) {
      // a small phone: the hand reaches over the panel's padding to 1 px from the screen's edges, untilted,
      // so that 13 cards still fit in two rows with 44 px of each showing at 320 px
      const extra = parseFloat(getComputedStyle(box).paddingLeft) + 6;
      hand.style.setProperty("margin-inline", -extra + "px");
      layout = handLayout(buttons.length, box.clientWidth + 10);   // the hand's width less 2 px
      flat = true;
    }
    hand.classList.toggle("rows-3", layout.rows.length > 2);
    hand.style.setProperty("--card-w", layout.cardWidth + "px");
    hand.style.setProperty("--overlap", (layout.step - layout.cardWidth).toFixed(1) + "px");
    let index = 0;
    for (const size of layout.rows) {
      const row = h("div", {class: "hand-row"});
      const mid = (size - 1) / 2;
      for (let i = 0; i < size; i++) {
        const button = buttons[index++];
        const off = size > 1 ? (i - mid) / Math.max(mid, 1) : 0;
        const tilt = !flat && layout.step >= TILT_STEP ? (size > 6 ? 6 : 3) : 0;
        button.style.setProperty("--rot", (off * tilt).toFixed(2) + "deg");
        button.style.setProperty("--arc", (off * off * 6).toFixed(1) + "px");
        row.append(button);
      }
      hand.append(row);
    }
    // one stop for Tab; the arrow keys go through every card, so the hand can be read card by card while waiting
    const entry = buttons.find((button) => button.dataset.action === focused) || buttons.find((button) => button.classList.contains("legal"))
      || buttons[0];
    if (entry) entry.tabIndex = 0;
    hand.addEventListener("keydown", (event) => {
      if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
      const all = [...hand.querySelectorAll("button")];
      const at = all.indexOf(document.activeElement);
      if (at < 0 || !all.length) return;
      const to = event.key === "Home" ? 0 : event.key === "End" ? all.length - 1
        : (at + (event.key === "ArrowRight" ? 1 : all.length - 1)) % all.length;
      all[at].tabIndex = -1;
      all[to].tabIndex = 0;
      all[to].focus();
      event.preventDefault();
    });
    box.append(hand);
    if (pref("follow_seen", false) === true) box.append(this.autoPlaySetting());
    this.autoPlay(obs, myTurn, legal);
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
