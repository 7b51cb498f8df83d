/* dehla web tables: one page, no build step.  Every text is wrapped in t("...") so that
   pybabel extract finds it; translations come from the server's Babel catalogs (/api/i18n/LANG). */
"use strict";

let MESSAGES = {};
let LANG = "en";
let META = null;

function t(text, vars) {
  let out = MESSAGES[text] || text;
  if (vars) {
    for (const key of Object.keys(vars)) out = out.split("{" + key + "}").join(String(vars[key]));
  }
  return out;
}

/* ---------- small DOM helpers (names and other user text only ever go through textContent) ---------- */

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const main = () => document.getElementById("main");

function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function announce(message) {
  const box = document.getElementById("announce");
  box.textContent = "";
  setTimeout(() => { box.textContent = message; }, 30);
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

/* ---------- cards ---------- */

const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};

function suitName(letter) {
  return {S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs")}[letter] || letter;
}

function rankName(rank) {
  return {A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack")}[rank] || rank;
}

function cardParts(text) {
  return {rank: text.slice(0, -1), suit: text.slice(-1)};
}

function cardLabel(text) {
  const {rank, suit} = cardParts(text);
  return t("{rank} of {suit}", {rank: rankName(rank), suit: suitName(suit)});
}

function cardFace(text, extra) {
  const {rank, suit} = cardParts(text);
  return h("span", {class: "card suit-" + suit + (extra ? " " + extra : ""), "data-card": text},
    h("span", {class: "rank", "aria-hidden": "true"}, rank),
    h("span", {class: "pip", "aria-hidden": "true"}, SUITS[suit]),
    h("span", {class: "sr-only"}, cardLabel(text)));
}

function cardsLine(cards) {
  if (!cards.length) return h("span", {class: "muted"}, t("none"));
  return h("span", {class: "mini-cards"}, cards.map((card) => cardFace(card, "mini")));
}

/* ---------- the game's own words, explained on first use ---------- */

const TERMS = {
  dehla: () => t("Dehla: a ten. The four tens are the only cards that score."),
  kot: () => t("Kot: a big win: all four tens in one hand, or (Pagat rules) seven hands in a row."),
  hukum: () => t("Hukum: trump. A trump beats every card of the other suits."),
  haath: () => t("Haath: a trick, one card from each player; the highest trump, else the highest card of the suit led, wins it."),
};

/* A term is explained the first time it matters; the note stays until "Got it" is pressed. */
const openNotes = [];

function explainOnce(term) {
  const seen = JSON.parse(localStorage.getItem("dehla.terms") || "[]");
  if (seen.includes(term)) return;
  seen.push(term);
  localStorage.setItem("dehla.terms", JSON.stringify(seen));
  openNotes.push(term);
}

function drawNotes(container) {
  container.replaceChildren(...openNotes.map((term) => h("div", {class: "explain", role: "note", "data-term": term},
    h("strong", {"aria-hidden": "true"}, "ℹ "), TERMS[term](),
    h("button", {class: "link", type: "button", onclick: () => {
      openNotes.splice(openNotes.indexOf(term), 1);
      drawNotes(container);
    }}, t("Got it")))));
}

function glossary() {
  return h("details", {class: "glossary"}, h("summary", {}, t("Words of the game")),
    h("ul", {}, Object.keys(TERMS).map((term) => h("li", {}, TERMS[term]()))));
}

/* ---------- presets in plain words ---------- */

function presetSummary(name) {
  return {
    "pagat": t("Dehla Pakad (Pagat): the player after the dealer calls trump from five cards; two tricks in a row collect the centre; first team to one kot wins."),
    "pagat-cut": t("Dehla Pakad with cut trump: five cards each; the first card played off-suit sets trump; then the rest are dealt."),
    "taash": t("Taash's Dehla Pakad: cut trump, each trick to its winner; 4 tens = 80, 3 tens = 30, 2-2 = 20 to the team with more tricks; first to 100."),
    "taash-b2b": t("Taash back-to-back: as Taash, but the tens wait in the centre until someone wins two tricks in a row."),
    "mendikot": t("Mendikot: all 13 cards dealt; the first card played off-suit sets trump; 3 or 4 tens win the hand; first to 5 hands."),
    "mendikot-band": t("Mendikot with band hukum: a trump card is hidden face down and turned up when a player who cannot follow asks for it."),
    "mendikot-band-auto": t("Mendikot with band hukum, turned up automatically the first time someone cannot follow suit."),
    "mendikot-open": t("Mendikot with open draw: a card drawn before the deal sets trump."),
    "mendikot-6": t("Mendikot for six players: 48 cards (no twos), 8 each, three against three."),
    "mendikot-8": t("Mendikot for eight players: 48 cards (no twos), 6 each, four against four."),
  }[name] || name;
}

function levelName(label) {
  return {beginner: t("beginner"), intermediate: t("intermediate"), advanced: t("advanced"), hard: t("hard"),
    strong: t("strong"), expert: t("expert"), master: t("master")}[label] || label;
}

function botLabel(bot) {
  return t("{label} bot", {label: levelName(bot.label)}) + " — " + bot.name;
}

/* ---------- storage of seat tokens ---------- */

function seatKey(tableId) { return "dehla.seat." + tableId; }

function savedSeat(tableId) {
  try { return JSON.parse(localStorage.getItem(seatKey(tableId)) || "null"); } catch (error) { return null; }
}

function saveSeat(tableId, seat, token) {
  localStorage.setItem(seatKey(tableId), JSON.stringify({seat, token}));
}

function seatLink(tableId, seat, token) {
  return location.origin + "/t/" + tableId + "#seat=" + seat + "&token=" + encodeURIComponent(token);
}

/* ---------- router ---------- */

let current = null;  // the page object being shown (has close())

function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (current && current.close) current.close();
  current = null;
  const path = location.pathname;
  const root = main();
  root.replaceChildren();
  let match;
  if ((match = path.match(/^\/t\/([A-Za-z0-9]+)$/))) current = new TablePage(match[1], root);
  else if (path === "/history") renderHistory(root);
  else if ((match = path.match(/^\/replay\/([A-Za-z0-9]+)\/(\d+)$/))) current = new ReplayPage(match[1], +match[2], root);
  else if (path === "/scorekeeper") renderScorekeeper(root);
  else renderLobby(root);
  document.querySelectorAll("nav a").forEach((link) => {
    link.toggleAttribute("aria-current", link.getAttribute("href") === path);
  });
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && !event.ctrlKey && !event.metaKey && link.origin === location.origin) {
    event.preventDefault();
    navigate(link.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (current && current.state && current.render) current.render(); }, 80);
});

/* ---------- lobby ---------- */

function seatChoices(players) {
  const choices = [{value: "me", text: t("Me")}, {value: "person", text: t("A person (invite link)")}];
  for (const bot of META.bots) choices.push({value: "bot:" + bot.name, text: botLabel(bot)});
  return choices;
}

async function quickGame(preset) {
  const name = localStorage.getItem("dehla.name") || "";
  const players = META.presets.find((item) => item.name === preset).players;
  const seats = [{kind: "me"}];
  for (let seat = 1; seat < players; seat++) seats.push({kind: "bot", bot: META.default_bot});
  const created = await api("/api/tables", {rules: preset, seats, name});
  saveSeat(created.id, created.seat, created.token);
  navigate("/t/" + created.id);
}

function renderLobby(root) {
  const nameInput = h("input", {id: "player-name", maxlength: "24", autocomplete: "nickname",
    value: localStorage.getItem("dehla.name") || "", placeholder: t("Your name")});
  nameInput.addEventListener("change", () => localStorage.setItem("dehla.name", nameInput.value.trim()));
  const quick = h("section", {class: "panel hero"},
    h("h1", {}, t("Play Dehla Pakad")),
    h("p", {}, t("Capture the tens. Two teams, partners sit opposite. Start a game with three bots in one click, or set up a table for friends.")),
    h("p", {}, h("label", {for: "player-name"}, t("Your name") + " "), nameInput),
    h("button", {class: "primary big", type: "button", id: "quick-play",
      onclick: () => quickGame("pagat").catch((error) => toast(error.message))}, t("Play now against bots")),
    glossary());

  const presetSelect = h("select", {id: "preset"}, META.presets.map((preset) =>
    h("option", {value: preset.name}, preset.name)));
  const summary = h("p", {class: "muted", id: "preset-summary"});
  const options = h("div", {class: "options"});
  const seatsBox = h("div", {class: "seats-form"});
  const grace = h("input", {type: "number", id: "grace", min: "0", max: "3600", value: "60"});
  const timer = h("input", {type: "number", id: "timer", min: "0", max: "600", value: "0"});
  const form = h("form", {class: "panel", id: "create-form"},
    h("h2", {}, t("Set up a table")),
    h("label", {for: "preset"}, t("Rules") + " "), presetSelect, summary, options,
    h("fieldset", {}, h("legend", {}, t("Seats (in order of play; partners alternate)")), seatsBox),
    h("p", {}, h("label", {for: "grace"}, t("Grace time before a bot plays for someone who left (seconds)") + " "), grace),
    h("p", {}, h("label", {for: "timer"}, t("Turn timer, 0 for none (seconds)") + " "), timer),
    h("button", {class: "primary", type: "submit"}, t("Create table")));

  function drawOptions() {
    const preset = META.presets.find((item) => item.name === presetSelect.value);
    summary.textContent = presetSummary(preset.name);
    options.replaceChildren();
    const unit = preset.options.scoring === "pagat" ? t("kots") : preset.options.scoring === "taash" ? t("points") : t("hands won");
    options.append(h("p", {}, h("label", {for: "opt-target"}, t("Play to") + " "),
      h("input", {type: "number", id: "opt-target", min: "1", max: "1000", value: preset.options.target}), " " + unit));
    if (preset.options.collection === "centre") {
      options.append(h("p", {}, h("label", {class: "check"}, h("input", {type: "checkbox", id: "opt-streak_resets",
        checked: preset.options.streak_resets}), " " + t("After a collection, the two-in-a-row count starts again"))));
    }
    if (preset.options.scoring === "taash") {
      options.append(h("p", {}, h("label", {class: "check"}, h("input", {type: "checkbox", id: "opt-trick_minimum"}),
        " " + t("The team with more tens must also take 7 tricks"))));
    }
    options.append(h("p", {}, h("label", {class: "check"}, h("input", {type: "checkbox", id: "opt-rotation"}),
      " " + t("The deal always passes to the next player"))));
    seatsBox.replaceChildren();
    for (let seat = 0; seat < preset.players; seat++) {
      const select = h("select", {id: "seat-" + seat, "aria-label": t("Seat {n}", {n: seat})},
        seatChoices(preset.players).map((choice) => h("option", {value: choice.value}, choice.text)));
      select.value = seat === 0 ? "me" : "bot:" + META.default_bot;
      seatsBox.append(h("p", {}, h("span", {class: "team-dot team-" + (seat % 2)}, t("Team {n}", {n: seat % 2})),
        " " + t("Seat {n}", {n: seat}) + " ", select));
    }
  }
  presetSelect.addEventListener("change", drawOptions);
  drawOptions();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const preset = META.presets.find((item) => item.name === presetSelect.value);
    const rules = {preset: preset.name, target: Number(document.getElementById("opt-target").value)};
    const streak = document.getElementById("opt-streak_resets");
    if (streak) rules.streak_resets = streak.checked;
    const minimum = document.getElementById("opt-trick_minimum");
    if (minimum && minimum.checked) rules.trick_minimum = true;
    if (document.getElementById("opt-rotation").checked) rules.rotation = "simple";
    const seats = [];
    for (let seat = 0; seat < preset.players; seat++) {
      const value = document.getElementById("seat-" + seat).value;
      seats.push(value.startsWith("bot:") ? {kind: "bot", bot: value.slice(4)} : {kind: value});
    }
    try {
      const created = await api("/api/tables", {rules, seats, name: nameInput.value.trim(),
        grace: Number(grace.value), timer: Number(timer.value) || null});
      if (created.seat !== null) saveSeat(created.id, created.seat, created.token);
      localStorage.setItem("dehla.invites." + created.id, JSON.stringify(created.invites));
      navigate("/t/" + created.id);
    } catch (error) { toast(error.message); }
  });

  const list = h("section", {class: "panel"}, h("h2", {}, t("Open tables")), h("div", {id: "table-list"}, t("Loading…")));
  root.append(h("div", {class: "lobby"}, quick, form, list));
  refreshTables();
}

async function refreshTables() {
  const box = document.getElementById("table-list");
  if (!box) return;
  const data = await api("/api/tables").catch(() => ({tables: []}));
  box.replaceChildren();
  if (!data.tables.length) box.append(h("p", {class: "muted"}, t("No tables yet. Create one!")));
  for (const table of data.tables) {
    const status = {waiting: t("waiting for players"), playing: t("playing"), over: t("over")}[table.status];
    const seats = h("ul", {class: "seat-list"});
    for (const seat of table.seats) {
      const open = seat.kind === "bot" || !seat.claimed;
      const who = seat.kind === "bot" ? t("{name} (bot)", {name: seat.name}) : seat.claimed ? seat.name : t("open seat");
      seats.append(h("li", {}, t("Seat {n}", {n: seat.seat}) + ": " + who + " ",
        open ? h("button", {type: "button", class: "small", "data-join": table.id + ":" + seat.seat,
          onclick: () => joinSeat(table.id, seat.seat)},
          seat.kind === "bot" ? t("Replace the bot") : t("Take this seat")) : null));
    }
    box.append(h("article", {class: "table-entry"},
      h("h3", {}, (table.title || table.preset) + " · " + status),
      h("p", {class: "muted"}, presetSummary(table.preset)), seats,
      h("a", {href: "/t/" + table.id, "data-link": true, class: "button"}, t("Watch"))));
  }
}

async function joinSeat(tableId, seat) {
  try {
    const data = await api("/api/tables/" + tableId + "/join", {seat, name: localStorage.getItem("dehla.name") || ""});
    saveSeat(tableId, seat, data.token);
    navigate("/t/" + tableId);
  } catch (error) { toast(error.message); }
}

/* ---------- the table ---------- */

class TablePage {
  constructor(tableId, root) {
    this.tableId = tableId;
    this.root = root;
    this.state = null;
    this.showLast = false;
    this.closed = false;
    this.retry = 500;
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) {
      saveSeat(tableId, Number(hash.get("seat")), hash.get("token"));
      history.replaceState({}, "", "/t/" + tableId);
    }
    this.seat = savedSeat(tableId);
    this.root.append(h("p", {class: "muted"}, t("Connecting…")));
    this.connect();
    this.tick = setInterval(() => this.countdown(), 500);
  }

  close() {
    this.closed = true;
    clearInterval(this.tick);
    if (this.ws) this.ws.close();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + "/ws/" + this.tableId);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      const hello = {type: "hello"};
      if (this.seat && this.seat.token) hello.token = this.seat.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => {
      if (this.closed) return;
      this.setStatus(t("Connection lost; reconnecting…"));
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else toast(t("Not connected; reconnecting…"));
  }

  setStatus(text) {
    const box = this.root.querySelector("#status-line");
    if (box) box.textContent = text;
  }

  receive(message) {
    if (message.type === "error") {
      const known = {
        not_your_turn: t("It is not your turn."), illegal: t("That card cannot be played now."),
        watcher: t("You are watching; take a seat to play."), rate: t("Too many messages; slow down."),
        bad_token: t("That seat link is not valid; you are watching."), no_table: t("There is no such table."),
        stale: t("The table moved on; look again."),
      };
      toast((known[message.code] || t("Refused")) + " " + (message.code === "illegal" ? message.message : ""));
      if (message.code === "no_table") this.close();
      return;
    }
    if (message.type !== "state") return;
    const before = this.state;
    // Scored hands are sent when they change; otherwise the previous list still holds.
    if (message.observation && message.observation.match.hands === undefined) {
      message.observation.match.hands = before && before.observation ? before.observation.match.hands : [];
    }
    this.state = message;
    this.receivedAt = Date.now();
    if (before && message.last && (!before.last || before.version !== message.version)) this.announceLast(message);
    this.render();
  }

  name(seat) {
    const info = this.state.table.seats[seat];
    return info ? info.name : t("Seat {n}", {n: seat});
  }

  announceLast(message) {
    const last = message.last;
    if (!last) return;
    const who = last.seat === message.seat ? t("You") : this.name(last.seat);
    let text;
    if (last.action === "reveal") text = t("{who} asks for the trump", {who});
    else if (last.action.startsWith("call ")) text = t("{who} calls {suit} trump", {who, suit: suitName(last.action.slice(5))});
    else if (last.action.startsWith("hide ")) text = t("{who} hides a card face down", {who});
    else text = t("{who} plays {card}", {who, card: cardLabel(last.action)});
    if (last.by === "timer") text += " " + t("(the timer ran out)");
    announce(text);
  }

  countdown() {
    const box = this.root.querySelector("#deadline");
    if (!box || !this.state || this.state.deadline === null) return;
    const left = Math.max(0, Math.round(this.state.deadline - (Date.now() - this.receivedAt) / 1000));
    box.textContent = t("{n} s left", {n: left});
  }

  act(action) {
    this.send({type: "act", action, version: this.state.version});
  }

  render() {
    const state = this.state;
    const table = state.table;
    const obs = state.observation;
    const root = this.root;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
    root.replaceChildren();
    const mySeat = state.seat;
    const wrapper = h("div", {class: "table-page" + (mySeat === null ? " watching" : "")});
    root.append(wrapper);
    const notes = h("div", {class: "notes"});

    wrapper.append(this.header(table, obs, mySeat));
    if (table.status === "waiting" || !obs) {
      wrapper.append(this.waiting(table, mySeat));
      return;
    }
    wrapper.append(notes);
    wrapper.append(this.felt(table, obs, mySeat));
    wrapper.append(this.controls(obs, mySeat));
    wrapper.append(this.teams(obs, mySeat));
    // A hand's summary stays until it is acknowledged, even if the next hand has already been dealt.
    if (this.acknowledged === undefined) this.acknowledged = Math.max(0, obs.match.hands.length - (obs.phase === "deal" ? 1 : 0));
    if (obs.match.hands.length > this.acknowledged) wrapper.append(this.handSummary(obs, mySeat, table));
    if (obs.match.over) wrapper.append(this.matchSummary(obs, mySeat, table));
    wrapper.append(this.invites(table));
    explainOnce("dehla");
    if (obs.trump || obs.phase === "call" || obs.trump_hidden) explainOnce("hukum");
    if (obs.tricks.length) explainOnce("haath");
    if (table.options.scoring === "pagat" && obs.match.hands.length) explainOnce("kot");
    drawNotes(notes);
    if (focused) {
      const again = root.querySelector('[data-action="' + CSS.escape(focused) + '"]');
      if (again && !again.disabled) again.focus();
    } else {
      const first = root.querySelector(".hand button.legal");
      if (first && obs.to_act === mySeat && document.activeElement === document.body) first.focus();
    }
  }

  header(table, obs, mySeat) {
    const items = [h("strong", {}, table.title || table.preset)];
    if (obs) {
      items.push(t("Hand {n}", {n: obs.phase === "play" || obs.phase === "call" || obs.phase === "hide" ? obs.hand_number + 1 : Math.max(1, obs.match.hands.length)}));
      items.push(t("Dealer: {name}", {name: this.name(obs.dealer)}));
      let trump;
      if (obs.trump) trump = h("span", {class: "suit-" + obs.trump}, SUITS[obs.trump] + " " + suitName(obs.trump));
      else if (obs.trump_hidden) trump = obs.hidden_card ? t("hidden (you hid {card})", {card: cardLabel(obs.hidden_card)}) : t("hidden (band hukum)");
      else if (obs.phase === "call") trump = t("to be called");
      else trump = table.options.trump === "called" ? t("to be called") : t("not set yet");
      items.push(h("span", {}, t("Trump") + ": ", trump));
      const unit = table.options.scoring === "pagat" ? t("Kots") : t("Points");
      const mine = mySeat === null ? null : mySeat % 2;
      const teamName = (team) => team === mine ? t("Us") : mine === null ? t("Team {n}", {n: team}) : t("Them");
      let score = unit + ": " + teamName(0) + " " + obs.match.score[0] + " – " + obs.match.score[1] + " " + teamName(1)
        + " " + t("(target {n})", {n: obs.match.target});
      const streak = Math.max(...obs.match.streak);
      if (streak > 0) score += " · " + t("streak: {team} {n}", {team: teamName(obs.match.streak[0] ? 0 : 1), n: streak});
      items.push(h("span", {id: "score"}, score));
    }
    items.push(mySeat === null ? h("span", {class: "badge"}, t("Watching")) :
      h("span", {class: "badge team-" + (mySeat % 2)}, t("You: seat {n}, team {team}", {n: mySeat, team: mySeat % 2})));
    return h("div", {class: "table-head"}, items.map((item) => h("span", {class: "head-item"}, item)),
      h("span", {id: "status-line", class: "muted", "aria-live": "polite"}));
  }

  waiting(table, mySeat) {
    const box = h("section", {class: "panel"}, h("h2", {}, t("Waiting for players")));
    const list = h("ul", {class: "seat-list"});
    for (const seat of table.seats) {
      let who = seat.kind === "bot" ? t("{name} (bot)", {name: seat.name}) : seat.claimed ? seat.name : t("waiting for someone to open the invite link");
      list.append(h("li", {}, t("Seat {n}", {n: seat.seat}) + ": " + who));
    }
    box.append(list, this.invites(table));
    if (mySeat !== null) {
      box.append(h("button", {class: "primary", type: "button", id: "start-now", onclick: () => this.send({type: "start"})},
        t("Start now; bots play the open seats")));
    }
    return box;
  }

  invites(table) {
    const saved = JSON.parse(localStorage.getItem("dehla.invites." + this.tableId) || "[]");
    const open = saved.filter((invite) => { const seat = table.seats[invite.seat]; return seat && !seat.claimed; });
    if (!open.length) return h("span");
    return h("div", {class: "invites"}, h("h3", {}, t("Invite links (one per seat; send each to one person)")),
      open.map((invite) => {
        const link = seatLink(this.tableId, invite.seat, invite.token);
        return h("p", {}, t("Seat {n}", {n: invite.seat}) + ": ",
          h("input", {readonly: true, value: link, class: "invite", "aria-label": t("Invite link for seat {n}", {n: invite.seat}),
            onfocus: (event) => event.target.select()}),
          h("button", {type: "button", class: "small", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link)}, t("Copy")));
      }));
  }

  seatPosition(seat, mySeat, players, direction) {
    const me = mySeat === null ? 0 : mySeat;
    const offset = (seat - me + players) % players;
    const step = 360 / players;
    const angle = (90 + (direction === "clockwise" ? 1 : -1) * offset * step) * Math.PI / 180;
    const narrow = window.innerWidth < 600;
    return {x: 50 + (narrow ? 33 : 42) * Math.cos(angle), y: 50 + 40 * Math.sin(angle), angle};
  }

  felt(table, obs, mySeat) {
    const felt = h("section", {class: "felt players-" + obs.players, "aria-label": t("The table")});
    const showing = this.showLast && obs.tricks.length ? obs.tricks[obs.tricks.length - 1] : null;
    const played = {};
    if (showing) showing.cards.forEach((card, index) => { played[(showing.leader + index) % obs.players] = card; });
    else obs.trick.forEach((play) => { played[play.seat] = play.card; });
    for (let seat = 0; seat < obs.players; seat++) {
      const info = table.seats[seat];
      const pos = this.seatPosition(seat, mySeat, obs.players, obs.direction);
      const marks = [];
      if (seat === obs.dealer) marks.push(h("span", {class: "mark dealer", title: t("Dealer")}, t("D")));
      if (seat === obs.to_act) marks.push(h("span", {class: "mark turn"}, t("to play")));
      if (obs.next_collector === seat) marks.push(h("span", {class: "mark collect"}, t("collects on the next trick")));
      const kind = info.kind === "bot" ? levelName(info.bot_label) + " " + t("bot") : info.auto ? t("bot plays for now") : info.connected ? "" : t("away");
      const label = (seat === mySeat ? t("You") : info.name);
      felt.append(h("div", {class: "seat team-" + (seat % 2) + (seat === obs.to_act ? " active" : ""),
        style: "left:" + pos.x + "%;top:" + pos.y + "%", "data-seat": seat,
        "aria-label": t("Seat {n}", {n: seat}) + ": " + label},
        h("div", {class: "seat-name"}, label), h("div", {class: "seat-meta"},
          t("{n} cards", {n: obs.hand_sizes[seat]}) + (kind ? " · " + kind : "")), marks));
      if (played[seat]) {
        const inner = {x: 50 + 18 * Math.cos(pos.angle), y: 50 + 17 * Math.sin(pos.angle)};
        const isWinner = showing && showing.winner === seat;
        felt.append(h("div", {class: "played" + (isWinner ? " winner" : ""), style: "left:" + inner.x + "%;top:" + inner.y + "%"},
          cardFace(played[seat])));
      }
    }
    const centre = h("div", {class: "centre-info"});
    if (showing) centre.append(h("p", {}, t("Last trick, won by {name}", {name: this.name(showing.winner)})));
    if (table.options.collection === "centre") {
      const tens = obs.centre.filter((card) => card.startsWith("10"));
      centre.append(h("p", {}, t("Centre: {n} cards", {n: obs.centre.length}), tens.length ? h("span", {}, " · " + t("tens") + " ", cardsLine(tens)) : null));
    }
    if (obs.open_draw) centre.append(h("p", {}, t("Drawn for trump") + " ", cardFace(obs.open_draw, "mini")));
    if (obs.revealed_card) centre.append(h("p", {}, t("Hidden trump turned up") + " ", cardFace(obs.revealed_card, "mini")));
    felt.append(centre);
    return felt;
  }

  controls(obs, mySeat) {
    const box = h("section", {class: "controls", "aria-label": t("Your hand")});
    if (mySeat === null) {
      box.append(h("p", {class: "muted"}, t("You are watching. Cards in hands are never shown to watchers.")));
      return box;
    }
    const legal = new Set(obs.legal_actions);
    const myTurn = obs.to_act === mySeat;
    let prompt;
    if (obs.phase === "deal") prompt = obs.match.over ? t("The match is over.") : t("The next hand is about to be dealt.");
    else if (!myTurn) prompt = obs.to_act === null ? "" : t("Waiting for {name}…", {name: this.name(obs.to_act)});
    else if (obs.phase === "call") prompt = t("Call trump: choose the suit from your first five cards.");
    else if (obs.phase === "hide") prompt = t("Band hukum: choose a card to hide face down. Its suit will be trump once it is turned up.");
    else prompt = obs.trick.length ? t("Your turn: follow suit if you can.") : t("Your turn: lead any card.");
    box.append(h("p", {class: "prompt" + (myTurn ? " your-turn" : "")}, prompt, " ",
      this.state.deadline !== null && myTurn ? h("span", {id: "deadline", class: "deadline"}) : null));
    if (myTurn && obs.phase === "call") {
      box.append(h("div", {class: "call-row"}, ["S", "H", "D", "C"].map((suit) =>
        h("button", {type: "button", class: "suit-button suit-" + suit, "data-action": "call " + suit,
          onclick: () => this.act("call " + suit)}, SUITS[suit] + " " + suitName(suit)))));
    }
    if (myTurn && legal.has("reveal")) {
      box.append(h("button", {type: "button", class: "primary", "data-action": "reveal", id: "ask-trump",
        onclick: () => this.act("reveal")}, t("Ask for trump (turn up the hidden card)")));
    }
    const hand = h("div", {class: "hand", role: "group", "aria-label": t("Your cards")});
    const hiding = myTurn && obs.phase === "hide";
    for (const card of obs.hand) {
      const action = hiding ? "hide " + card : card;
      const ok = myTurn && legal.has(action);
      const button = h("button", {type: "button", class: "card-button" + (ok ? " legal" : " dimmed"), "data-action": action,
        "data-card": card, disabled: !ok, "aria-label": (hiding ? t("Hide {card}", {card: cardLabel(card)}) : cardLabel(card)),
        onclick: () => this.act(action)}, cardFace(card));
      hand.append(button);
    }
    hand.addEventListener("keydown", (event) => {
      if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
      const buttons = [...hand.querySelectorAll("button:not([disabled])")];
      const index = buttons.indexOf(document.activeElement);
      if (index < 0 || !buttons.length) return;
      const next = buttons[(index + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
      next.focus();
      event.preventDefault();
    });
    box.append(hand);
    if (obs.hidden_card) box.append(h("p", {class: "muted"}, t("Your hidden card:") + " ", cardFace(obs.hidden_card, "mini")));
    if (obs.undealt[mySeat]) box.append(h("p", {class: "muted"}, t("{n} more cards will be dealt to you after the trick in which someone first cannot follow suit.", {n: obs.undealt[mySeat]})));
    if (obs.tricks.length && obs.phase !== "deal") {
      box.append(h("button", {type: "button", class: "small", id: "last-trick", "aria-pressed": this.showLast ? "true" : "false",
        onclick: () => { this.showLast = !this.showLast; this.render(); }}, this.showLast ? t("Back to the trick") : t("Show the last trick")));
    }
    return box;
  }

  teams(obs, mySeat) {
    const box = h("section", {class: "teams"});
    for (const team of [0, 1]) {
      const tens = obs.captured[team].filter((card) => card.startsWith("10"));
      const members = [];
      for (let seat = team; seat < obs.players; seat += 2) members.push(seat === mySeat ? t("You") : this.name(seat));
      box.append(h("div", {class: "team-box team-" + team},
        h("h3", {}, t("Team {n}", {n: team}) + (mySeat !== null && mySeat % 2 === team ? " (" + t("yours") + ")" : "")),
        h("p", {class: "muted"}, members.join(" & ")),
        h("p", {}, t("Tens") + ": ", cardsLine(tens)),
        h("p", {}, t("Tricks: {n}", {n: obs.tricks_won[team]}))));
    }
    return box;
  }

  resultText(result, mySeat) {
    const parts = [t("Tens {a}–{b}, tricks {c}–{d}.", {a: result.tens[0], b: result.tens[1], c: result.tricks_won[0], d: result.tricks_won[1]})];
    if (result.winner === null) parts.push(t("Nobody scores this hand."));
    else {
      const us = mySeat !== null && result.winner === mySeat % 2;
      parts.push(us ? t("Your team wins the hand.") : mySeat === null ? t("Team {n} wins the hand.", {n: result.winner}) : t("The other team wins the hand."));
      const points = result.points[result.winner];
      if (points > 1) parts.push(t("+{n} points.", {n: points}));
    }
    if (result.kot) parts.push(t("KOT!"));
    if (result.sweep) parts.push(t("All four tens!"));
    if (result.whitewash) parts.push(t("Every trick to one team!"));
    if (result.ended_early) parts.push(t("The hand ended early: its result could no longer change, whoever took the remaining tricks (Taash rule)."));
    return parts.join(" ");
  }

  handSummary(obs, mySeat, table) {
    const result = obs.match.hands[obs.match.hands.length - 1];
    const ready = new Set(table.ready);
    const box = h("section", {class: "panel summary", id: "hand-summary", role: "dialog", "aria-label": t("Hand summary")},
      h("h2", {}, t("Hand {n} is over", {n: obs.match.hands.length})), h("p", {}, this.resultText(result, mySeat)));
    const between = obs.phase === "deal" && mySeat !== null;
    box.append(h("button", {type: "button", class: "primary", id: "next-hand", onclick: () => {
      if (between && !ready.has(mySeat)) this.send({type: "next"});
      this.acknowledged = obs.match.hands.length;
      this.render();
    }}, between ? t("Next hand") : t("Continue")));
    return box;
  }

  matchSummary(obs, mySeat, table) {
    const winner = obs.match.winner;
    const us = mySeat !== null && winner === mySeat % 2;
    const box = h("section", {class: "panel summary", id: "match-summary"},
      h("h2", {}, mySeat === null ? t("Team {n} wins the match!", {n: winner}) : us ? t("Your team wins the match!") : t("The other team wins the match.")),
      h("p", {}, t("Final score {a}–{b} after {n} hands.", {a: obs.match.score[0], b: obs.match.score[1], n: obs.match.hands.length})));
    if (table.status === "over") {
      box.append(h("p", {},
        h("a", {class: "button", href: "/api/history/" + table.id + "/" + table.match_no + "/record", download: true}, t("Download the record")), " ",
        h("a", {class: "button", href: "/replay/" + table.id + "/" + table.match_no, "data-link": true}, t("Watch the replay"))));
      if (mySeat !== null) box.append(h("button", {type: "button", class: "primary", id: "rematch", onclick: () => this.send({type: "rematch"})}, t("Rematch")));
    }
    return box;
  }
}

/* ---------- history and replay ---------- */

async function renderHistory(root) {
  const box = h("section", {class: "panel"}, h("h1", {}, t("Finished matches")));
  root.append(box);
  const data = await api("/api/history").catch(() => ({matches: []}));
  if (!data.matches.length) { box.append(h("p", {class: "muted"}, t("No finished matches yet."))); return; }
  const list = h("ul", {class: "history"});
  for (const item of data.matches) {
    const when = new Date(item.finished * 1000).toLocaleString(LANG);
    list.append(h("li", {}, h("strong", {}, item.title || item.preset), " · " + when + " · " + item.players.join(", ")
      + " · " + t("score {a}–{b}, team {n} won", {a: item.score[0], b: item.score[1], n: item.winner}) + " ",
      h("a", {href: "/replay/" + item.table + "/" + item.match_no, "data-link": true}, t("Replay")), " ",
      h("a", {href: "/api/history/" + item.table + "/" + item.match_no + "/record", download: true}, t("Download"))));
  }
  box.append(list);
}

class ReplayPage {
  constructor(tableId, matchNo, root) {
    this.root = root;
    this.hand = 0;
    this.trick = 0;
    this.base = "/api/history/" + tableId + "/" + matchNo;
    this.analyses = {};  // hand number -> the solver's analysis, or "loading", or an error message
    api(this.base + "/replay").then((data) => {
      this.data = data;
      this.download = "/api/history/" + tableId + "/" + matchNo + "/record";
      this.render();
    }).catch((error) => root.append(h("p", {}, error.message)));
  }

  step(delta) {
    const hands = this.data.replay.hands;
    let hand = this.hand, trick = this.trick + delta;
    if (trick < 0) { if (hand === 0) return; hand -= 1; trick = hands[hand].tricks.length; }
    if (trick > hands[hand].tricks.length) { if (hand === hands.length - 1) return; hand += 1; trick = 0; }
    this.hand = hand; this.trick = trick;
    this.render();
  }

  render() {
    const {record, replay} = this.data;
    const hand = replay.hands[this.hand];
    const names = record.players || [];
    const name = (seat) => names[seat] || t("Seat {n}", {n: seat});
    const shown = hand.tricks.slice(0, this.trick);
    const box = h("section", {class: "panel replay"},
      h("h1", {}, t("Replay")),
      h("p", {}, t("Hand {n} of {m}", {n: this.hand + 1, m: replay.hands.length}) + " · " + t("Dealer: {name}", {name: name(hand.dealer)})
        + " · " + t("Trump") + ": " + (hand.trump ? SUITS[hand.trump] + " " + suitName(hand.trump) : t("none"))),
      h("div", {class: "replay-buttons"},
        h("button", {type: "button", id: "replay-prev", onclick: () => this.step(-1)}, t("◀ Previous trick")),
        h("span", {}, " " + t("Trick {n} of {m}", {n: this.trick, m: hand.tricks.length}) + " "),
        h("button", {type: "button", id: "replay-next", onclick: () => this.step(1)}, t("Next trick ▶")),
        " ", h("a", {class: "button", href: this.download, download: true}, t("Download the record"))));
    const deal = record.hands[this.hand].cards;
    box.append(h("h2", {}, t("The deal")), h("ul", {class: "deal"}, deal.map((cards, seat) =>
      h("li", {}, name(seat) + " (" + t("team {n}", {n: seat % 2}) + "): ", cardsLine(cards.split(" "))))));
    const analysis = this.analyses[this.hand];
    const judged = typeof analysis === "object" ? decisionsByPlay(analysis.hand.decisions) : null;
    const list = h("ol", {class: "tricks"});
    shown.forEach((trick, number) => {
      list.append(h("li", {}, trick.cards.map((card, index) => h("span", {class: "play"},
        name((trick.leader + index) % deal.length) + " ", cardFace(card, "mini"),
        judged ? verdict(judged[(number + 1) + ":" + card]) : "", " ")),
        " → " + t("won by {name}", {name: name(trick.winner)}) + (trick.collected_by !== null ? " · " + t("collected") : "")));
    });
    box.append(h("h2", {}, t("Tricks")), list);
    box.append(this.analysisPanel(analysis, name));
    if (this.trick === hand.tricks.length) {
      box.append(h("p", {}, t("Tens {a}–{b}, tricks {c}–{d}.", {a: hand.tens[0], b: hand.tens[1], c: hand.tricks_won[0], d: hand.tricks_won[1]})
        + " " + (hand.winner === null ? t("Nobody scores this hand.") : t("Team {n} wins the hand.", {n: hand.winner}))
        + (hand.ended_early ? " " + t("The hand ended early: its result could no longer change, whoever took the remaining tricks (Taash rule).") : "")));
    }
    this.root.replaceChildren(box);
  }

  analyse() {
    const hand = this.hand;
    this.analyses[hand] = "loading";
    this.render();
    api(this.base + "/analysis/" + hand).then((data) => { this.analyses[hand] = data; })
      .catch((error) => { this.analyses[hand] = error.message; })
      .finally(() => { if (this.hand === hand) this.render(); });
  }

  analysisPanel(analysis, name) {
    const box = h("section", {class: "analysis", id: "analysis", "aria-live": "polite"}, h("h2", {}, t("The solver's analysis")));
    if (analysis === undefined) {
      box.append(h("p", {class: "muted"}, t("The solver replays this hand with every card known and shows, play by play, whether each card kept the best result the team could still reach.")),
        h("button", {type: "button", id: "replay-analyse", onclick: () => this.analyse()}, t("Analyse this hand")));
    } else if (analysis === "loading") {
      box.append(h("p", {}, t("Analysing… the solver looks at every play of the hand.")));
    } else if (typeof analysis === "string") {
      box.append(h("p", {class: "error"}, analysis));
    } else {
      const start = analysis.hand.start;
      if (start) box.append(h("p", {}, t("With best play from the deal: {value}.", {value: valueText(start)})));
      const mistakes = analysis.hand.decisions.filter((item) => item.solved && item.levels_lost > 0);
      box.append(h("p", {}, mistakes.length ? t("{n} plays gave something away:", {n: mistakes.length}) : t("No play gave anything away among those solved.")));
      if (mistakes.length) {
        box.append(h("ul", {class: "mistakes"}, mistakes.map((item) => h("li", {},
          t("Trick {n}", {n: item.trick}) + ": " + name(item.seat) + " " + t("played {card}; best was {best}", {card: item.action, best: item.best.join(", ")})
          + " — " + costText(item) + " (" + valueText(item.value) + " " + t("instead of") + " " + valueText(item.best_value) + ")"))));
      }
      box.append(h("table", {class: "seat-summary"},
        h("tr", {}, h("th", {}, t("Seat")), h("th", {}, t("Solved")), h("th", {}, t("Best plays")), h("th", {}, t("Tens given away")), h("th", {}, t("Hands given away"))),
        analysis.seats.map((seat) => h("tr", {}, h("td", {}, name(seat.seat)), h("td", {}, seat.solved + " / " + seat.decisions),
          h("td", {}, String(seat.best)), h("td", {}, String(seat.tens_lost)), h("td", {}, String(seat.hands_lost))))));
      const unsolved = analysis.hand.decisions.filter((item) => !item.solved).length;
      if (unsolved) box.append(h("p", {class: "muted"}, t("{n} early plays were too big to solve in the time allowed; they are marked ?.", {n: unsolved})));
    }
    return box;
  }
}

function decisionsByPlay(decisions) {
  const found = {};
  for (const item of decisions) found[item.trick + ":" + item.action] = item;
  return found;
}

function verdict(item) {
  if (!item) return "";
  if (!item.solved) return h("span", {class: "verdict unknown", title: t("too big to solve")}, "?");
  if (item.levels_lost === 0) return h("span", {class: "verdict good", title: t("kept the best value")}, "✓");
  return h("span", {class: "verdict bad", title: costText(item) + "; " + t("best was {best}", {best: item.best.join(", ")})}, "✗");
}

function costText(item) {
  if (item.hand_lost) return t("cost the hand");
  if (item.tens_lost) return t("cost {n} ten(s)", {n: item.tens_lost});
  return t("gave away tricks");
}

function valueText(value) {
  const result = value.winner === null ? t("nobody scores") : t("team {n} wins", {n: value.winner});
  return result + ", " + t("tens {a}–{b}", {a: value.tens[0], b: value.tens[1]});
}

/* ---------- scorekeeper ---------- */

function renderScorekeeper(root) {
  const saved = JSON.parse(localStorage.getItem("dehla.scorekeeper") || "null") || {rules: "pagat", first_dealer: 0, hands: []};
  const box = h("section", {class: "panel scorekeeper"}, h("h1", {}, t("Scorekeeper")),
    h("p", {class: "muted"}, t("Playing with real cards? Enter each hand's result; the dealer, streaks and score are kept by the rules.")));
  const preset = h("select", {id: "sk-preset"}, META.presets.map((item) => h("option", {value: item.name}, item.name)));
  preset.value = saved.rules;
  const dealer = h("select", {id: "sk-dealer"});
  const entry = h("div", {class: "sk-entry"});
  const table = h("div", {id: "sk-table"});
  const result = h("p", {id: "sk-result", "aria-live": "polite"});
  box.append(h("p", {}, h("label", {for: "sk-preset"}, t("Rules") + " "), preset), h("p", {class: "muted", id: "sk-summary"}),
    h("p", {}, h("label", {for: "sk-dealer"}, t("First dealer") + " "), dealer), entry, result, table,
    h("button", {type: "button", id: "sk-undo", onclick: () => { saved.hands.pop(); update(); }}, t("Undo the last hand")), " ",
    h("button", {type: "button", id: "sk-reset", onclick: () => { saved.hands = []; update(); }}, t("New match")));
  root.append(box);

  function fillDealers() {
    const players = META.presets.find((item) => item.name === preset.value).players;
    dealer.replaceChildren(...Array.from({length: players}, (_, seat) => h("option", {value: seat}, t("Seat {n}", {n: seat}))));
    dealer.value = String(Math.min(saved.first_dealer, players - 1));
  }
  preset.addEventListener("change", () => { saved.rules = preset.value; saved.hands = []; fillDealers(); update(); });
  dealer.addEventListener("change", () => { saved.first_dealer = Number(dealer.value); update(); });
  fillDealers();

  async function update() {
    localStorage.setItem("dehla.scorekeeper", JSON.stringify(saved));
    document.getElementById("sk-summary").textContent = presetSummary(saved.rules);
    let data;
    try {
      data = await api("/api/scorekeeper", {rules: saved.rules, first_dealer: saved.first_dealer, hands: saved.hands});
    } catch (error) { toast(error.message); saved.hands.pop(); return; }
    const unit = data.unit === "kots" ? t("Kots") : t("Points");
    result.textContent = unit + ": " + t("Team {n}", {n: 0}) + " " + data.score[0] + " – " + data.score[1] + " " + t("Team {n}", {n: 1})
      + " " + t("(target {n})", {n: data.target}) + (data.over ? " · " + t("Team {n} wins the match!", {n: data.winner})
      : " · " + t("Next dealer: seat {n}", {n: data.dealer}));
    const rows = data.hands.map((row, index) => h("tr", {},
      h("td", {}, String(index + 1)), h("td", {}, t("Seat {n}", {n: row.dealer})), h("td", {}, row.tens.join("–")),
      h("td", {}, row.tricks ? row.tricks.join("–") : "—"),
      h("td", {}, row.winner === null ? t("nobody") : t("Team {n}", {n: row.winner}) + (row.kot ? " · " + t("KOT!") : "")),
      h("td", {}, row.score.join("–"))));
    table.replaceChildren(h("table", {}, h("thead", {}, h("tr", {}, [t("Hand"), t("Dealer"), t("Tens"), t("Tricks"), t("Winner"), t("Score")].map((text) => h("th", {scope: "col"}, text)))),
      h("tbody", {}, rows)));
    entry.replaceChildren();
    if (data.over) return;
    const tens0 = h("input", {type: "number", id: "sk-tens0", min: "0", max: "4", value: "2"});
    const tens1 = h("input", {type: "number", id: "sk-tens1", min: "0", max: "4", value: "2"});
    tens0.addEventListener("input", () => { if (data.unit === "kots" || !data.rules.toString().startsWith("taash")) tens1.value = String(4 - Number(tens0.value)); });
    const fields = [h("label", {for: "sk-tens0"}, t("Tens of team 0") + " "), tens0, " ", h("label", {for: "sk-tens1"}, t("Tens of team 1") + " "), tens1];
    let tricks0, tricks1;
    if (data.needs_tricks) {
      tricks0 = h("input", {type: "number", id: "sk-tricks0", min: "0", max: String(data.tricks_per_hand), value: String(Math.ceil(data.tricks_per_hand / 2))});
      tricks1 = h("input", {type: "number", id: "sk-tricks1", min: "0", max: String(data.tricks_per_hand), value: String(Math.floor(data.tricks_per_hand / 2))});
      tricks0.addEventListener("input", () => { tricks1.value = String(data.tricks_per_hand - Number(tricks0.value)); });
      fields.push(h("br"), h("label", {for: "sk-tricks0"}, t("Tricks of team 0") + " "), tricks0, " ", h("label", {for: "sk-tricks1"}, t("Tricks of team 1") + " "), tricks1);
    }
    entry.append(h("fieldset", {}, h("legend", {}, t("Hand {n}", {n: data.hands.length + 1}) + " · " + t("dealer: seat {n}", {n: data.dealer})), fields, " ",
      h("button", {type: "button", class: "primary", id: "sk-add", onclick: () => {
        const hand = {tens: [Number(tens0.value), Number(tens1.value)]};
        if (tricks0) hand.tricks = [Number(tricks0.value), Number(tricks1.value)];
        saved.hands.push(hand);
        update();
      }}, t("Add the hand"))));
  }
  update();
}

/* ---------- start ---------- */

async function setLanguage(lang) {
  LANG = lang;
  localStorage.setItem("dehla.lang", lang);
  document.documentElement.lang = lang;
  MESSAGES = lang === "en" ? {} : (await api("/api/i18n/" + lang)).messages;
  document.getElementById("nav-lobby").textContent = t("Lobby");
  document.getElementById("nav-history").textContent = t("History");
  document.getElementById("nav-scorekeeper").textContent = t("Scorekeeper");
  document.getElementById("lang-label").textContent = t("Language");
  document.getElementById("fourcolour-label").textContent = t("Four colours");
  document.querySelector(".skip").textContent = t("Skip to content");
}

async function start() {
  META = await api("/api/meta");
  const select = document.getElementById("lang");
  for (const language of META.languages) select.append(h("option", {value: language.code}, language.name));
  const wanted = new URLSearchParams(location.search).get("lang") || localStorage.getItem("dehla.lang")
    || ((navigator.language || "en").startsWith("es") ? "es" : "en");
  select.value = META.languages.some((language) => language.code === wanted) ? wanted : "en";
  await setLanguage(select.value);
  select.addEventListener("change", async () => { await setLanguage(select.value); route(); if (current && current.render && current.state) current.render(); });
  const four = document.getElementById("fourcolour");
  four.checked = localStorage.getItem("dehla.fourcolour") === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => {
    localStorage.setItem("dehla.fourcolour", four.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", four.checked);
  });
  route();
}

start().catch((error) => { main().textContent = "dehla: " + error.message; });
