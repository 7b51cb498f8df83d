/* Cards that move like cards: the deal (cards fly from the dealer to each hand), a card played travelling
   from its hand to the trick, and the hidden hands shown as backs beside their seats.  The finished
   trick's way to the winner or the centre is felt.js's sweep; these use the same easing.

   Purely visual: every motion is a Web Animation on transform and opacity of the drawn card inside its
   button or place, never of the button itself, so a card can be pressed (where it will lie) at once and
   the page never waits for a motion.  A motion survives the table being drawn again (it is started again
   on the new element where it was), and ends at once when the player acts.  With
   `prefers-reduced-motion: reduce` nothing moves. */

import {h, reducedMotion} from "../dom.js";

const EASE = "cubic-bezier(.4,.1,.3,1)";   // the sweep's (felt.js)
const TRAVEL_MS = 320;
const DEAL_MS = 300;
const DEAL_STEP_MS = 45;
const MOST_BACKS = 13;

function middleOf(el) {
  const rect = el.getBoundingClientRect();
  return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, width: rect.width};
}

/** A hand's key: a new deal is a new hand (its number) or a new match (its dealer's first hand again). */
function handKey(obs) { return obs.match.hands.length + ":" + obs.hand_number + ":" + obs.dealer; }

export class Motion {
  constructor(page) {
    this.page = page;
    this.onFelt = new Map();    // seat -> the card it showed on the felt at the last drawing
    this.backs = {};            // seat -> backs shown for its hidden hand
    this.held = null;           // the cards of my hand at the last drawing (null: none drawn yet)
    this.hand = null;           // handKey of the last drawing
    this.feltDrawn = false;
    this.wasShowingLast = false;
    this.running = new Map();   // key -> {frames, options, start}: motions under way, to carry across drawings
  }

  quiet() { return reducedMotion(); }

  /** The player has acted: every motion ends now (the table shows where everything is). */
  settle() {
    this.running.clear();
    for (const animation of document.getAnimations()) if (String(animation.id).startsWith("dehla-")) animation.finish();
  }

  /** Start (or carry on, after a new drawing) the motion `key` on `el`. */
  play(el, key, frames, options) {
    const now = performance.now();
    let entry = this.running.get(key);
    if (!entry) {
      if (!frames) return;
      entry = {frames, options, start: now};
      this.running.set(key, entry);
    }
    const elapsed = now - entry.start;
    if (elapsed >= (entry.options.delay || 0) + entry.options.duration) { this.running.delete(key); return; }
    const animation = el.animate(entry.frames, {...entry.options, fill: "backwards"});
    animation.id = "dehla-" + key.split(":")[0];
    animation.currentTime = elapsed;
    animation.finished.then(() => { if (this.running.get(key) === entry) this.running.delete(key); }).catch(() => null);
  }

  prune() {
    const now = performance.now();
    for (const [key, entry] of this.running) {
      if (now - entry.start >= (entry.options.delay || 0) + entry.options.duration) this.running.delete(key);
    }
  }

  /** From `from` (a point on the screen) to where `el` is drawn. */
  fly(el, key, from, keyframes, options) {
    const to = middleOf(el);
    const shift = "translate(" + (from.x - to.x).toFixed(1) + "px, " + (from.y - to.y).toFixed(1) + "px)";
    this.play(el, key, keyframes(shift, from.width && to.width ? from.width / to.width : 0.5), options);
  }

  /** Called by the felt after each drawing: backs for the hidden hands, and the cards just played travel in. */
  felt(box, state) {
    const obs = state.observation;
    const quiet = this.quiet();
    this.prune();
    const startOfHand = obs.tricks.length === 0 && obs.trick.length === 0 && obs.phase !== "deal";
    const dealer = box.querySelector('.seat[data-seat="' + obs.dealer + '"]');
    for (const seatBox of box.querySelectorAll(".seat")) {
      const seat = Number(seatBox.dataset.seat);
      if (seat === state.seat) continue;
      const count = Math.min(MOST_BACKS, obs.hand_sizes[seat] || 0);
      // a first drawing deals only at the start of a hand; later, a hand that grows has been dealt to
      const before = !this.feltDrawn ? (startOfHand ? 0 : count) : Math.min(this.backs[seat] ?? 0, count);
      this.backs[seat] = count;
      if (!count) continue;
      const fan = h("span", {class: "seat-backs", "aria-hidden": "true"});
      for (let i = 0; i < count; i++) fan.append(h("span", {class: "card back tiny"}));
      seatBox.append(fan);
      if (quiet) continue;
      // the fan comes from the dealer as one piece (one moving layer a seat, light on a phone)
      const key = "deal:" + handKey(obs) + ":" + seat;
      if (before < count && dealer && dealer !== seatBox && !this.running.has(key)) {
        this.fly(fan, key, {...middleOf(dealer), width: 0}, (shift) => [{transform: shift + " translateX(-50%) scale(.3)", opacity: 0},
          {opacity: 1, offset: .3}, {transform: "translateX(-50%)", opacity: 1}], {duration: DEAL_MS + 6 * DEAL_STEP_MS, easing: EASE});
      } else this.play(fan, key);
    }
    // the cards on the felt: one that was not there at the last drawing has just been played
    const moving = this.feltDrawn && !this.page.showLast && !this.wasShowingLast && !quiet;
    const now = new Map();
    for (const place of box.querySelectorAll(".played")) {
      const card = place.querySelector(".card");
      if (!card) continue;
      const seat = Number(place.dataset.seat);
      now.set(seat, card.dataset.card);
      const key = "travel:" + seat + ":" + card.dataset.card;
      if (quiet) continue;
      if (this.running.has(key) || !moving || this.onFelt.get(seat) === card.dataset.card) { this.play(card, key); continue; }
      // my card comes from my hand (still drawn: the hand is drawn after the felt), another's from its seat
      const inHand = seat === state.seat ? document.querySelector('.hand .card-button[data-card="' + CSS.escape(card.dataset.card) + '"] .card') : null;
      const origin = inHand || box.querySelector('.seat[data-seat="' + seat + '"]');
      if (!origin) continue;
      const from = middleOf(origin);
      if (!inHand) from.width = 0;
      this.fly(card, key, from, (shift, scale) => [{transform: shift + " scale(" + scale.toFixed(2) + ")", opacity: inHand ? 1 : 0.3},
        {transform: "none", opacity: 1}], {duration: TRAVEL_MS, easing: EASE});
    }
    this.onFelt = now;
    this.feltDrawn = true;
    this.wasShowingLast = this.page.showLast;
  }

  /** Called after the hand is drawn: cards new in my hand are dealt from the dealer's seat, one after another. */
  dealt(box, state) {
    const obs = state.observation;
    const key = obs ? handKey(obs) : null;
    if (!obs || state.seat === null || obs.phase === "deal") { this.held = null; this.hand = key; return; }
    const startOfHand = obs.tricks.length === 0 && obs.trick.length === 0;
    const newHand = key !== this.hand;
    const fresh = this.held === null || newHand ? (startOfHand ? obs.hand : []) : obs.hand.filter((card) => !this.held.has(card));
    this.held = new Set(obs.hand);
    this.hand = key;
    if (this.quiet()) return;
    const dealer = fresh.length ? document.querySelector('.felt .seat[data-seat="' + obs.dealer + '"]') : null;
    const from = dealer ? middleOf(dealer) : null;   // read only when something is dealt (a read lays the page out)
    let order = 0;
    for (const button of box.querySelectorAll(".hand .card-button")) {
      const card = button.querySelector(".card");
      if (!card) continue;
      const motion = "deal:" + key + ":" + button.dataset.card;
      if (from && fresh.includes(button.dataset.card) && !this.running.has(motion)) {
        const delay = order++ * DEAL_STEP_MS;
        this.fly(card, motion, {...from, width: 0}, (shift) => [{transform: shift + " rotate(-25deg) scale(.5)", opacity: 0},
          {opacity: 1, offset: .25}, {transform: "none", opacity: 1}], {duration: DEAL_MS, delay, easing: EASE});
      } else this.play(card, motion);
    }
  }
}
