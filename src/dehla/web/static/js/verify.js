/* A deal anyone can check, in the browser: the replay's "Check this deal" recomputes a hand's cards from its
   revealed seed with the derivation of docs/records.md ("Checkable deals"), hashing with Web Crypto
   (SubtleCrypto.digest, SHA-256), and compares them and the seed's hash with what the record says.
   The same check as `dehla verify`, written again here from the document's words. */

import {h} from "./dom.js";
import {t} from "./i18n.js";
import {cardShort} from "./cards.js";

const SUIT_ORDER = "SHDC";
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const WORDS = 4294967296;  // 2^32
const DOMAIN = new TextEncoder().encode("dehla-deal");

/** The bytes of a hex text, or null when it is not hex (two digits a byte). */
export function hexBytes(text) {
  if (typeof text !== "string" || !/^(?:[0-9a-fA-F]{2})+$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const hexOf = (buffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");

export const canCheck = () => Boolean(globalThis.crypto && globalThis.crypto.subtle);

async function sha256(bytes) {
  return globalThis.crypto.subtle.digest("SHA-256", bytes);
}

const u32 = (value) => { const out = new Uint8Array(4); new DataView(out.buffer).setUint32(0, value); return out; };

/** The 32-bit words of SHA-256(seed ‖ "dehla-deal" ‖ u32(hand) ‖ u32(block)), block after block. */
class Words {
  constructor(seed, hand) {
    this.prefix = new Uint8Array([...seed, ...DOMAIN, ...u32(hand)]);
    this.block = 0;
    this.view = null;
    this.at = 8;
  }

  async next() {
    if (this.at === 8) {
      this.view = new DataView(await sha256(new Uint8Array([...this.prefix, ...u32(this.block)])));
      this.block += 1;
      this.at = 0;
    }
    const word = this.view.getUint32(4 * this.at);
    this.at += 1;
    return word;
  }

  /** A draw below n: words at or above 2^32 − (2^32 mod n) are passed over. */
  async below(n) {
    const limit = WORDS - (WORDS % n);
    for (;;) {
      const word = await this.next();
      if (word < limit) return word % n;
    }
  }
}

/** The deal seed and hand give: each seat's cards in dealing order, and the drawn card under open draw. */
export async function dealFromSeed(seed, hand, players, openDraw) {
  const pack = [];
  for (const suit of SUIT_ORDER) for (const rank of RANK_ORDER) if (players === 4 || rank !== "2") pack.push(rank + suit);
  const words = new Words(seed, hand);
  for (let i = pack.length - 1; i > 0; i -= 1) {
    const j = await words.below(i + 1);
    [pack[i], pack[j]] = [pack[j], pack[i]];
  }
  const size = pack.length / players;
  const hands = [];
  for (let seat = 0; seat < players; seat += 1) hands.push(pack.slice(seat * size, (seat + 1) * size));
  const drawn = openDraw ? pack[await words.below(pack.length)] : null;
  return {hands, drawn};
}

const canonical = (card) => String(card).toUpperCase().replace(/^T/, "10");

/** Check one hand of a record: {ok, problems: [text...]}; `name(seat)` names a seat as the page does. */
export async function checkHand(recordHand, hand, openDraw, name) {
  const seed = hexBytes(recordHand.seed);
  if (!seed) return {ok: false, problems: [t("The revealed seed is not hexadecimal, so nothing follows from it.")]};
  const problems = [];
  const hash = hexOf(await sha256(seed));
  if (recordHand.commitment !== undefined && String(recordHand.commitment).toLowerCase() !== hash) {
    problems.push(t("The seed does not match the commitment: its SHA-256 is {hash}.", {hash}));
  }
  const recorded = recordHand.cards.map((cards) => cards.split(/\s+/).filter(Boolean).map(canonical));
  const expected = await dealFromSeed(seed, hand, recorded.length, openDraw);
  expected.hands.forEach((want, seat) => {
    const got = recorded[seat] || [];
    if (want.join(" ") === got.join(" ")) return;
    const extra = got.filter((card) => !want.includes(card));
    const missing = want.filter((card) => !got.includes(card));
    const list = (cards) => cards.map(cardShort).join(" ");
    if (!extra.length && !missing.length) problems.push(t("{name} holds the right cards in another order.", {name: name(seat)}));
    if (extra.length) problems.push(t("{name} holds {cards}, which the seed does not deal them.", {name: name(seat), cards: list(extra)}));
    if (missing.length) problems.push(t("{name} lacks {cards}, which the seed deals them.", {name: name(seat), cards: list(missing)}));
  });
  const drawn = recordHand.open_draw === undefined ? null : canonical(recordHand.open_draw);
  if (drawn !== expected.drawn) {
    problems.push(t("The drawn card is {card}; the seed draws {drawn}.",
      {card: drawn ? cardShort(drawn) : t("none"), drawn: expected.drawn ? cardShort(expected.drawn) : t("none")}));
  }
  return {ok: problems.length === 0, problems};
}

/** The replay's panel for the hand shown: the commitment and seed, the button, and the answer once checked.
    `page` keeps the answers (page.dealChecks) and is rendered again when one arrives. */
export function dealCheckPanel(page, openDraw) {
  const hand = page.hand;
  const recordHand = page.data.record.hands[hand];
  page.dealChecks = page.dealChecks || {};
  const box = h("section", {class: "deal-check", id: "deal-check"}, h("h2", {}, t("Is the deal fair?")));
  if (!recordHand.seed) {
    box.append(h("p", {class: "muted"}, t("This hand has no revealed seed, so its deal cannot be checked here.")));
    return box;
  }
  box.append(h("p", {class: "muted"}, t("Before this hand the table published a commitment, the SHA-256 of a secret seed; after it the seed was revealed. The deal follows from the seed, so anyone can recompute it.")),
    h("p", {class: "seal"}, t("Commitment") + ": ", h("code", {}, recordHand.commitment || t("none"))),
    h("p", {class: "seal"}, t("Seed") + ": ", h("code", {}, recordHand.seed)));
  const answer = page.dealChecks[hand];
  const status = h("div", {id: "deal-check-result", role: "status"});
  if (!canCheck()) {
    status.append(h("p", {class: "muted"}, t("This browser cannot compute SHA-256 on this page (it needs a secure connection); download the record and run dehla verify.")));
  } else if (answer === undefined) {
    box.append(h("button", {type: "button", id: "check-deal", onclick: () => {
      page.dealChecks[hand] = "checking";
      page.render();
      checkHand(recordHand, hand, openDraw, (seat) => page.name(seat))
        .then((result) => { page.dealChecks[hand] = result; })
        .catch(() => { page.dealChecks[hand] = {ok: false, problems: [t("The check could not be completed.")]}; })
        .finally(() => { if (page.hand === hand) page.render(); });
    }}, t("Check this deal")));
  } else if (answer === "checking") {
    status.append(h("p", {}, t("Checking…")));
  } else if (answer.ok) {
    status.append(h("p", {class: "check-good"}, "✓ " + t("This deal follows from the revealed seed.")));
  } else {
    status.append(h("p", {class: "error"}, "✗ " + t("This deal does not follow from the revealed seed:")),
      h("ul", {class: "check-problems"}, answer.problems.map((problem) => h("li", {}, problem))));
  }
  box.append(status);
  return box;
}

/** Seeds revealed at tables, by table, match and hand: a result dialog opened again after the next deal still
    shows its hand's seed (the table info carries only the latest hand's). */
const revealed = new Map();

function remember(table) {
  const seal = table.deal;
  if (seal && seal.seed) revealed.set(table.id + "/" + table.match_no + "/" + seal.hand, seal);
}

/** The header's line at a table: the commitment to the latest hand (in play, or just over). */
export function sealLine(table) {
  remember(table);
  const seal = table.deal;
  if (!seal) return null;
  const short = seal.commitment.slice(0, 12) + "…";
  return h("span", {id: "deal-commitment", "data-commitment": seal.commitment},
    t("Deal commitment") + ": ", h("code", {}, short));
}

/** The hand result's line: the seed of the hand just finished, with its commitment (null if it has none). */
export function revealedSeed(table, hand) {
  remember(table);
  const seal = revealed.get(table.id + "/" + table.match_no + "/" + hand);
  if (!seal) return null;
  return h("details", {class: "seal", id: "revealed-seed"},
    h("summary", {}, t("Deal seed, now revealed")),
    h("p", {}, h("code", {}, seal.seed)),
    h("p", {class: "muted"}, t("Commitment shown before the hand") + ": ", h("code", {}, seal.commitment)),
    h("p", {class: "muted"}, t("The seed's SHA-256 must be that commitment; the replay's Check this deal and dehla verify recompute the deal from the seed.")));
}

/** Commitments to next hands, by table, match and hand, kept from the table info between hands (it carries one
    only until the deal), so that the result dialog drawn again still shows the one published before the deal. */
const promised = new Map();

/** The result dialog's line for the hand to come: its commitment, published before its cards are dealt (null if
    the table has none, as for a match's last hand or a table that plays one given deal). */
export function nextSealLine(table, hand) {
  const next = table.next_deal;
  if (next) promised.set(table.id + "/" + table.match_no + "/" + next.hand, next.commitment);
  const commitment = promised.get(table.id + "/" + table.match_no + "/" + hand);
  if (!commitment) return null;
  return h("p", {class: "seal next-seal", id: "next-commitment", "data-commitment": commitment},
    t("Next hand's deal commitment, fixed before its deal") + ": ", h("code", {}, commitment));
}
