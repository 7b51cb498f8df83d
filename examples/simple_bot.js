#!/usr/bin/env node
// A complete dehla bot in JavaScript (Node, standard library only), written from docs/protocol.md alone.
//
// It speaks the bot protocol dehla-bot/1: JSON Lines on standard input and output, one message a line.
//
//   host -> bot  {"type": "hello", "protocol": "dehla-bot/1", "seat": 1, "rules": "pagat", "options": {...}, ...}
//   bot -> host  {"type": "ready", "protocol": "dehla-bot/1", "name": "simple-js"}
//   host -> bot  {"type": "act", "observation": {... the seat's dehla-observation/1 ...}}
//   bot -> host  {"action": "10H"}
//   host -> bot  another "hello" (a new game in the same process) or {"type": "quit"}
//
// Try it:
//
//   dehla play --partner "cmd:node examples/simple_bot.js" --opponents random
//   dehla arena --rules mendikot-band --bots "cmd:node examples/simple_bot.js,random" --deals 50
//
// It plays every preset without knowing any: the rules arrive written out (`options`), the
// observation marks which cards of the trick count as trump and says who is winning it
// (`trick_winner`), so no rule of a trick is written here. Its play:
//
// * calling trump: the suit it holds most of, the stronger on a tie;
// * hiding the band-hukum card: the lowest card of its longest suit;
// * asking for the hidden trump: when what the trick is worth (below) holds a ten;
// * leading: an ace outside trump if it has one, else its lowest card, keeping its tens;
// * following: what the trick is worth is the tens in it, plus the tens in the centre when winning it
//   collects them (immediate collection, the last trick, or this seat is `next_collector`);
//   if its partner is winning, it gives a ten if it may, else its lowest card; if an opponent is
//   winning, it takes the trick with its cheapest winning card when the trick is worth a ten or the
//   card is cheap to spend, else it plays its lowest card.
//
// Logs go to standard error; standard output carries exactly one line per hello and per act.

"use strict";

const readline = require("node:readline");

const PROTOCOL = "dehla-bot/1";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

const rank = (card) => RANKS.indexOf(card.slice(0, -1)); // 0 for a two up to 12 for an ace
const suit = (card) => card.slice(-1);
const isTen = (card) => card.slice(0, -1) === "10";

// A small seeded random source (mulberry32), so that a game replays exactly from the hello's seed.
function seededRandom(seed) {
  let state = (Number.isInteger(seed) ? seed : 0) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The bot's state for the game in progress; a hello replaces it all.
let game = { seat: null, options: null, random: seededRandom(0) };

function lowest(cards) {
  // The cheapest card to give away: the lowest, passing over tens while there is anything else.
  const pool = cards.filter((card) => !isTen(card));
  return (pool.length ? pool : cards).reduce((a, b) => (rank(b) < rank(a) ? b : a));
}

function pick(cards) {
  return cards[Math.floor(game.random() * cards.length)];
}

// Would `card`, played now, beat `best` (the card of trick_winner, with its trump mark)?
// The rule of docs/protocol.md, "Reading a trick": a card played now counts as trump if it is of the
// trump suit, or, while `cut_open`, if it is not of the suit led (it sets trump).
function beats(card, best, bestIsTrump, led, trump, cutOpen) {
  if (trump !== null && led === trump) return suit(card) === led && rank(card) > rank(best);
  const mineIsTrump = (trump !== null && suit(card) === trump) || (cutOpen && suit(card) !== led);
  if (bestIsTrump) return mineIsTrump && rank(card) > rank(best);
  if (mineIsTrump) return true;
  return suit(card) === led && rank(card) > rank(best);
}

// The tens this seat would take by winning the trick in progress.
function worth(obs) {
  let tens = obs.trick.filter((play) => isTen(play.card)).length;
  const trickNumber = obs.tricks.length + 1;
  const collects =
    obs.options.collection === "immediate" ||
    trickNumber === obs.tricks_per_hand ||
    obs.next_collector === obs.seat;
  if (collects) tens += obs.centre.filter(isTen).length;
  return tens;
}

function choose(obs) {
  const legal = obs.legal_actions;
  const hand = obs.hand;
  const countIn = (letter) => hand.filter((card) => suit(card) === letter);

  const calls = legal.filter((action) => action.startsWith("call "));
  if (calls.length) {
    const strength = (action) => {
      const cards = countIn(action.slice(-1));
      return cards.length * 100 + cards.reduce((sum, card) => sum + rank(card), 0);
    };
    return calls.reduce((a, b) => (strength(b) > strength(a) ? b : a));
  }

  const hides = legal.filter((action) => action.startsWith("hide "));
  if (hides.length) {
    const longest = ["S", "H", "D", "C"].reduce((a, b) => (countIn(b).length > countIn(a).length ? b : a));
    const inSuit = hides.filter((action) => suit(action.slice(5)) === longest);
    return (inSuit.length ? inSuit : hides).reduce((a, b) => (rank(b.slice(5)) < rank(a.slice(5)) ? b : a));
  }

  if (legal.includes("reveal") && worth(obs) > 0) return "reveal";
  const cards = legal.filter((action) => action !== "reveal");
  const trump = obs.trump; // null while no card counts as trump

  if (obs.trick.length === 0) {
    const aces = cards.filter((card) => rank(card) === 12 && suit(card) !== trump);
    return aces.length ? pick(aces) : lowest(cards);
  }

  const winning = obs.trick.find((play) => play.seat === obs.trick_winner);
  if (winning.seat % 2 === obs.seat % 2) {
    const tens = cards.filter(isTen);
    return tens.length ? tens[0] : lowest(cards);
  }
  const takers = cards
    .filter((card) => beats(card, winning.card, winning.trump, obs.led, trump, obs.cut_open))
    .sort((a, b) => rank(a) - rank(b));
  if (takers.length && (worth(obs) > 0 || rank(takers[0]) >= 9 || suit(takers[0]) === trump)) {
    return takers[0];
  }
  return lowest(cards);
}

function answer(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    answer({ error: `cannot read that line as JSON: ${error.message}` });
    return;
  }
  const kind = message && typeof message === "object" ? message.type : undefined;
  if (kind === "quit") {
    input.close();
    return;
  }
  if (kind === "hello") {
    // A new game: forget everything about the previous one (the host may reuse this process).
    game = { seat: message.seat, options: message.options, random: seededRandom(message.seed) };
    process.stderr.write(`simple-js: seat ${message.seat}, ${message.options.preset}\n`);
    answer({ type: "ready", protocol: PROTOCOL, name: "simple-js" });
  } else if (kind === "act") {
    try {
      answer({ action: choose(message.observation) });
    } catch (error) {
      answer({ error: `simple-js could not decide: ${error.message}` });
    }
  }
  // Any other message type is ignored without an answer: hosts may add notices.
});

input.on("close", () => process.exit(0));
