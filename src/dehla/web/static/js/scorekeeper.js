/* The scorekeeper for people playing with real cards: the server scores, the hands are kept in the browser. */

import {app} from "./state.js";
import {api, h, toast} from "./dom.js";
import {t} from "./i18n.js";
import {errorMessage} from "./errors.js";
import {preset, presetSummary, presetTitle, scoreUnit} from "./names.js";
import {pref, setPref} from "./storage.js";

export class ScorekeeperPage {
  constructor(root) {
    this.root = root;
    this.saved = pref("scorekeeper", null) || {rules: "pagat", first_dealer: 0, hands: []};
    if (!preset(this.saved.rules)) this.saved.rules = "pagat";
    this.render();
  }

  refresh() { this.root.replaceChildren(); this.render(); }

  render() {
    const saved = this.saved;
    const box = h("section", {class: "panel scorekeeper"}, h("h1", {}, t("Scorekeeper")),
      h("p", {class: "muted"}, t("Playing with real cards? Enter each hand's result; the dealer, streaks and score are kept by the rules.")));
    const presetSelect = h("select", {id: "sk-preset"}, app.meta.presets.map((item) => h("option", {value: item.name}, presetTitle(item.name))));
    presetSelect.value = saved.rules;
    const dealer = h("select", {id: "sk-dealer"});
    this.entry = h("div", {class: "sk-entry"});
    this.table = h("div", {id: "sk-table", class: "scroll-x", tabindex: "0", role: "region", "aria-label": t("Hands so far")});
    this.result = h("p", {id: "sk-result", "aria-live": "polite"});
    this.summary = h("p", {class: "muted", id: "sk-summary"});
    box.append(h("p", {class: "field"}, h("label", {for: "sk-preset"}, t("Rules")), presetSelect), this.summary,
      h("p", {class: "field"}, h("label", {for: "sk-dealer"}, t("First dealer")), dealer), this.entry, this.result, this.table,
      h("p", {class: "buttons"},
        h("button", {type: "button", id: "sk-undo", onclick: () => { saved.hands.pop(); this.update(); }}, t("Undo the last hand")), " ",
        h("button", {type: "button", id: "sk-reset", onclick: () => { saved.hands = []; this.update(); }}, t("New match"))));
    this.root.append(box);
    const fillDealers = () => {
      const players = preset(presetSelect.value).players;
      dealer.replaceChildren(...Array.from({length: players}, (_, seat) => h("option", {value: seat}, t("Seat {n}", {n: seat + 1}))));
      dealer.value = String(Math.min(saved.first_dealer, players - 1));
    };
    presetSelect.addEventListener("change", () => { saved.rules = presetSelect.value; saved.hands = []; fillDealers(); this.update(); });
    dealer.addEventListener("change", () => { saved.first_dealer = Number(dealer.value); this.update(); });
    fillDealers();
    this.update();
  }

  async update() {
    const saved = this.saved;
    setPref("scorekeeper", saved);
    this.summary.textContent = presetSummary(saved.rules);
    let data;
    try {
      data = await api("/api/scorekeeper", {rules: saved.rules, first_dealer: saved.first_dealer, hands: saved.hands});
    } catch (error) {
      toast(errorMessage(error));
      saved.hands.pop();
      setPref("scorekeeper", saved);
      return;
    }
    const team = (n) => t("Team {n}", {n: n + 1});
    const unit = scoreUnit(preset(saved.rules).options.scoring);
    this.result.textContent = unit + ": " + team(0) + " " + data.score[0] + " – " + data.score[1] + " " + team(1)
      + " " + t("(target {n})", {n: data.target}) + (data.over ? " · " + t("{team} wins the match!", {team: team(data.winner)})
      : " · " + t("Next dealer: seat {n}", {n: data.dealer + 1}));
    const rows = data.hands.map((row, index) => h("tr", {},
      h("td", {}, String(index + 1)), h("td", {}, t("Seat {n}", {n: row.dealer + 1})), h("td", {}, row.tens.join("–")),
      h("td", {}, row.tricks ? row.tricks.join("–") : "—"),
      h("td", {}, row.winner === null ? t("nobody") : team(row.winner) + (row.kot ? " · " + t("KOT!") : "")),
      h("td", {}, row.score.join("–"))));
    this.table.replaceChildren(h("table", {}, h("thead", {}, h("tr", {},
      [t("Hand"), t("Dealer"), t("Tens (team 0–team 1)"), t("Tricks (team 0–team 1)"), t("Winner"), t("Score")].map((text) => h("th", {scope: "col"}, text)))),
    h("tbody", {}, rows)));
    this.entry.replaceChildren();
    if (data.over) return;
    const number = (id, max, value) => h("input", {type: "number", id, min: "0", max: String(max), value: String(value), inputmode: "numeric"});
    const tens0 = number("sk-tens0", 4, 2);
    const tens1 = number("sk-tens1", 4, 2);
    tens0.addEventListener("input", () => { tens1.value = String(Math.max(0, 4 - Number(tens0.value))); });
    const fields = [h("p", {class: "field"}, h("label", {for: "sk-tens0"}, t("Tens of team 0")), tens0),
      h("p", {class: "field"}, h("label", {for: "sk-tens1"}, t("Tens of team 1")), tens1)];
    let tricks0 = null, tricks1 = null;
    if (data.needs_tricks) {
      tricks0 = number("sk-tricks0", data.tricks_per_hand, Math.ceil(data.tricks_per_hand / 2));
      tricks1 = number("sk-tricks1", data.tricks_per_hand, Math.floor(data.tricks_per_hand / 2));
      tricks0.addEventListener("input", () => { tricks1.value = String(Math.max(0, data.tricks_per_hand - Number(tricks0.value))); });
      fields.push(h("p", {class: "field"}, h("label", {for: "sk-tricks0"}, t("Tricks of team 0")), tricks0),
        h("p", {class: "field"}, h("label", {for: "sk-tricks1"}, t("Tricks of team 1")), tricks1));
    }
    this.entry.append(h("fieldset", {}, h("legend", {}, t("Hand {n}", {n: data.hands.length + 1}) + " · " + t("dealer: seat {n}", {n: data.dealer + 1})), fields,
      h("button", {type: "button", class: "primary", id: "sk-add", onclick: () => {
        const hand = {tens: [Number(tens0.value), Number(tens1.value)]};
        if (tricks0) hand.tricks = [Number(tricks0.value), Number(tricks1.value)];
        saved.hands.push(hand);
        this.update();
      }}, t("Add the hand"))));
  }
}
