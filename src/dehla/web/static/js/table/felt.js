/* The felt: seats around the table, the trick in play, the centre pile, each team's pile of won cards (face
   down beside the seat that first took cards for it this hand, with its tricks and tens in words), and each
   finished trick seen to its end: it stays with the winning card marked and "won by NAME" for the table's pause
   (a tap or key skips it), then its cards visibly go to the centre pile or to the winner's pile. */

import {h, reducedMotion, announce} from "../dom.js";
import {t, tn} from "../i18n.js";
import {cardBack, cardFace, cardsShort, isTen} from "../cards.js";
import {botLevel, seatName, teamName} from "../names.js";
import {trickWonSound} from "../sound.js";

const SWEEP_MS = 420;
const MOST_PILE_BACKS = 4;

/** Each team's won cards this hand, from the observation alone (every card in it was seen face up): the tricks it
    won, the cards it holds, its tens, and the seat its pile lies by (the first of the team to take cards).  The
    ``unswept`` finished tricks (on show, or still to be shown) are not in a pile yet: they go there when swept. */
export function wonPiles(obs, unswept, centreFamily) {
  const waiting = unswept.map((finished) => [finished, trickIndex(obs, finished)]).filter(([, at]) => at >= 0);
  const skipped = new Set(waiting.map(([, at]) => at));
  const tricks = obs.tricks.filter((_, at) => !skipped.has(at));
  return [0, 1].map((team) => {
    const holderTrick = tricks.find((trick) => (centreFamily ? trick.collected_by : trick.winner) % 2 === team
      && (centreFamily ? trick.collected_by !== null && trick.collected_by !== undefined : true));
    let cards = (obs.captured[team] || []).length;
    let tens = (obs.captured[team] || []).filter(isTen).length;
    for (const [finished, at] of waiting) {
      const pending = obs.tricks[at];
      if (!centreFamily && pending.winner % 2 === team) {
        cards -= pending.cards.length;
        tens -= pending.cards.filter(isTen).length;
      }
      if (centreFamily && finished.collected && finished.collected.team === team) {
        cards -= finished.collected.cards;
        tens -= (finished.collected.tens || []).length;
      }
    }
    return {
      team,
      tricks: tricks.filter((trick) => trick.winner % 2 === team).length,
      cards: Math.max(0, cards),
      tens: Math.max(0, tens),
      seat: holderTrick ? (centreFamily ? holderTrick.collected_by : holderTrick.winner) : null,
    };
  });
}

/** Where ``finished`` (a finished trick as the table sends it) is among the observation's tricks; -1 if nowhere
    (a trick of a hand before). */
function trickIndex(obs, finished) {
  return obs.tricks.findIndex((trick) => trick.cards.length === finished.cards.length
    && finished.cards.every((play) => trick.cards.includes(play.card)));
}

const keyOf = (finished) => finished.hand + ":" + finished.number;

export function seatPosition(seat, mySeat, players, direction) {
  const me = mySeat === null ? 0 : mySeat;
  const offset = (seat - me + players) % players;
  const step = 360 / players;
  const angle = (90 + (direction === "clockwise" ? 1 : -1) * offset * step) * Math.PI / 180;
  const narrow = window.innerWidth < 600;
  // on a phone the side seats sit higher, so that the cards played beside them have room
  const lift = narrow && players === 4 ? 15 * Math.abs(Math.cos(angle)) : 0;
  return {x: 50 + (narrow ? 34 : 41) * Math.cos(angle), y: 50 + 40 * Math.sin(angle) - lift, angle, narrow};
}

function place(el, x, y) {
  el.style.setProperty("left", x + "%");
  el.style.setProperty("top", y + "%");
  return el;
}

export class Felt {
  constructor(page) {
    this.page = page;
    this.box = h("section", {class: "felt", "aria-label": t("The table"), id: "felt"});
    this.show = null;         // the finished trick on display: {key, trick, timer}
    this.sweeping = false;
    this.seen = new Set();    // finished tricks already shown (hand:number)
    this.missed = [];         // finished tricks the table moved past while another was on show
    this.drawn = false;       // the felt has shown this table before (a page just opened has not)
    this.reactions = {};      // seat -> [reaction, until]
    this.box.addEventListener("click", () => this.skip());
  }

  showing() { return this.show !== null; }

  /** A tap, click or key: end the finished trick's pause now. */
  skip() { if (this.show && !this.sweeping) this.sweep(); }

  close() { if (this.show) clearTimeout(this.show.timer); }

  update() {
    const state = this.page.state;
    const obs = state.observation;
    const finished = state.finished_trick || null;
    const key = finished ? keyOf(finished) : null;
    // a page running behind can be sent the next tricks' ends while one is still on show: they are kept, to go to
    // their piles in sight one after another instead of being counted unseen
    if (finished && !this.seen.has(key) && (this.sweeping || (this.show && key !== this.show.key))
      && !this.missed.some((trick) => keyOf(trick) === key)) this.missed.push(finished);
    if (this.sweeping) return;   // drawn again when the cards have arrived
    if (this.show && key !== this.show.key) {
      // the table moved on (someone played at once): take the cards away now
      this.sweep();
      return;
    }
    if (!this.show) {
      // the ones the table has since moved past (the one it still shows is shown below, with its pause)
      this.missed = this.missed.filter((trick) => keyOf(trick) !== key && !this.seen.has(keyOf(trick))
        && trickIndex(obs, trick) >= 0);
      if (this.missed.length) {
        this.sweepAtOnce(this.missed.shift(), state);
        return;
      }
    }
    if (!this.show && finished && !this.seen.has(key)) {
      const pause = typeof finished.pause === "number" ? finished.pause : (state.table.trick_pause ?? 1.2);
      if (pause > 0.05) {
        this.seen.add(key);
        this.show = {key, trick: finished, timer: setTimeout(() => this.sweep(), pause * 1000)};
        this.tell(finished, state);
      } else if (this.drawn && (state.table.trick_pause ?? 1.2) > 0.05) {
        // its pause ended before a page following the table heard of it: it is still seen going to its pile,
        // without the pause (a page just opened shows the table as it is)
        this.sweepAtOnce(finished, state);
        return;
      } else {
        this.seen.add(key);   // a table without a pause, or a page just opened: the cards are in their pile
      }
    }
    this.draw(state, obs, this.show ? this.show.trick : null);
  }

  /** A finished trick the page was late for: told, drawn with its winner marked, and swept to its place now. */
  sweepAtOnce(trick, state) {
    const key = keyOf(trick);
    this.seen.add(key);
    this.show = {key, trick, timer: null};
    this.tell(trick, state);
    this.draw(state, state.observation, trick);
    this.sweep();
  }

  /** The finished tricks not in a pile yet: the one on show, those the page was late for, and the table's own
      finished trick while it waits to be shown. */
  unswept(state, finished) {
    const out = finished ? [finished, ...this.missed] : [...this.missed];
    const now = state.finished_trick;
    if (now && !this.seen.has(keyOf(now)) && !out.some((trick) => keyOf(trick) === keyOf(now))) out.push(now);
    return out;
  }

  name(seat) { return seatName(this.page.state.table, seat, this.page.state.seat); }

  /** The words of a finished trick: "won by NAME", or a collection of the centre. */
  words(trick) {
    const mine = this.page.state.seat;
    const you = mine !== null && trick.winner === mine;
    const name = this.name(trick.winner);
    const won = you ? t("You win the trick") : t("Won by {name}", {name});
    let collect = null, collectShort = null;
    if (trick.collected) {
      const n = trick.collected.cards;
      const tens = cardsShort(trick.collected.tens || []);
      collectShort = you ? tn("You collect {n} card", "You collect {n} cards", n)
        : tn("{name} collects {n} card", "{name} collects {n} cards", n, {name});
      if (tens) {
        collect = you ? tn("You collect {n} card with {tens}", "You collect {n} cards with {tens}", n, {tens})
          : tn("{name} collects {n} card with {tens}", "{name} collects {n} cards with {tens}", n, {name, tens});
      } else {
        collect = you ? tn("You collect {n} card", "You collect {n} cards", n)
          : tn("{name} collects {n} card", "{name} collects {n} cards", n, {name});
      }
    }
    return {won, collect, collectShort};
  }

  tell(trick, state) {
    const {won, collect} = this.words(trick);
    announce(collect || won);
    if (state.seat !== null && trick.winner % 2 === state.seat % 2) trickWonSound();
  }

  sweep() {
    if (!this.show || this.sweeping) return;
    clearTimeout(this.show.timer);
    const trick = this.show.trick;
    const finish = () => {
      this.show = null;
      this.sweeping = false;
      this.page.afterTrick();
    };
    if (reducedMotion() || !this.box.isConnected) { finish(); return; }
    this.sweeping = true;
    const toCentre = this.page.state.table.options.collection === "centre" && !trick.collected;
    // to the centre, or to the pile of the team that takes the cards (by the winner's seat if it has none yet)
    const team = trick.collected ? trick.collected.team : trick.winner % 2;
    const taker = trick.collected ? trick.collected.seat : trick.winner;
    const target = toCentre ? this.box.querySelector(".pile")
      : this.box.querySelector("#won-pile-" + team) || this.box.querySelector('.seat[data-seat="' + taker + '"]');
    const moving = [...this.box.querySelectorAll(".played.finished")];
    if (trick.collected) moving.push(...this.box.querySelectorAll(".collect-cards"));
    const banner = this.box.querySelector(".trick-result");
    if (!target || !moving.length) { finish(); return; }
    const goal = target.getBoundingClientRect();
    const gx = goal.left + goal.width / 2, gy = goal.top + goal.height / 2;
    const animations = moving.map((el) => {
      const r = el.getBoundingClientRect();
      const dx = gx - (r.left + r.width / 2), dy = gy - (r.top + r.height / 2);
      const from = getComputedStyle(el).transform;
      const centred = el.classList.contains("played") ? "translate(-50%, -50%) " : "";
      const animation = el.animate([{transform: from === "none" ? "none" : from, opacity: 1},
        {transform: centred + "translate(" + dx + "px, " + dy + "px) scale(.35)", opacity: toCentre ? 0.9 : 0.5}],
      {duration: SWEEP_MS, easing: "cubic-bezier(.4,.1,.3,1)", fill: "forwards"});
      animation.id = "dehla-sweep";
      return animation;
    });
    if (banner) animations.push(banner.animate([{opacity: 1}, {opacity: 1, offset: 0.4}, {opacity: 0}], {duration: SWEEP_MS, fill: "forwards"}));
    this.box.dispatchEvent(new CustomEvent("dehla-sweep", {bubbles: true, detail: {target: target.id || null}}));
    Promise.all(animations.map((item) => item.finished)).catch(() => null).then(finish);
  }

  react(seat, reaction) {
    this.reactions[seat] = [reaction, Date.now() + 2500];
    if (!this.sweeping && this.page.state && this.page.state.observation) this.update();
    setTimeout(() => { if (!this.sweeping && this.page.state && this.page.state.observation) this.update(); }, 2600);
  }

  draw(state, obs, finished) {
    this.drawn = true;
    const table = state.table;
    const mySeat = state.seat;
    const felt = this.box;
    felt.className = "felt players-" + obs.players + (finished ? " trick-done" : "") + (finished && finished.collected ? " collecting" : "");
    felt.replaceChildren();
    const played = {};
    if (finished) for (const play of finished.cards) played[play.seat] = play.card;
    else if (this.page.showLast && obs.tricks.length) {
      const last = obs.tricks[obs.tricks.length - 1];
      last.cards.forEach((card, index) => { played[(last.leader + index) % obs.players] = card; });
    } else for (const play of obs.trick) played[play.seat] = play.card;
    const now = Date.now();
    for (let seat = 0; seat < obs.players; seat++) {
      const info = table.seats[seat] || {};
      const pos = seatPosition(seat, mySeat, obs.players, obs.direction);
      const marks = [];
      if (seat === obs.dealer) marks.push(h("span", {class: "mark dealer", title: t("Dealer")}, t("Dealer")));
      if (seat === obs.to_act && !finished) marks.push(h("span", {class: "mark turn"}, t("to play")));
      if (obs.next_collector === seat) marks.push(h("span", {class: "mark collect", title: t("collects the centre if this seat wins the next trick")}, t("collects next")));
      if (obs.trump_hidden && obs.chooser === seat) marks.push(h("span", {class: "mark hid"}, t("hid the trump")));
      const kind = info.kind === "bot" ? botLevel(info.bot_label) : info.auto ? t("a bot plays for now") : info.connected === false ? t("away") : "";
      const label = this.name(seat);
      const reaction = this.reactions[seat] && this.reactions[seat][1] > now ? this.reactions[seat][0] : null;
      felt.append(place(h("div", {class: "seat team-" + (seat % 2) + (seat === obs.to_act && !finished ? " active" : "")
        + (seat === mySeat ? " mine" : ""), "data-seat": seat, role: "group", "aria-label": t("Seat {n}", {n: seat + 1}) + ": " + label},
        h("div", {class: "seat-name"}, label),
        h("div", {class: "seat-meta"}, tn("{n} card", "{n} cards", obs.hand_sizes[seat]) + (kind ? " · " + kind : "")),
        marks.length ? h("div", {class: "marks"}, marks) : null,
        reaction ? h("span", {class: "reaction-bubble", "aria-hidden": "true"}, reaction) : null), pos.x, pos.y));
      if (played[seat]) {
        const many = obs.players > 4;
        const inner = {x: 50 + (pos.narrow ? (many ? 22 : 23) : 17) * Math.cos(pos.angle), y: 50 + (many ? 22 : 19) * Math.sin(pos.angle)};
        const winner = finished && finished.winner === seat;
        const lastWinner = !finished && this.page.showLast && obs.tricks.length && obs.tricks[obs.tricks.length - 1].winner === seat;
        felt.append(place(h("div", {class: "played" + (finished ? " finished" : "") + (winner || lastWinner ? " winner" : "")
          + (seat === mySeat ? " mine" : ""),
          "data-seat": seat}, cardFace(played[seat]), winner ? h("span", {class: "won-tag"}, "★") : null), inner.x, inner.y));
      }
    }
    felt.append(this.centre(state, obs, finished));
    for (const pile of this.piles(state, obs, finished)) felt.append(pile);
    this.placePiles();
    this.keepNamesClear();
    if (finished) {
      const {won, collect, collectShort} = this.words(finished);
      if (collect) {
        // a collection of the centre is its own moment: the pile and its tens are shown going to the winner
        felt.append(h("div", {class: "trick-result collect", id: "trick-result", role: "status"},
          h("span", {class: "sr-only"}, collect),
          h("strong", {class: "collect-line", "aria-hidden": "true"}, collectShort),
          h("span", {class: "collect-cards", "aria-hidden": "true"}, cardBack("mini"),
            (finished.collected.tens || []).map((card) => cardFace(card, "mini")))));
      } else {
        felt.append(h("div", {class: "trick-result", id: "trick-result", role: "status"},
          h("strong", {}, won), h("span", {class: "skip-hint"}, t("Tap to go on"))));
      }
    } else if (this.page.showLast && obs.tricks.length) {
      const last = obs.tricks[obs.tricks.length - 1];
      felt.append(h("div", {class: "trick-result last"}, t("Last trick, won by {name}", {name: this.name(last.winner)})));
    }
    this.page.motion.felt(felt, state);   // backs for hidden hands; cards just played travel in (motion.js)
  }

  /** Each pile just off its seat's name box (below a side seat, beside the others), inside the felt. */
  placePiles() {
    const area = this.box.getBoundingClientRect();
    for (const pile of this.box.querySelectorAll(".won-pile")) {
      const seat = this.box.querySelector('.seat[data-seat="' + pile.dataset.seat + '"]');
      if (!seat) continue;
      const r = seat.getBoundingClientRect(), p = pile.getBoundingClientRect();
      const side = pile.dataset.side === "1";
      let x = side ? r.left + r.width / 2 : r.right + 4 + p.width / 2;
      let y = side ? r.bottom + 3 + p.height / 2 : r.top + r.height / 2;
      if (!side && x + p.width / 2 > area.right - 2) x = r.left - 4 - p.width / 2;   // no room on the right: the left
      if (side && y + p.height / 2 > area.bottom - 2) y = r.top - 3 - p.height / 2;
      x = Math.min(Math.max(x, area.left + 2 + p.width / 2), area.right - 2 - p.width / 2);
      pile.style.setProperty("left", (x - area.left - this.box.clientLeft) + "px");
      pile.style.setProperty("top", (y - area.top - this.box.clientTop) + "px");
    }
  }

  /** A played card never covers a name box: a card that overlaps any seat moves off it along the shorter way. */
  keepNamesClear() {
    // (nor a team's pile of won cards, whose counts must stay readable)
    const seats = [...this.box.querySelectorAll(".seat, .won-pile")].map((seat) => seat.getBoundingClientRect());
    for (const card of this.box.querySelectorAll(".played")) {
      for (const seat of seats) {
        const r = card.getBoundingClientRect();
        if (r.right <= seat.left || r.left >= seat.right || r.bottom <= seat.top || r.top >= seat.bottom) continue;
        const dx = (seat.left + seat.right < r.left + r.right) ? seat.right + 3 - r.left : seat.left - 3 - r.right;
        const dy = (seat.top + seat.bottom < r.top + r.bottom) ? seat.bottom + 3 - r.top : seat.top - 3 - r.bottom;
        if (Math.abs(dx) < Math.abs(dy)) card.style.setProperty("left", (card.offsetLeft + dx) + "px");
        else card.style.setProperty("top", (card.offsetTop + dy) + "px");
      }
    }
  }

  /** The teams' piles of won cards, face down by the seat that holds each (nothing of them is hidden information:
      only counts, and the tens, which every seat saw played). */
  piles(state, obs, finished) {
    const centreFamily = state.table.options.collection === "centre";
    const out = [];
    for (const pile of wonPiles(obs, this.unswept(state, finished), centreFamily)) {
      if (pile.seat === null || !pile.cards) continue;
      const pos = seatPosition(pile.seat, state.seat, obs.players, obs.direction);
      // beside the name box (placePiles): below a side seat, to the right of the seats at the top and the bottom
      const side = Math.abs(Math.cos(pos.angle)) > 0.7;
      const count = centreFamily ? tn("{n} card", "{n} cards", pile.cards) : tn("{n} trick", "{n} tricks", pile.tricks);
      const backs = Math.min(MOST_PILE_BACKS, centreFamily ? Math.ceil(pile.cards / obs.players) : pile.tricks);
      out.push(place(h("div", {class: "won-pile team-" + pile.team, id: "won-pile-" + pile.team, role: "group",
        "data-team": pile.team, "data-seat": pile.seat, "data-tricks": pile.tricks, "data-cards": pile.cards, "data-tens": pile.tens,
        "data-side": side ? "1" : "0", "aria-label": t("Cards won by {team}", {team: teamName(pile.team, state.seat)})},
      h("span", {class: "pile-stack", "aria-hidden": "true"},
        Array.from({length: Math.max(1, backs)}, () => h("span", {class: "card back tiny"}))),
      h("span", {class: "won-count"}, count + " · " + tn("{n} ten", "{n} tens", pile.tens))), pos.x, pos.y));
    }
    return out;
  }

  centre(state, obs, finished) {
    const table = state.table;
    const box = h("div", {class: "centre-info"});
    if (table.options.collection === "centre" && !(finished && finished.collected)) {
      let count = obs.centre.length;
      let tens = obs.centre.filter(isTen);
      if (finished) {
        const inTrick = new Set(finished.cards.map((play) => play.card));
        count = Math.max(0, count - finished.cards.length);
        tens = tens.filter((card) => !inTrick.has(card));
      }
      // what the pile is, from the first trick on: its name and count in sight, the rule in its tooltip
      const rule = t("Every trick's cards go to the centre; a player who wins two tricks in a row takes the whole centre.");
      box.append(h("div", {class: "pile" + (count ? "" : " empty"), id: "centre-pile", title: rule},
        count ? cardBack() : null, h("span", {class: "pile-count"}, tn("Centre: {n} card", "Centre: {n} cards", count)),
        h("span", {class: "sr-only"}, rule)));
      if (tens.length) box.append(h("div", {class: "pile-tens mini-cards"}, tens.map((card) => cardFace(card, "mini"))));
    }
    if (obs.open_draw) box.append(h("p", {}, t("Drawn for trump") + " ", cardFace(obs.open_draw, "mini")));
    if (obs.revealed_card) box.append(h("p", {}, t("Hidden trump turned up") + " ", cardFace(obs.revealed_card, "mini")));
    return box;
  }
}
