/* How long a match is, in plain words, before it starts: "First team to 1 kot: usually 1 to 6 hands."
   The target and its unit come from the rules; "usually" is the middle three quarters of matches simulated
   here from how often bots' hands end 4-0, 3-1 or 2-2 (measured with `dehla simulate`; docs/web.md). */

import {t, tn} from "./i18n.js";

/** Share of hands whose tens split 4-0, 3-1 and 2-2 between the teams, per scoring family (docs/web.md). */
export const TENS_SPLIT = {
  pagat: {four: 0.305, three: 0.423, two: 0.272},
  taash: {four: 0.107, three: 0.507, two: 0.385},
  mendikot: {four: 0.123, three: 0.51, two: 0.367},
};

const RUNS = 2000;

/** A small seeded generator, so that the same rules always read the same. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hands one simulated match takes: each hand won by either team alike, scored by the family's rule. */
function oneMatch(options, target, random) {
  const scoring = options.scoring;
  const split = TENS_SPLIT[scoring] || TENS_SPLIT.mendikot;
  const score = [0, 0];
  let streak = [0, 0];
  for (let hands = 1; hands < 10000; hands++) {
    const team = random() < 0.5 ? 0 : 1;
    const roll = random();
    if (scoring === "pagat") {
      streak = team === 0 ? [streak[0] + 1, 0] : [0, streak[1] + 1];
      if (roll < split.four || streak[team] >= (options.streak_kot || 7)) { score[team] += 1; streak = [0, 0]; }
    } else if (scoring === "taash") {
      const sweep = options.sweep_bonus === "match" ? target : options.sweep_bonus === "double" ? 160 : 80;
      score[team] += roll < split.four ? sweep : roll < split.four + split.three ? 30 : 20;
    } else {
      score[team] += 1;
    }
    if (score[team] >= target) return hands;
  }
  return 10000;
}

/** The fewest and most hands of the middle three quarters of simulated matches. */
export function usualHands(options, target) {
  const random = generator(38 + target);
  const all = Array.from({length: RUNS}, () => oneMatch(options, target, random)).sort((a, b) => a - b);
  return [all[Math.floor(RUNS * 0.125)], all[Math.floor(RUNS * 0.875)]];
}

/** "First team to 1 kot: usually 1 to 6 hands." for the rules' options (scoring and target). */
export function matchLength(options) {
  const target = options.target;
  const scoring = options.scoring;
  const goal = scoring === "pagat" ? tn("First team to {n} kot", "First team to {n} kots", target)
    : scoring === "taash" ? tn("First team to {n} point", "First team to {n} points", target)
      : tn("First team to win {n} hand", "First team to win {n} hands", target);
  const [low, high] = usualHands(options, target);
  const span = low === high ? tn("usually {n} hand", "usually {n} hands", low)
    : t("usually {low} to {high} hands", {low, high});
  return t("{goal}: {span}.", {goal, span});
}
