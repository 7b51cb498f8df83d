/* Hand and match results as a modal dialog that takes focus: tens per side as Us / Them, tricks where
   they matter, kots and streaks or points, what decided a 2-2, and Next hand / Rematch in view. */

import {h} from "../dom.js";
import {t, tn} from "../i18n.js";
import {scoreUnit, teamName} from "../names.js";
import {extrasText, tieText, tricksMatter} from "../outcome.js";
import {nextSealLine, revealedSeed} from "../verify.js";

export class ResultsDialog {
  constructor(page) {
    this.page = page;
    this.acknowledged = undefined;   // hands of this match already seen
    this.matchNo = null;
    this.dialog = null;
  }

  close() { this.remove(); }

  remove() {
    if (this.dialog) {
      const dialog = this.dialog;
      this.dialog = null;
      if (dialog.open) dialog.close();
      dialog.remove();
    }
  }

  /** Open the dialog when a hand has been scored and its last trick has been seen. */
  update() {
    const state = this.page.state;
    const obs = state.observation;
    if (!obs) return;
    const hands = obs.match.hands;
    if (this.matchNo !== state.table.match_no) {
      this.matchNo = state.table.match_no;
      this.acknowledged = Math.max(0, hands.length - (obs.phase === "deal" ? 1 : 0));
      this.remove();
    }
    if (hands.length < this.acknowledged) this.acknowledged = hands.length;
    if (hands.length <= this.acknowledged || this.page.felt.showing()) {
      if (this.dialog && hands.length <= this.acknowledged) this.remove();
      return;
    }
    const key = hands.length + ":" + (obs.match.over ? 1 : 0) + ":" + state.table.status + ":" + (state.table.ready || []).join();
    if (this.dialog && this.dialog.dataset.key === key) return;
    this.open(key);
  }

  acknowledge() {
    const state = this.page.state;
    const obs = state.observation;
    const between = obs.phase === "deal" && state.seat !== null && !obs.match.over;
    if (between && !(state.table.ready || []).includes(state.seat)) this.page.send({type: "next"});
    this.acknowledged = obs.match.hands.length;
    this.remove();
    this.page.render();
  }

  open(key) {
    const state = this.page.state;
    const obs = state.observation;
    const table = state.table;
    const mySeat = state.seat;
    const scoring = table.options.scoring;
    const result = obs.match.hands[obs.match.hands.length - 1];
    const names = [teamName(0, mySeat), teamName(1, mySeat)];
    const verdict = [];
    if (result.winner === null) verdict.push(t("Nobody scores this hand."));
    else if (mySeat === null) verdict.push(t("{team} wins the hand.", {team: names[result.winner]}));
    else verdict.push(result.winner === mySeat % 2 ? t("Your team wins the hand.") : t("The other team wins the hand."));
    verdict.push(...extrasText(result));
    const rows = [h("tr", {}, h("th", {scope: "row"}, t("Tens")),
      [0, 1].map((team) => h("td", {}, tn("{n} ten", "{n} tens", result.tens[team]))))];
    if (tricksMatter(scoring) || result.whitewash) {
      rows.push(h("tr", {}, h("th", {scope: "row"}, t("Tricks")),
        [0, 1].map((team) => h("td", {}, tn("{n} trick", "{n} tricks", result.tricks_won[team])))));
    }
    if (scoring === "taash") {
      rows.push(h("tr", {}, h("th", {scope: "row"}, t("Points this hand")), [0, 1].map((team) => h("td", {}, String(result.points[team])))));
    }
    rows.push(h("tr", {class: "total"}, h("th", {scope: "row"}, scoreUnit(scoring)),
      [0, 1].map((team) => h("td", {}, String(obs.match.score[team])))));
    const tie = tieText(result, scoring, names);
    const order = mySeat === null ? [0, 1] : [mySeat % 2, 1 - mySeat % 2];
    const reorder = (cells) => order.map((team) => cells[team]);
    for (const row of rows) {
      const cells = [...row.querySelectorAll("td")];
      cells.forEach((cell) => cell.remove());
      row.append(...reorder(cells));
    }
    const streak = Math.max(...obs.match.streak);
    const lines = [h("p", {class: "target"}, t("Target: {n}", {n: obs.match.target})
      + (scoring === "pagat" && streak > 0 ? " · " + tn("{team}: {n} hand in a row", "{team}: {n} hands in a row", streak,
        {team: names[obs.match.streak[0] ? 0 : 1]}) : ""))];
    const box = h("dialog", {id: "hand-summary", class: "result-dialog", "aria-labelledby": "result-title"},
      h("h2", {id: "result-title"}, t("Hand {n} is over", {n: obs.match.hands.length})),
      h("p", {class: "verdict-line" + (result.winner !== null && mySeat !== null && result.winner === mySeat % 2 ? " good" : "")}, verdict.join(" ")),
      h("table", {class: "result-table"},
        h("thead", {}, h("tr", {}, h("td", {}), reorder([0, 1].map((team) => h("th", {scope: "col", class: "side team-" + team}, names[team]))))),
        h("tbody", {}, rows)),
      tie ? h("p", {class: "tie"}, tie) : null, lines, revealedSeed(table, obs.match.hands.length - 1),
      obs.match.over ? null : nextSealLine(table, obs.match.hands.length));
    const buttons = h("div", {class: "dialog-buttons"});
    if (obs.match.over) {
      const winner = obs.match.winner;
      box.append(h("section", {class: "match-result", id: "match-result"},
        h("h3", {}, mySeat === null ? t("{team} wins the match!", {team: names[winner]})
          : winner === mySeat % 2 ? t("Your team wins the match!") : t("The other team wins the match.")),
        h("p", {}, tn("Final score {a}–{b}, after {n} hand.", "Final score {a}–{b}, after {n} hands.", obs.match.hands.length,
          {a: names[order[0]] + " " + obs.match.score[order[0]], b: obs.match.score[order[1]] + " " + names[order[1]]}))));
      if (table.status === "over") {
        if (table.one_deal) buttons.append(backToDaily(() => this.remove()));
        else if (mySeat !== null) buttons.append(h("button", {type: "button", class: "primary", id: "rematch", onclick: () => {
          this.page.send({type: "rematch"}); this.acknowledge();
        }}, t("Rematch")));
        buttons.append(h("a", {class: "button", href: "/replay/" + table.id + "/" + table.match_no, "data-link": true,
          onclick: () => this.remove()}, t("Watch the replay")));
      }
      buttons.append(h("button", {type: "button", id: "next-hand", onclick: () => this.acknowledge()}, t("Close")));
    } else if (table.one_deal && table.status === "over") {  // a daily duplicate's game: its one deal is played
      buttons.append(backToDaily(() => this.remove()));
      buttons.append(h("button", {type: "button", id: "next-hand", onclick: () => this.acknowledge()}, t("Close")));
    } else {
      const between = obs.phase === "deal" && mySeat !== null;
      const ready = new Set(table.ready || []);
      buttons.append(h("button", {type: "button", class: "primary", id: "next-hand", onclick: () => this.acknowledge()},
        between ? t("Next hand") : t("Continue")));
      if (between && ready.size) {
        const people = table.seats.filter((seat) => seat.kind !== "bot").length;
        buttons.append(h("span", {class: "muted"}, tn("{n} player is ready", "{n} players are ready", ready.size) + " / " + people));
      }
    }
    box.append(buttons);
    box.addEventListener("cancel", (event) => { event.preventDefault(); this.acknowledge(); });
    const focusId = this.dialog && document.activeElement && this.dialog.contains(document.activeElement) ? document.activeElement.id : null;
    this.remove();
    box.dataset.key = key;
    this.page.root.append(box);
    this.dialog = box;
    box.showModal();
    const target = (focusId && box.querySelector("#" + CSS.escape(focusId))) || box.querySelector("#rematch, #next-hand");
    if (target) target.focus();
  }
}

/** The match's end, kept on the page once the dialog is closed. */
export function matchPanel(page) {
  const state = page.state;
  const obs = state.observation;
  const table = state.table;
  if (!obs || !obs.match.over) return null;
  const mySeat = state.seat;
  const names = [teamName(0, mySeat), teamName(1, mySeat)];
  const winner = obs.match.winner;
  const box = h("section", {class: "panel summary", id: "match-summary"},
    h("h2", {}, mySeat === null ? t("{team} wins the match!", {team: names[winner]})
      : winner === mySeat % 2 ? t("Your team wins the match!") : t("The other team wins the match.")));
  if (table.status === "over") {
    box.append(h("p", {class: "buttons"},
      mySeat !== null && !table.one_deal ? h("button", {type: "button", class: "primary", onclick: () => page.send({type: "rematch"})}, t("Rematch")) : null, " ",
      h("a", {class: "button", href: "/replay/" + table.id + "/" + table.match_no, "data-link": true}, t("Watch the replay")), " ",
      h("a", {class: "button", href: "/api/history/" + table.id + "/" + table.match_no + "/record", download: true}, t("Download the record"))));
  }
  return box;
}

/** A daily duplicate's table plays one deal: afterwards, back to the day's deals and leaderboard. */
function backToDaily(onclick) {
  return h("a", {class: "button primary", id: "back-to-daily", href: "/daily", "data-link": true, onclick},
    t("Back to the daily duplicate"));
}
