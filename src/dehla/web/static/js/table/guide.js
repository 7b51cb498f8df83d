/* The guided first hand: at a table the lobby made for it, each new thing (the deal, the trump, following
   suit, asking for a hidden trump, a trick won, the centre, the tens, the hand's end) is explained in a small card the first time it
   happens, from the state the page already receives; "Leave the guide" ends it at any point. */

import {announce, h} from "../dom.js";
import {t} from "../i18n.js";
import {pref, setPref} from "../storage.js";

const ORDER = ["deal", "trump", "follow", "ask", "trick", "centre", "tens", "end"];

/** The guide this browser follows: {table, seen: [step, ...]} or null. */
export function guideFor(tableId) {
  const guide = pref("guide", null);
  return guide && guide.table === tableId ? guide : null;
}

/** Make the table `tableId` a guided first hand (the lobby, before opening it). */
export function startGuide(tableId) { setPref("guide", {table: tableId, seen: []}); }

function trumpText(options) {
  if (options.trump === "called") {
    return t("Trump (hukum): the player after the dealer looks at their first five cards and names the trump suit. A trump beats every card of the other suits.");
  }
  if (options.trump === "hidden" || options.trump === "hidden_auto") {
    return t("Band hukum: one player hides a card face down; its suit becomes trump once it is turned up, when a player who cannot follow suit asks for it. A trump beats every card of the other suits.");
  }
  if (options.trump === "open_draw") return t("Trump (hukum) was drawn openly: the card shown on the table gives the trump suit. A trump beats every card of the other suits.");
  return t("Trump (hukum) was cut: its suit is shown at the top, beside Trump. A trump beats every card of the other suits.");
}

function tensText(options) {
  if (options.scoring === "pagat") return t("A ten (dehla) was played. The tens decide the hand: the team that collects 3 tens wins it, and all 4 in one hand is a kot.");
  if (options.scoring === "taash") return t("A ten (dehla) was played. The tens decide the hand: more tens wins; 4 to 0 scores 80 points, 3 to 1 scores 30, and at 2 to 2 the team with more tricks scores 20.");
  return t("A ten (dehla) was played. The tens decide the hand: 3 or 4 tens win it (all 4 is a mendikot); at 2 to 2 the team with 7 tricks or more wins.");
}

/** The words of one step at this table. */
function stepText(step, options) {
  switch (step) {
    case "deal": return t("The deal: your cards are at the bottom, the others' stay hidden. Partners sit opposite each other: you play with the player across the table.");
    case "trump": return trumpText(options);
    case "follow": return t("Following suit: when a card has been led, you must play the same suit if you have it; the cards you may not play are dimmed. With none of that suit, play any card.");
    case "ask": return t("You have no card of the suit led, and the trump is still hidden (band hukum). You may play any card, or press Ask for trump: the hidden card is turned up, its suit is trump from then on, and you must then play a trump to this trick if you have one.");
    case "trick": return options.collection === "centre"
      ? t("A trick was won: the highest trump wins it, else the highest card of the suit led. Its winner leads the next trick.")
      : t("A trick was won: the highest trump wins it, else the highest card of the suit led. Its cards go to the winner's team, and the winner leads the next trick.");
    case "centre": return t("The centre: the cards of each trick go to the middle. A player who wins two tricks in a row takes the whole centre, with any tens in it.");
    case "tens": return tensText(options);
    default: return t("That was your first hand: the result shows who took the tens. Play on as long as you like; the Words button explains the game's words again.");
  }
}

/** The steps the table has reached, from what the page has received. */
function reached(state) {
  const obs = state.observation;
  const options = state.table.options;
  const found = new Set();
  if (!obs) return found;
  const mine = state.seat;
  const finished = state.finished_trick || null;
  const playing = obs.phase === "play" || obs.phase === "call" || obs.phase === "hide";
  if (playing && obs.hand.length) found.add("deal");
  if (obs.phase === "call" || obs.phase === "hide" || obs.trump || obs.trump_hidden) found.add("trump");
  if (obs.phase === "play" && obs.to_act === mine && obs.trick.length) found.add("follow");
  // band hukum: the first time this player may ask for the hidden trump (they cannot follow suit)
  if (obs.phase === "play" && obs.to_act === mine && (obs.legal_actions || []).includes("reveal")) found.add("ask");
  if (finished || obs.tricks.length) found.add("trick");
  if (options.collection === "centre" && (finished || obs.tricks.length)) found.add("centre");
  const cards = [...obs.trick.map((play) => play.card), ...(finished ? finished.cards.map((play) => play.card) : [])];
  for (const trick of obs.tricks) cards.push(...trick.cards);
  if (cards.some((card) => card.startsWith("10"))) found.add("tens");
  if (obs.match.hands.length) found.add("end");
  return found;
}

export class Guide {
  constructor(page) {
    this.page = page;
    this.box = h("section", {class: "guide", id: "guide", "aria-label": t("Guided first hand"), hidden: true});
    this.queue = [];
  }

  active() { return guideFor(this.page.tableId) !== null; }

  /** Queue the steps that have just happened for the first time, and show the first one waiting. */
  update() {
    const guide = guideFor(this.page.tableId);
    if (!guide || this.page.state.seat === null) { this.box.hidden = true; this.box.replaceChildren(); return; }
    const now = reached(this.page.state);
    let added = false;
    for (const step of ORDER) {
      if (now.has(step) && !guide.seen.includes(step) && !this.queue.includes(step)) { this.queue.push(step); added = true; }
    }
    if (added || this.shown !== this.queue[0]) this.draw();
  }

  /** "Got it": this step is seen; the next one waiting shows. */
  next() {
    const guide = guideFor(this.page.tableId);
    const step = this.queue.shift();
    if (guide && step) {
      guide.seen.push(step);
      setPref("guide", guide);
      if (step === "end") { this.leave(true); return; }
    }
    this.draw();
  }

  /** Leave the guide (at any point) or finish it: the table goes on as an ordinary one. */
  leave(finished) {
    setPref("guide", null);
    setPref("guide_done", true);
    this.queue = [];
    this.box.hidden = true;
    this.box.replaceChildren();
    announce(finished ? t("The guided hand is finished.") : t("You left the guide; the game goes on."));
  }

  draw() {
    const options = this.page.state.table.options;
    const step = this.queue[0];
    this.shown = step;
    this.box.hidden = false;
    const leave = h("button", {type: "button", class: "small", id: "guide-leave", onclick: () => this.leave(false)}, t("Leave the guide"));
    if (!step) {
      this.box.replaceChildren(h("p", {class: "guide-bar"}, h("span", {class: "guide-tag"}, t("Guided first hand")), " ", leave));
      return;
    }
    const last = step === "end";
    if (this.told !== step) { this.told = step; announce(stepText(step, options)); }
    this.box.replaceChildren(h("div", {class: "guide-card", "data-step": step, role: "note"},
      h("p", {class: "guide-tag"}, t("Guided first hand")),
      h("p", {class: "guide-text"}, stepText(step, options)),
      h("p", {class: "guide-buttons"},
        h("button", {type: "button", class: "small primary", id: last ? "guide-finish" : "guide-next", onclick: () => this.next()},
          last ? t("Finish the guide") : t("Got it")),
        last ? null : leave)));
  }
}
