/* Finished matches: replay or download each. */

import {app} from "./state.js";
import {api, h} from "./dom.js";
import {t} from "./i18n.js";
import {personName, presetTitle} from "./names.js";

export class HistoryPage {
  constructor(root) {
    this.root = root;
    this.render();
  }

  refresh() { this.root.replaceChildren(); this.render(); }

  async render() {
    const box = h("section", {class: "panel"}, h("h1", {}, t("Finished matches")));
    this.root.append(box);
    const data = await api("/api/history").catch(() => ({matches: []}));
    if (!data.matches.length) { box.append(h("p", {class: "muted"}, t("No finished matches yet."))); return; }
    const list = h("ul", {class: "history"});
    for (const item of data.matches) {
      const when = new Date(item.finished * 1000).toLocaleString(app.lang);
      const players = (item.players || []).map(personName);
      const team = (n) => players.filter((_, seat) => seat % 2 === n).join(" & ");
      const won = item.winner === 0 || item.winner === 1;
      const result = won ? t("{team} won {a}–{b}", {team: team(item.winner) || t("Team {n}", {n: item.winner}),
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
}
