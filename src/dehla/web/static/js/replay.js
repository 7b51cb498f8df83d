/* Trick-by-trick replay of a finished match, with the trump call, the hidden card and its reveal,
   and the solver's analysis on request: one mark per analysed decision, so marks and text agree.
   What is said of each decision (its mark and its words) comes with the analysis, decided once by the
   server's renderer (dehla.analysis.render): here each English template is translated (say) and shown.
   A decision the solver could not answer may carry the learned value's estimate: it gets a mark and a
   list of its own ("~", dashed, the word "estimate"), never the marks, list or counts of exact findings. */

import {api, h} from "./dom.js";
import {t, tn} from "./i18n.js";
import {app} from "./state.js";
import {cardFace, cardShort, suitName, SUITS} from "./cards.js";
import {errorMessage} from "./errors.js";
import {personName, preset} from "./names.js";
import {extrasText, sidesLine, tieText, tricksMatter} from "./outcome.js";
import {dealCheckPanel} from "./verify.js";

const isCard = (action) => !/^(call |hide |reveal)/.test(action);

/** The hand's steps from its record: tricks of plays (card, seat, record index) and the other decisions. */
export function handSteps(recordHand, replayHand, players) {
  const actions = recordHand.actions || [];
  const tricks = replayHand.tricks.map((trick) => ({...trick, plays: [], before: []}));
  let cards = 0;
  let pending = [];   // decisions that are not cards, shown with the play that follows them
  actions.forEach((action, index) => {
    if (!isCard(action)) { pending.push({action, index}); return; }
    const number = Math.floor(cards / players);
    const position = cards % players;
    cards += 1;
    const trick = tricks[number];
    if (!trick) return;
    const seat = (trick.leader + position) % players;
    for (const item of pending) item.seat = seat;
    trick.plays.push({card: action, index, seat, before: pending});
    pending = [];
  });
  return tricks;
}

export class ReplayPage {
  /** `base`: where the match's record and analysis are asked for (the daily duplicate's games have their own). */
  constructor(tableId, matchNo, root, base = null) {
    this.root = root;
    this.hand = 0;
    this.trick = 0;
    this.base = base || "/api/history/" + tableId + "/" + matchNo;
    this.download = this.base + "/record";
    this.analyses = {};  // hand number -> the solver's analysis, or "loading", or an error message
    api(this.base + "/replay").then((data) => { this.data = data; this.render(); })
      .catch((error) => root.append(h("p", {}, errorMessage(error))));
  }

  refresh() { if (this.data) this.render(); }

  step(delta) {
    const hands = this.data.replay.hands;
    let hand = this.hand, trick = this.trick + delta;
    if (trick < 0) { if (hand === 0) return; hand -= 1; trick = hands[hand].tricks.length; }
    if (trick > hands[hand].tricks.length) { if (hand === hands.length - 1) return; hand += 1; trick = 0; }
    this.hand = hand; this.trick = trick;
    this.render();
  }

  name(seat) {
    const names = this.data.record.players || [];
    return names[seat] ? personName(names[seat]) : t("Seat {n}", {n: seat + 1});
  }

  decisionText(item) {
    const who = this.name(item.seat);
    if (item.action.startsWith("call ")) {
      const suit = item.action.slice(5);
      return t("{who} calls {suit} trump", {who, suit: (SUITS[suit] || "") + " " + suitName(suit)});
    }
    if (item.action.startsWith("hide ")) return t("{who} hides {card} face down", {who, card: cardShort(item.action.slice(5))});
    return t("{who} asks for trump", {who});
  }

  render() {
    const {record, replay} = this.data;
    const hand = replay.hands[this.hand];
    const players = record.hands[this.hand].cards.length;
    const tricks = handSteps(record.hands[this.hand], hand, players);
    const scoring = optionOf(record.rules, "scoring", "pagat");
    const centreGame = optionOf(record.rules, "collection", "centre") === "centre";
    const analysis = this.analyses[this.hand];
    const judged = {};
    if (typeof analysis === "object") for (const item of analysis.verdicts) judged[item.index] = item;
    const mark = (index) => (typeof analysis === "object" ? markOf(judged[index]) : "");
    const box = h("section", {class: "panel replay"},
      h("h1", {}, t("Replay")),
      h("p", {}, t("Hand {n} of {m}", {n: this.hand + 1, m: replay.hands.length}) + " · " + t("Dealer: {name}", {name: this.name(hand.dealer)})
        + " · " + t("Trump") + ": " + (hand.trump ? SUITS[hand.trump] + " " + suitName(hand.trump) : t("none"))),
      h("div", {class: "replay-buttons"},
        h("button", {type: "button", id: "replay-prev", onclick: () => this.step(-1)}, t("◀ Previous trick")),
        h("span", {}, " " + t("Trick {n} of {m}", {n: this.trick, m: hand.tricks.length}) + " "),
        h("button", {type: "button", id: "replay-next", onclick: () => this.step(1)}, t("Next trick ▶")),
        " ", h("a", {class: "button", href: this.download, download: true}, t("Download the record"))));
    const deal = record.hands[this.hand].cards;
    box.append(h("h2", {}, t("The deal")), h("ul", {class: "deal"}, deal.map((cards, seat) =>
      h("li", {}, this.name(seat) + " (" + t("team {n}", {n: seat % 2 + 1}) + "): ",
        h("span", {class: "mini-cards"}, cards.split(" ").map((card) => cardFace(card, "mini")))))));
    box.append(dealCheckPanel(this, optionOf(record.rules, "trump", "") === "open_draw"));
    const list = h("ol", {class: "tricks"});
    tricks.slice(0, this.trick).forEach((trick) => {
      const items = [];
      for (const play of trick.plays) {
        for (const item of play.before) {
          items.push(h("span", {class: "decision", "data-index": item.index}, this.decisionText(item), mark(item.index), " · "));
        }
        for (const note of this.notesAt(record.hands[this.hand], play.index)) items.push(note);
        items.push(h("span", {class: "play", "data-index": play.index}, this.name(play.seat) + " ", cardFace(play.card, "mini"),
          mark(play.index), " "));
      }
      list.append(h("li", {}, items, " → " + t("won by {name}", {name: this.name(trick.winner)})
        + (centreGame && trick.collected_by !== null && trick.collected_by !== undefined
          ? " · " + t("{name} collects the centre", {name: this.name(trick.collected_by)}) : "")));
    });
    box.append(h("h2", {}, t("Tricks")), list);
    box.append(this.analysisPanel(analysis));
    if (this.trick === hand.tricks.length) {
      const names = [t("Team {n}", {n: 1}), t("Team {n}", {n: 2})];
      const parts = [sidesLine(hand.tens, hand.tricks_won, names, tricksMatter(scoring)) + "."];
      const tie = tieText(hand, scoring, names);
      if (tie) parts.push(tie);
      parts.push(hand.winner === null ? t("Nobody scores this hand.") : t("{team} wins the hand.", {team: names[hand.winner]}));
      parts.push(...extrasText(hand));
      box.append(h("p", {id: "replay-result"}, parts.join(" ")));
    }
    this.root.replaceChildren(box);
  }

  analyse() {
    const hand = this.hand;
    this.analyses[hand] = "loading";
    this.render();
    this.progress = null;
    // While the solver works, ask every second how many decisions it has done (the answer replaces the text).
    const poll = setInterval(() => {
      api(this.base + "/analysis/" + hand + "/progress").then((data) => {
        if (this.analyses[hand] !== "loading" || !(data.total || data.preparing)) return;
        this.progress = data;
        const line = document.getElementById("analysis-progress");
        if (line) line.textContent = progressText(data);
      }).catch(() => null);
    }, 1000);
    api(this.base + "/analysis/" + hand).then((data) => { this.analyses[hand] = data; })
      .catch((error) => { this.analyses[hand] = errorMessage(error); })
      .finally(() => { clearInterval(poll); if (this.hand === hand) this.render(); });
  }

  analysisPanel(analysis) {
    const box = h("section", {class: "analysis", id: "analysis", "aria-live": "polite"}, h("h2", {}, t("The solver's analysis")));
    if (analysis === undefined) {
      box.append(h("p", {class: "muted"}, t("The solver replays this hand with every card known and shows, play by play, whether each card kept the best result the team could still reach.")),
        h("button", {type: "button", id: "replay-analyse", onclick: () => this.analyse()}, t("Analyse this hand")));
      return box;
    }
    if (analysis === "loading") {
      box.append(h("p", {}, t("Analysing… the solver looks at every play of the hand.")),
        h("p", {class: "muted", id: "analysis-progress"}, this.progress ? progressText(this.progress) : ""));
      return box;
    }
    if (typeof analysis === "string") {
      box.append(h("p", {class: "error"}, analysis));
      return box;
    }
    // Every sentence below comes with the analysis (dehla.analysis.render), as `dehla analyse` prints it.
    const summary = analysis.summary;
    box.append(h("p", {}, say(summary.start)), h("p", {}, say(summary.gave_away)));
    const mistakes = analysis.verdicts.filter((verdict) => verdict.mark === "bad");
    if (mistakes.length) {
      box.append(h("ul", {class: "mistakes"}, mistakes.map((verdict) => h("li", {}, this.line(verdict)))));
    }
    const table = analysis.seat_table;
    box.append(h("div", {class: "scroll-x", tabindex: "0", role: "region", "aria-label": say(table.title)}, h("table", {class: "seat-summary"},
      h("tr", {}, table.headings.map((heading) => h("th", {}, say(heading)))),
      table.rows.map((row) => h("tr", {}, row.cells.map((cell) => h("td", {}, this.param(cell))))))));
    if (summary.unsolved) box.append(h("p", {class: "muted", id: "unsolved"}, say(summary.unsolved)));
    if (summary.estimates) box.append(this.estimatesPanel(summary.estimates, analysis.verdicts.filter((verdict) => verdict.mark === "estimate")));
    return box;
  }

  /** The decisions with only the model's estimate: a list apart, marked as estimates, counted nowhere else. */
  estimatesPanel([title, count, legend], estimated) {
    return h("div", {class: "estimates", id: "estimates"},
      h("h3", {}, say(title)),
      h("p", {class: "muted"}, say(count) + " " + say(legend)),
      h("ul", {}, estimated.map((verdict) => h("li", {},
        h("span", {class: "estimate-tag"}, t("estimate")), " ", this.line(verdict)))));
  }

  /** The record's annotations before action `index`: hints asked, cards taken back, the claim (docs/records.md). */
  notesAt(recordHand, index) {
    const notes = [];
    for (const hint of recordHand.hints || []) {
      if (hint.at === index) notes.push(h("span", {class: "note hint-note"}, t("{name} asked for a hint", {name: this.name(hint.seat)}), " · "));
    }
    for (const undo of recordHand.undos || []) {
      if (undo.at === index) {
        notes.push(h("span", {class: "note undo-note"}, t("{name} took back {card}", {name: this.name(undo.seat), card: actionShort(undo.card)}), " · "));
      }
    }
    const claim = recordHand.claim;
    if (claim && claim.at === index) {
      const what = claim.what === "tens" ? t("every remaining ten") : t("every remaining trick");
      notes.push(h("strong", {class: "note claim-note", id: "claim-note"}, t("Claimed by {name}: {what}", {name: this.name(claim.seat), what}), " · "));
    }
    return notes;
  }

  /** A decision's line: who played what ("Trick 3: Asha played 10♥"), then its words. */
  line(verdict) {
    return this.say(verdict.played) + ": " + sayAll(verdict.words);
  }

  /** A phrase whose parameters may name seats: by the players' names here. */
  say(phrase) {
    return say(phrase, (seat) => this.name(seat));
  }

  param(value) {
    return paramText(value, (seat) => this.name(seat));
  }
}

/** An option of a record's rules: a preset's name, or an object of options (maybe based on a preset). */
function optionOf(rules, name, fallback) {
  if (typeof rules === "string") return ((preset(rules) || {options: {}}).options[name]) ?? fallback;
  if (rules && rules[name] !== undefined) return rules[name];
  const base = rules && rules.preset ? preset(rules.preset) : null;
  return base && base.options[name] !== undefined ? base.options[name] : fallback;
}

function progressText(progress) {
  if (progress.preparing) return t("The solver is being prepared: after an install it is compiled once, which takes a minute or two. The analysis starts as soon as it is ready.");
  return t("{done} of {total} decisions solved", {done: progress.done, total: progress.total});
}

function actionShort(action) {
  if (action.startsWith("call ")) return t("call {suit}", {suit: suitName(action.slice(5))});
  if (action.startsWith("hide ")) return t("hide {card}", {card: cardShort(action.slice(5))});
  if (action === "reveal") return t("ask for trump");
  return cardShort(action);
}

const MARKS = {good: "✓", bad: "✗", unknown: "?", estimate: "~"};

/** A decision's mark (its kind and class from the renderer), its words in the title. */
function markOf(verdict) {
  if (!verdict) return "";
  return h("span", {class: "verdict " + verdict.mark, title: sayAll(verdict.words)}, MARKS[verdict.mark]);
}

/** A verdict's words, phrase after phrase (as `dehla analyse` joins them). */
function sayAll(words) {
  return words.map(say).join("; ");
}

/** One phrase of the renderer in the page's language: its template translated, each parameter written out
    (a seat by `seatName`, the page's name for it). */
function say(phrase, seatName = (seat) => t("Seat {n}", {n: seat})) {
  const params = {};
  for (const [name, value] of Object.entries(phrase.params)) params[name] = paramText(value, seatName);
  return phrase.plural ? tn(phrase.text, phrase.plural, phrase.params.n, params) : t(phrase.text, params);
}

/** A parameter: a number or text as it is, actions as the page names them, a margin, a seat, or a phrase. */
function paramText(value, seatName = (seat) => t("Seat {n}", {n: seat})) {
  if (value === null || typeof value !== "object") return String(value);
  if (Array.isArray(value.actions)) return value.actions.map(actionShort).join(", ");
  if (typeof value.number === "number") {
    return new Intl.NumberFormat(app.locale, {signDisplay: value.signed ? "always" : "auto",
      minimumFractionDigits: 2, maximumFractionDigits: 2}).format(value.number);
  }
  if (typeof value.seat === "number") return seatName(value.seat);
  return say(value, seatName);
}
