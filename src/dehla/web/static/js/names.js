/* Names shown to players: seats ("You" for your own), teams (Us / Them), presets, bot levels.
   Preset ids are never shown: their titles and summaries come from GET /api/meta in the page's language. */

import {app} from "./state.js";
import {t} from "./i18n.js";

/** A name people gave, or the server's fallback ("Bot 1", "Player 0") in the page's language. */
export function personName(name) {
  let found = /^Bot (\d+)$/.exec(name || "");
  if (found) return t("Bot {n}", {n: found[1]});
  found = /^Player (\d+)$/.exec(name || "");
  if (found) return t("Player {n}", {n: found[1]});
  return name || "";
}

/** The name of `seat` at `table` as the person in `mySeat` sees it. */
export function seatName(table, seat, mySeat) {
  if (mySeat !== null && mySeat !== undefined && seat === mySeat) return t("You");
  const info = table && table.seats ? table.seats[seat] : null;
  return info && info.name ? personName(info.name) : t("Seat {n}", {n: seat + 1});
}

/** "Us" / "Them" for a seated person, "Team 1" / "Team 2" for a watcher (seats and teams are numbered from 1 in every text). */
export function teamName(team, mySeat) {
  if (mySeat === null || mySeat === undefined) return t("Team {n}", {n: team + 1});
  return team === mySeat % 2 ? t("Us") : t("Them");
}

export function preset(name) {
  return app.meta ? app.meta.presets.find((item) => item.name === name) : null;
}

export function presetTitle(name) {
  const found = preset(name);
  if (found && found.title) return found.title;
  // Until the server sends titles: the description's first words ("Mendikot with band hukum").
  if (found && found.description) return found.description.split(/ \(|:|,/)[0];
  return t("Custom rules");
}

export function presetSummary(name) {
  const found = preset(name);
  if (!found) return "";
  return found.summary || found.description || "";
}

export function levelName(label) {
  return {beginner: t("beginner"), intermediate: t("intermediate"), advanced: t("advanced"), hard: t("hard"),
    strong: t("strong"), expert: t("expert"), master: t("master"), random: t("random")}[label] || label;
}

/** "Bot (intermediate)". */
export function botLevel(label) {
  return t("Bot ({level})", {level: levelName(label)});
}

export function botLabel(bot) {
  return botLevel(bot.label);
}

/** The unit of the match score: kots, points, or hands won (Mendikot). */
export function scoreUnit(scoring) {
  return scoring === "pagat" ? t("Kots") : scoring === "taash" ? t("Points") : t("Hands won");
}

/** "Asha and Bot 2" / "Asha y Bot 2": a list in the page's language (never "&"). */
export function listText(items) {
  try { return new Intl.ListFormat(app.lang || "en", {type: "conjunction"}).format(items); }
  catch (error) { return items.join(", "); }
}
