/* The daily duplicate: today's deals, the same for everyone, each played once with a bot partner against bots;
   the day's leaderboard; the commitment to the day's seed, and the seed itself once the day is over; past days,
   with a replay of every game (the replay page, reading the daily's own record). */

import {app} from "./state.js";
import {api, h, toast} from "./dom.js";
import {t, tn} from "./i18n.js";
import {errorMessage} from "./errors.js";
import {personName, presetTitle} from "./names.js";
import {navigate} from "./router.js";
import {playerName} from "./storage.js";
import {ReplayPage} from "./replay.js";

/** How often today's page asks again (results and the bots' own play arrive while it is open). */
const REFRESH_MS = 4000;

export function dailyReplay(day, table, root) {
  return new ReplayPage(table, 1, root, "/api/daily/" + day + "/games/" + table);
}

const dayText = (day) => new Date(day + "T00:00:00Z").toLocaleDateString(app.locale, {timeZone: "UTC", dateStyle: "long"});
const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n).toLocaleString(app.locale);

/** A hand from the player's team's side: tens, tricks, won or lost. */
function figuresText(figures) {
  const parts = [tn("{n} ten", "{n} tens", figures.tens), tn("{n} trick", "{n} tricks", figures.tricks)];
  if (figures.won === true) parts.push(t("hand won"));
  if (figures.won === false) parts.push(t("hand lost"));
  return parts.join(" · ");
}

export class DailyPage {
  constructor(day, root) {
    this.day = day;
    this.root = root;
    this.shown = "";
    this.load();
    this.timer = setInterval(() => this.load(), REFRESH_MS);
  }

  close() { clearInterval(this.timer); }

  refresh() { this.shown = ""; if (this.data) this.render(); }

  async load() {
    try {
      this.data = await api(this.day ? "/api/daily/" + this.day : "/api/daily");
      if (this.data.today && !this.days) this.days = (await api("/api/daily/days").catch(() => ({days: []}))).days;
    } catch (error) {
      clearInterval(this.timer);
      this.root.replaceChildren(h("section", {class: "panel"}, h("h1", {}, t("Daily duplicate")),
        h("p", {}, errorMessage(error))));
      return;
    }
    if (!this.data.today) clearInterval(this.timer);
    const seen = JSON.stringify(this.data);
    if (seen !== this.shown) { this.shown = seen; this.render(); }  // only what changed: focus stays put
  }

  render() {
    const data = this.data;
    const level = (app.meta.bots.find((bot) => bot.name === data.bot) || {}).level_name || data.bot;
    const hero = h("section", {class: "panel hero daily"},
      h("h1", {}, data.today ? t("Daily duplicate") : t("Daily duplicate of {day}", {day: dayText(data.day)})),
      h("p", {}, tn("Every day the same deal of {game} for everyone.", "Every day the same {n} deals of {game} for everyone.",
        data.deals, {game: presetTitle(data.preset)})),
      h("p", {class: "muted"}, t("You play each deal once, with a bot partner against two bots ({level}). Your result is compared with everyone else's game of the same deal and with the bots' own play of your seat.", {level})),
      h("ol", {class: "daily-deals", id: "daily-deals"}, data.yours.map((game) => this.dealItem(game))),
      this.seedBox());
    const board = h("section", {class: "panel", id: "daily-board-panel"}, h("h2", {}, t("Leaderboard")), this.board());
    const parts = [hero, board];
    if (data.today && this.days && this.days.length) {
      parts.push(h("section", {class: "panel", id: "daily-archive"}, h("h2", {}, t("Past days")),
        h("ul", {class: "history"}, this.days.map((item) => h("li", {},
          h("a", {href: "/daily/" + item.day, "data-link": true}, dayText(item.day)))))));
    } else if (!data.today) {
      parts.push(h("p", {}, h("a", {href: "/daily", "data-link": true}, t("Today's daily duplicate"))));
    }
    this.root.replaceChildren(h("div", {class: "daily-page"}, parts));
  }

  dealItem(game) {
    const n = game.deal + 1;
    const data = this.data;
    const item = h("li", {}, h("strong", {}, t("Deal {n}:", {n})), " ");
    if (game.state === "done") {
      const reference = data.references[game.deal];
      item.append(figuresText(game.figures),
        h("br"), reference ? t("The bots' own play: {figures}", {figures: figuresText(reference)}) : t("The bots are still playing this deal."),
        " ", h("a", {href: "/daily/" + data.day + "/replay/" + game.table, "data-link": true}, t("Replay")));
    } else if (data.today) {
      const label = game.state === "playing" ? t("Go on with deal {n}", {n}) : t("Play deal {n}", {n});
      item.append(h("button", {type: "button", class: game.state === "new" ? "primary" : "", id: "daily-play-" + game.deal,
        onclick: () => this.play(game.deal)}, label));
    } else {
      const reference = data.references[game.deal];
      item.append(t("You did not play this deal."),
        reference ? [h("br"), t("The bots' own play: {figures}", {figures: figuresText(reference)})] : null);
    }
    return item;
  }

  async play(deal) {
    try {
      const answer = await api("/api/daily/play", {deal, name: playerName()});
      navigate("/t/" + answer.table);
    } catch (error) {
      toast(errorMessage(error));
    }
  }

  /** The commitment now; the seed, and how to check it, once the day is over. */
  seedBox() {
    const data = this.data;
    const box = h("div", {class: "daily-seed"},
      h("p", {}, t("Commitment (SHA-256 of the day's secret seed):"), " ", h("code", {id: "daily-commitment"}, data.commitment)));
    if (data.seed) {
      box.append(h("p", {}, t("Seed:"), " ", h("code", {id: "daily-seed"}, data.seed)),
        h("p", {class: "muted"}, t("Anyone can check that the SHA-256 of the seed is the commitment shown all day, and deal the day's deals from it.")));
    } else {
      const ends = new Date(data.ends_at * 1000).toLocaleString(app.locale, {year: "numeric", month: "short",
        day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short"});
      box.append(h("p", {class: "muted"}, t("The deals were fixed before anyone played them: the seed is shown here when the day ends ({time}).", {time: ends})));
    }
    return box;
  }

  board() {
    const data = this.data;
    if (!data.board.length) return h("p", {class: "muted"}, t("Nobody has finished a deal of this day yet."));
    const rows = data.board.map((row, index) => h("tr", {class: row.you ? "you" : ""},
      h("td", {}, String(index + 1)),
      h("th", {scope: "row"}, personName(row.name) + (row.you ? " (" + t("you") + ")" : ""),
        h("span", {class: "daily-games"}, row.games.filter((game) => game.table).map((game) => h("a", {class: "daily-game",
          href: "/daily/" + data.day + "/replay/" + game.table, "data-link": true},
          // the link's name starts with the words it shows (in every language), then says what it opens
          t("Deal {n}", {n: game.deal + 1}), h("span", {class: "sr-only"},
            " (" + t("Replay of deal {n}: {figures}", {n: game.deal + 1, figures: figuresText(game.figures)}) + ")"))))),
      h("td", {}, String(row.played)),
      h("td", {}, signed(row.versus_bots)),
      h("td", {}, row.matchpoints.toLocaleString(app.locale) + " %")));
    return [h("div", {class: "scroll-x", tabindex: "0", role: "region", "aria-label": t("Leaderboard")},
      h("table", {class: "seat-summary", id: "daily-board"},
        h("tr", {}, h("th", {scope: "col"}, t("Rank")), h("th", {scope: "col"}, t("Player")),
          h("th", {scope: "col"}, t("Deals")), h("th", {scope: "col"}, t("Tens against the bots")),
          h("th", {scope: "col"}, t("Matchpoints"))),
        rows)),
      h("p", {class: "muted daily-note"}, t("Tens against the bots: your team's tens minus the bots' own on the same deal. Matchpoints: the share of the other games of each deal you beat (by tens, then tricks)."))];
  }
}
