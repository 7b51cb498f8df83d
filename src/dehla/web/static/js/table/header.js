/* The table's header: rules, hand, dealer ("You" when it is you), trump, score with its unit, your seat. */

import {h} from "../dom.js";
import {t, tn} from "../i18n.js";
import {cardShort, SUITS, suitName} from "../cards.js";
import {listText, presetTitle, scoreUnit, seatName, teamName} from "../names.js";
import {sealLine} from "../verify.js";

export function header(page) {
  const state = page.state;
  const table = state.table;
  const obs = state.observation;
  const mySeat = state.seat;
  const items = [h("h1", {class: "table-title"}, table.title || presetTitle(table.preset))];
  if (obs) {
    const playing = obs.phase === "play" || obs.phase === "call" || obs.phase === "hide";
    items.push(t("Hand {n}", {n: playing ? obs.hand_number + 1 : Math.max(1, obs.match.hands.length)}));
    items.push(t("Dealer: {name}", {name: seatName(table, obs.dealer, mySeat)}));
    let trump;
    if (obs.trump) trump = h("span", {class: "suit-" + obs.trump}, SUITS[obs.trump] + " " + suitName(obs.trump));
    else if (obs.trump_hidden) {
      if (obs.hidden_card) trump = t("hidden (you hid {card})", {card: cardShort(obs.hidden_card)});
      else if (obs.chooser !== null && obs.chooser !== undefined) trump = t("hidden by {name} (band hukum)", {name: seatName(table, obs.chooser, mySeat)});
      else trump = t("hidden (band hukum)");
    } else if (obs.phase === "call" || table.options.trump === "called") trump = t("to be called");
    else trump = t("not set yet");
    items.push(h("span", {id: "trump"}, t("Trump") + ": ", trump));
    const us = mySeat === null ? 0 : mySeat % 2;
    // "Kots — Us: 0 · Them: 0": each team's number after its name and a colon, never two numbers side by side
    const side = (team) => t("{team}: {n}", {team: teamName(team, mySeat), n: obs.match.score[team]});
    let score = scoreUnit(table.options.scoring) + " — " + side(us) + " · " + side(1 - us) + " " + t("(target {n})", {n: obs.match.target});
    const streak = Math.max(...obs.match.streak);
    if (table.options.scoring === "pagat" && streak > 0) {
      score += " · " + tn("{team}: {n} hand in a row", "{team}: {n} hands in a row", streak, {team: teamName(obs.match.streak[0] ? 0 : 1, mySeat)});
    }
    items.push(h("span", {id: "score"}, score));
    const seal = sealLine(table);
    if (seal) items.push(seal);
  }
  items.push(mySeat === null ? h("span", {class: "badge"}, t("Watching"))
    : h("span", {class: "badge team-" + (mySeat % 2)}, t("You: seat {n}", {n: mySeat + 1})));
  return h("div", {class: "table-head"}, items.map((item) => h("span", {class: "head-item"}, item)),
    h("span", {class: "head-tools"},
      h("button", {type: "button", class: "small", id: "words-button", onclick: () => page.words.toggle()}, t("Words")),
      h("button", {type: "button", class: "small", id: "sound-button", "aria-pressed": page.soundOn() ? "true" : "false",
        title: page.soundOn() ? t("Sound on") : t("Sound off"), onclick: () => page.toggleSound()}, "♪ " + t("Sound"))),
    h("span", {id: "status-line", class: "muted", "aria-live": "polite"}, page.status || ""));
}

export function teams(page) {
  const state = page.state;
  const obs = state.observation;
  const mySeat = state.seat;
  const box = h("section", {class: "teams"});
  const order = mySeat === null ? [0, 1] : [mySeat % 2, 1 - mySeat % 2];
  for (const team of order) {
    const tens = obs.captured[team].filter((card) => card.startsWith("10"));
    const members = [];
    for (let seat = team; seat < obs.players; seat += 2) members.push(seatName(state.table, seat, mySeat));
    box.append(h("div", {class: "team-box team-" + team},
      h("h2", {}, teamName(team, mySeat), h("span", {class: "members muted"}, " · " + listText(members))),
      h("p", {}, t("Tens") + ": ", tens.length ? h("span", {class: "mini-cards"}, tens.map((card) => h("span", {class: "tens-card suit-" + card.slice(-1)}, cardShort(card))))
        : h("span", {class: "muted"}, t("none"))),
      h("p", {}, tn("{n} trick", "{n} tricks", obs.tricks_won[team]))));
  }
  return box;
}
