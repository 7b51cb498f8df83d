/* Finished matches: replay or download each. */

import {app} from "./state.js";
import {api, h, toast} from "./dom.js";
import {t, tn} from "./i18n.js";
import {listText, personName, presetTitle} from "./names.js";

export class HistoryPage {
  constructor(root) {
    this.root = root;
    this.render();
  }

  refresh() { this.root.replaceChildren(); this.render(); }

  async render() {
    const mine = h("section", {class: "panel", id: "your-games", hidden: true});
    const box = h("section", {class: "panel"}, h("h1", {}, t("Finished matches")));
    const boards = h("section", {class: "panel", id: "leaderboards", hidden: true});
    this.root.append(mine, box, boards);
    this.yourGames(mine);
    this.leaderboards(boards);
    const data = await api("/api/history").catch(() => ({matches: []}));
    if (!data.matches.length) { box.append(h("p", {class: "muted"}, t("No finished matches yet."))); return; }
    const list = h("ul", {class: "history"});
    for (const item of data.matches) {
      const when = new Date(item.finished * 1000).toLocaleString(app.locale);
      const players = (item.players || []).map(personName);
      const team = (n) => listText(players.filter((_, seat) => seat % 2 === n));
      const won = item.winner === 0 || item.winner === 1;
      const result = won ? t("{team} won {a}–{b}", {team: team(item.winner) || t("Team {n}", {n: item.winner + 1}),
        a: item.score[item.winner], b: item.score[1 - item.winner]}) + " · " + t("against {team}", {team: team(1 - item.winner)})
        : t("Score {a}–{b}", {a: item.score[0], b: item.score[1]});
      list.append(h("li", {},
        h("strong", {}, item.title || presetTitle(item.preset)), " · " + when,
        h("br"), result, " ",
        h("a", {href: "/replay/" + item.table + "/" + item.match_no, "data-link": true}, t("Replay")), " ",
        h("a", {href: "/api/history/" + item.table + "/" + item.match_no + "/record", download: true}, t("Download"))));
    }
    box.append(list);
  }

  /** The player's own games (private ones too), their figures per family and all their records to download. */
  async yourGames(box) {
    const data = await api("/api/me/games").catch(() => ({matches: [], stats: {}}));
    if (!data.matches.length) return;
    box.hidden = false;
    box.append(h("h2", {}, t("Your games")),
      h("p", {class: "muted"}, t("Every match you played here, private ones too. Only you and the others at those tables see the private ones.")));
    const families = {pagat: "Pagat", taash: "Taash", mendikot: "Mendikot"};
    const rows = Object.entries(data.stats).map(([family, stats]) => h("tr", {},
      h("th", {scope: "row"}, families[family] || family),
      h("td", {}, stats.matches_won + " / " + stats.matches),
      h("td", {}, stats.hands_won + " / " + stats.hands),
      h("td", {}, stats.tens_per_hand.toLocaleString(app.locale)),
      h("td", {}, String(stats.kots)), h("td", {}, String(stats.mendikots)), h("td", {}, String(stats.whitewashes)),
      h("td", {}, stats.partners.map(([name, n]) => personName(name) + " (" + n + ")").join(", "))));
    if (rows.length) {
      box.append(h("div", {class: "scroll-x", tabindex: "0", role: "region", "aria-label": t("Your figures")},
        h("table", {class: "seat-summary", id: "your-stats"},
          h("tr", {}, h("th", {}, t("Game")), h("th", {}, t("Matches won")), h("th", {}, t("Hands won")),
            h("th", {}, t("Tens per hand")), h("th", {}, t("Kots")), h("th", {}, t("Mendikots")),
            h("th", {}, t("Whitewashes")), h("th", {}, t("Partners"))),
          rows)));
    }
    const ratings = await api("/api/me/ratings").catch(() => ({families: {}}));
    for (const [family, points] of Object.entries(ratings.families)) {
      box.append(ratingChart(families[family] || family, points));
    }
    const list = h("ul", {class: "history"});
    for (const item of data.matches) {
      const when = new Date(item.finished * 1000).toLocaleString(app.locale);
      const won = item.seat !== null && item.winner === item.seat % 2;
      list.append(h("li", {},
        h("strong", {}, item.title || presetTitle(item.preset)), " · " + when,
        item.listed ? "" : " · " + t("private"), h("br"),
        item.winner === null ? t("Score {a}–{b}", {a: item.score[0], b: item.score[1]})
          : (won ? t("You won {a}–{b}", {a: item.score[item.winner], b: item.score[1 - item.winner]})
            : t("You lost {a}–{b}", {a: item.score[1 - item.winner], b: item.score[item.winner]})), " ",
        h("a", {href: "/replay/" + item.table + "/" + item.match_no, "data-link": true}, t("Replay"))));
    }
    box.append(list, h("p", {}, h("a", {href: "/api/me/records", download: true, id: "export-records"},
      t("Download all your records"))));
    box.append(h("p", {}, h("button", {type: "button", id: "forget-me", onclick: () => this.forget()},
      t("Delete my player and data"))));
  }

  /** Each family's rated players, best first; a provisional rating is marked. */
  async leaderboards(box) {
    const families = [["pagat", "Pagat"], ["taash", "Taash"], ["mendikot", "Mendikot"]];
    const boards = await Promise.all(families.map(([family]) => api("/api/ratings/" + family).catch(() => null)));
    const shown = boards.filter((board) => board && board.players.length);
    if (!shown.length) return;
    box.hidden = false;
    box.append(h("h2", {}, t("Ratings")),
      h("p", {class: "muted"}, tn("A rating is provisional (~) until {n} rated match.", "A rating is provisional (~) until {n} rated matches.", shown[0].provisional_matches)));
    for (const [index, [, title]] of families.entries()) {
      const board = boards[index];
      if (!board || !board.players.length) continue;
      box.append(h("h3", {}, title), h("ol", {class: "leaderboard", id: "leaderboard-" + board.family},
        board.players.map((row) => h("li", {class: row.you ? "you" : ""},
          personName(row.name) + " · " + (row.provisional ? "~" : "") + row.rating.toLocaleString(app.locale)
          + " · " + tn("{n} match", "{n} matches", row.matches)))));
    }
  }

  /** Forget this player on the server (name, which games were theirs) and in this browser, after asking. */
  async forget() {
    if (!window.confirm(t("Delete your player? This browser forgets your name and seats, and your games are no longer yours here. The records of the matches stay with the other players."))) return;
    const response = await fetch("/api/me", {method: "DELETE"});
    if (!response.ok) { toast(t("Something went wrong.")); return; }
    for (const key of Object.keys(localStorage)) if (key.startsWith("dehla.")) localStorage.removeItem(key);
    toast(t("Your player and data are deleted."));
    this.refresh();
  }
}

/** A player's rating after each rated match as a small line chart (SVG), with the numbers for screen readers. */
function ratingChart(title, points) {
  const width = 320, height = 80, pad = 6;
  const values = points.map((point) => point.rating);
  const low = Math.min(...values), high = Math.max(...values);
  const x = (i) => pad + (points.length > 1 ? i * (width - 2 * pad) / (points.length - 1) : (width - 2 * pad) / 2);
  const y = (v) => height - pad - (high > low ? (v - low) * (height - 2 * pad) / (high - low) : (height - 2 * pad) / 2);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const last = values[values.length - 1];
  svg.setAttribute("aria-label", t("{game}: rating {rating} after {n} rated matches", {game: title, rating: last.toLocaleString(app.locale), n: values.length}));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
  svg.append(line);
  values.forEach((v, i) => {  // a dot a match, so that one match shows too
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(i)); dot.setAttribute("cy", y(v)); dot.setAttribute("r", 3);
    svg.append(dot);
  });
  return h("figure", {class: "rating"}, h("figcaption", {}, t("{game}: your rating {rating}", {game: title, rating: last.toLocaleString(app.locale)})), svg);
}
