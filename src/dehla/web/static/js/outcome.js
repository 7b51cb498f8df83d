/* Hand results in words, saying which side is which ("Us 1 ten, 6 tricks · Them 3 tens, 7 tricks"). */

import {t, tn} from "./i18n.js";

export const tensText = (n) => tn("{n} ten", "{n} tens", n);
export const tricksText = (n) => tn("{n} trick", "{n} tricks", n);

/** Do tricks decide anything under these rules (Mendikot and Taash: a 2-2 goes by tricks)? */
export function tricksMatter(scoring) {
  return scoring === "mendikot" || scoring === "taash";
}

/** "Us 1 ten, 6 tricks · Them 3 tens, 7 tricks"; `names` is [name of team 0, name of team 1]. */
export function sidesLine(tens, tricks, names, withTricks) {
  return [0, 1].map((team) => names[team] + " " + tensText(tens[team])
    + (withTricks ? ", " + tricksText(tricks[team]) : "")).join(" · ");
}

/** What decided a hand in which each side took two tens, or null. */
export function tieText(result, scoring, names) {
  if (result.tens[0] !== result.tens[1]) return null;
  if (scoring === "pagat") {
    return result.winner === null ? t("Two tens each.")
      : t("Two tens each: the side that did not deal wins ({team}).", {team: names[result.winner]});
  }
  if (result.winner === null) return t("Two tens each and as many tricks each: nobody scores.");
  return t("Two tens each: more tricks decide ({team}, {tricks}).",
    {team: names[result.winner], tricks: tricksText(result.tricks_won[result.winner])});
}

/** The extras of a hand: kot, all four tens, every trick, ended early. */
export function extrasText(result) {
  const parts = [];
  if (result.kot) parts.push(t("KOT!"));
  if (result.sweep) parts.push(t("All four tens!"));
  if (result.whitewash) parts.push(t("Every trick to one side!"));
  if (result.ended_early) parts.push(t("The hand ended early: its result could no longer change, whoever took the remaining tricks (Taash rule)."));
  return parts;
}
