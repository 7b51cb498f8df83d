/* Cards drawn by the project (text for small cards, a face drawn in faces.js for full-size ones; no image
   files), and their names for screen readers. */

import {h} from "./dom.js";
import {faceUrl} from "./faces.js";
import {t} from "./i18n.js";

export const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};

export function suitName(letter) {
  return {S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs")}[letter] || letter;
}

export function rankName(rank) {
  return {A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack")}[rank] || rank;
}

export function cardParts(text) {
  return {rank: text.slice(0, -1), suit: text.slice(-1)};
}

/** "10 of hearts" (translated). */
export function cardLabel(text) {
  const {rank, suit} = cardParts(text);
  return t("{rank} of {suit}", {rank: rankName(rank), suit: suitName(suit)});
}

/** "10♥": the short form used inside sentences. */
export function cardShort(text) {
  const {rank, suit} = cardParts(text);
  return rank + (SUITS[suit] || suit);
}

export function cardsShort(cards) {
  return cards.map(cardShort).join(" ");
}

export function cardFace(text, extra) {
  const {rank, suit} = cardParts(text);
  const small = !!extra && extra.split(" ").includes("mini");
  if (!small) {
    // a full-size card: its face is a picture (faces.js) with corner indices, pips or a court; the words are for screen readers
    return h("span", {class: "card drawn suit-" + suit + (extra ? " " + extra : ""), "data-card": text,
      style: {"--face": faceUrl(rank, suit, false), "--face4": faceUrl(rank, suit, true)}},
    h("span", {class: "sr-only"}, cardLabel(text)));
  }
  return h("span", {class: "card suit-" + suit + (extra ? " " + extra : ""), "data-card": text},
    h("span", {class: "rank", "aria-hidden": "true"}, rank),
    h("span", {class: "pip", "aria-hidden": "true"}, SUITS[suit]),
    h("span", {class: "sr-only"}, cardLabel(text)));
}

export function cardBack(extra) {
  return h("span", {class: "card back" + (extra ? " " + extra : ""), "aria-hidden": "true"});
}

export function cardsLine(cards) {
  if (!cards.length) return h("span", {class: "muted"}, t("none"));
  return h("span", {class: "mini-cards"}, cards.map((card) => cardFace(card, "mini")));
}

export const isTen = (card) => card.startsWith("10");
