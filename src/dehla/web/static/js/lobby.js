/* The lobby: a quick game, a table set up for friends, and the open tables to join or watch. */

import {app} from "./state.js";
import {api, h, toast} from "./dom.js";
import {t, tn} from "./i18n.js";
import {errorMessage} from "./errors.js";
import {glossary} from "./glossary.js";
import {botLabel, personName, preset, presetSummary, presetTitle} from "./names.js";
import {playerName, pref, saveInvites, savedSeat, saveSeat, saveWatch, setPlayerName} from "./storage.js";
import {navigate} from "./router.js";
import {passkeyPanel, passkeysSupported} from "./passkeys.js";
import {matchLength} from "./length.js";
import {startGuide} from "./table/guide.js";

/** A table with bots in every other seat: only its player sees it unless `open` lists it in the lobby. */
/** Seconds of waiting in "Find a game" before the page offers bots for the empty seats. */
const BOTS_AFTER = 20;

export async function quickGame(presetName, open = false, guided = false) {
  const players = preset(presetName).players;
  const seats = [{kind: "me"}];
  for (let seat = 1; seat < players; seat++) seats.push({kind: "bot", bot: app.meta.default_bot});
  const created = await api("/api/tables", {rules: presetName, seats, name: playerName(), listed: open});
  saveSeat(created.id, created.seat, created.token);
  if (guided) startGuide(created.id);
  navigate("/t/" + created.id);
}

function seatChoices() {
  const choices = [{value: "me", text: t("Me")}, {value: "person", text: t("A person (invite link)")}];
  for (const bot of app.meta.bots) choices.push({value: "bot:" + bot.name, text: botLabel(bot)});
  return choices;
}

function check(id, text, checked) {
  return h("p", {}, h("label", {class: "check"}, h("input", {type: "checkbox", id, checked}), " " + text));
}

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.listedTouched = false;
    this.render();
  }

  close() { clearInterval(this.timer); clearInterval(this.queueTimer); clearInterval(this.friendsTimer); }

  refresh() { this.root.replaceChildren(); this.render(); }

  render() {
    const nameInput = h("input", {id: "player-name", maxlength: "24", autocomplete: "nickname",
      value: playerName(), placeholder: t("Your name")});
    nameInput.addEventListener("change", () => {
      const name = nameInput.value.trim();
      setPlayerName(name);
      if (name) api("/api/me", {name}).catch(() => {});  // the player's name on the server too (every device)
    });
    nameInput.addEventListener("input", () => setPlayerName(nameInput.value.trim()));
    const quickOpen = h("input", {type: "checkbox", id: "quick-open"});
    const quick = h("section", {class: "panel hero"},
      h("h1", {}, t("Play Dehla Pakad")),
      h("p", {}, t("Capture the tens. Two teams, partners sit opposite. Start a game with three bots in one click, or set up a table for friends.")),
      h("p", {class: "field"}, h("label", {for: "player-name"}, t("Your name")), nameInput),
      h("button", {class: "primary big", type: "button", id: "quick-play",
        onclick: () => quickGame("pagat", quickOpen.checked).catch((error) => toast(errorMessage(error)))},
        t("Play now against bots")),
      h("p", {class: "muted", id: "quick-length"}, matchLength(preset("pagat").options)),
      h("p", {class: "check"}, h("label", {class: "check"}, quickOpen, " " + t("Let others watch and take a bot's seat"))),
      h("p", {class: "muted", id: "quick-private"}, t("Only you see this game unless you open it: it is not in the lobby or the public history.")),
      h("p", {}, h("a", {href: "/daily", "data-link": true, id: "daily-link"}, t("Daily duplicate: today's deals, the same for everyone"))),
      app.meta.solver_preparing ? h("p", {class: "muted", id: "solver-preparing"}, t("The strong bots are getting ready: after an install the solver is compiled once, which takes a minute or two. Until then they play simpler moves.")) : null,
      glossary());
    // a first-time visitor is offered the guided hand first; later it stays at the end of the lobby
    const fresh = pref("guide_done", false) !== true && pref("terms", []).length === 0;
    const guide = this.guidePanel(fresh);
    this.root.append(h("div", {class: "lobby"}, quick, fresh ? guide : null, this.findPanel(nameInput), this.form(nameInput),
      this.tablesPanel(), this.friendsPanel(), passkeysSupported() ? passkeyPanel() : null, fresh ? null : guide));
    this.refreshTables();
    this.refreshQueue();
    clearInterval(this.timer);
    clearInterval(this.queueTimer);
    this.timer = setInterval(() => this.refreshTables(), 5000);
    this.queueTimer = setInterval(() => this.refreshQueue(), 2000);
  }

  /** A guided first hand against bots, one per family of rules. */
  guidePanel(fresh) {
    const families = ["pagat", "taash", "mendikot"].filter((name) => preset(name));
    return h("section", {class: "panel", id: "guide-panel"},
      h("h2", {}, fresh ? t("New to the game?") : t("A guided first hand")),
      h("p", {}, t("Play one hand against bots; each new thing (the deal, the trump, following suit, a trick, the tens) is explained when it first happens. You can leave the guide at any point.")),
      h("p", {class: "buttons"}, families.map((name) => h("button", {type: "button", id: "guide-" + name, class: fresh ? "primary" : "",
        onclick: () => quickGame(name, false, true).catch((error) => toast(errorMessage(error)))}, presetTitle(name)))));
  }

  /** Find a game: wait in a queue with people who want the same game; seated together when enough wait. */
  findPanel(nameInput) {
    const select = h("select", {id: "find-preset"}, app.meta.presets.filter((item) => item.players === 4)
      .map((item) => h("option", {value: item.name}, presetTitle(item.name))));
    const rated = h("input", {type: "checkbox", id: "find-rated"});
    const status = h("p", {id: "find-status", role: "status"});
    const length = h("p", {class: "muted", id: "find-length"});
    const sayLength = () => { const chosen = preset(select.value); length.textContent = chosen ? matchLength(chosen.options) : ""; };
    select.addEventListener("change", sayLength);
    sayLength();
    const find = h("button", {class: "primary", type: "button", id: "find-game"}, t("Find a game"));
    const bots = h("button", {type: "button", id: "find-bots", hidden: true}, t("Play with bots instead"));
    const leave = h("button", {type: "button", id: "find-leave", hidden: true}, t("Stop waiting"));
    find.addEventListener("click", () => api("/api/queue", {preset: select.value, rated: rated.checked,
      name: nameInput.value.trim()}).then((data) => this.showQueue(data)).catch((error) => toast(errorMessage(error))));
    bots.addEventListener("click", () => api("/api/queue/bots", {}).then((data) => this.showQueue(data))
      .catch((error) => toast(errorMessage(error))));
    leave.addEventListener("click", () => fetch("/api/queue", {method: "DELETE"}).then(() => this.refreshQueue()));
    return h("section", {class: "panel", id: "find-panel"}, h("h2", {}, t("Find a game")),
      h("p", {class: "muted"}, t("Play with people who want the same game: you are seated together as soon as four are waiting.")),
      h("p", {class: "field"}, h("label", {for: "find-preset"}, t("Rules")), select), length,
      h("p", {}, h("label", {class: "check"}, rated, " " + t("Rated"))),
      h("p", {}, find, " ", bots, " ", leave), status, h("ul", {id: "queue-counts", class: "muted"}));
  }

  /** Invitations from friends, and the players this player follows (online or not). */
  friendsPanel() {
    const box = h("section", {class: "panel", id: "friends-panel", hidden: true});
    const draw = async () => {
      const [notices, friends] = await Promise.all([api("/api/me/notices").catch(() => ({notices: []})),
        api("/api/me/friends").catch(() => ({friends: []}))]);
      if (!document.body.contains(box)) return;
      box.hidden = !notices.notices.length && !friends.friends.length;
      box.replaceChildren(h("h2", {}, t("Friends")),
        h("ul", {id: "invitations"}, notices.notices.map((notice) => h("li", {},
          t("{name} invites you to a table.", {name: personName(notice.from) || t("Someone")}), " ",
          h("a", {href: "/t/" + notice.table, "data-link": true}, t("Open it")), " ",
          h("button", {type: "button", class: "small", onclick: () => fetch("/api/me/notices", {method: "DELETE",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({id: notice.id})}).then(draw)}, t("Dismiss"))))),
        friends.friends.length ? h("ul", {id: "friends"}, friends.friends.map((friend) => h("li", {},
          personName(friend.name) + " · " + (friend.online ? t("online") : t("offline"))))) : null);
    };
    draw();
    this.friendsTimer = setInterval(draw, 10000);
    return box;
  }

  async refreshQueue() {
    const data = await api("/api/queue").catch(() => null);
    if (data) this.showQueue(data);
  }

  showQueue(data) {
    const status = document.getElementById("find-status");
    if (!status) return;
    if (data.table !== null) { navigate("/t/" + data.table); fetch("/api/queue", {method: "DELETE"}); return; }
    const counts = document.getElementById("queue-counts");
    counts.replaceChildren(...data.counts.map((item) => h("li", {},
      tn("{n} waiting for {game}", "{n} waiting for {game}", item.waiting,
        {game: presetTitle(item.preset) + (item.rated ? " · " + t("Rated") : "")}))));
    const waited = data.waiting ? (Date.now() / 1000 - data.since) : 0;
    status.textContent = data.waiting ? t("Waiting for players… ({s} s)", {s: Math.round(waited)}) : "";
    document.getElementById("find-game").hidden = data.waiting;
    document.getElementById("find-leave").hidden = !data.waiting;
    document.getElementById("find-bots").hidden = !data.waiting || waited < BOTS_AFTER;
  }

  form(nameInput) {
    const presetSelect = h("select", {id: "preset"}, app.meta.presets.map((item) =>
      h("option", {value: item.name}, presetTitle(item.name))));
    const summary = h("p", {class: "muted", id: "preset-summary"});
    const options = h("div", {class: "options"});
    const seatsBox = h("div", {class: "seats-form"});
    const grace = h("input", {type: "number", id: "grace", min: "0", max: "3600", value: "60"});
    const timer = h("input", {type: "number", id: "timer", min: "0", max: "600", value: "0"});
    const pause = h("input", {type: "number", id: "trick-pause", min: "0", max: "5", step: "0.1", value: "1.2"});
    const listed = h("input", {type: "checkbox", id: "opt-listed", checked: true});
    const watchers = h("input", {type: "checkbox", id: "opt-watchers", checked: true});
    const rated = h("input", {type: "checkbox", id: "opt-rated"});
    const assists = h("input", {type: "checkbox", id: "opt-assists", checked: true});
    const ratedNote = h("p", {class: "muted", id: "rated-note"}, t("Rated matches change the players' ratings; every seat must be a person."));
    listed.addEventListener("change", () => { this.listedTouched = true; });
    let pauseTouched = false;   // the server's default pause unless the host chooses one
    pause.addEventListener("change", () => { pauseTouched = true; });
    const form = h("form", {class: "panel", id: "create-form"},
      h("h2", {}, t("Set up a table")),
      h("p", {class: "field"}, h("label", {for: "preset"}, t("Rules")), presetSelect), summary, options,
      h("fieldset", {}, h("legend", {}, t("Seats (in order of play; partners alternate)")), seatsBox),
      h("fieldset", {}, h("legend", {}, t("Who may come")),
        h("p", {}, h("label", {class: "check"}, listed, " " + t("Open to anyone: list the table in the lobby"))),
        h("p", {}, h("label", {class: "check"}, watchers, " " + t("Watchers allowed"))),
        h("p", {}, h("label", {class: "check"}, rated, " " + t("Rated"))), ratedNote,
        h("p", {}, h("label", {class: "check"}, assists, " " + t("Hints and undo against bots (never at rated tables)")))),
      h("p", {class: "field"}, h("label", {for: "trick-pause"}, t("Pause to see each finished trick (seconds)")), pause),
      h("p", {class: "field"}, h("label", {for: "grace"}, t("Grace time before a bot plays for someone who left (seconds)")), grace),
      h("p", {class: "field"}, h("label", {for: "timer"}, t("Turn timer, 0 for none (seconds)")), timer),
      h("button", {class: "primary", type: "submit"}, t("Create table")));

    const seatValues = () => [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    const syncListed = () => {
      if (!this.listedTouched) listed.checked = !seatValues().includes("person");
      // only a table of people can be rated
      const people = seatValues().every((value) => !value.startsWith("bot:"));
      rated.disabled = !people;
      if (!people) rated.checked = false;
    };
    const drawOptions = () => {
      const chosen = preset(presetSelect.value);
      summary.textContent = presetSummary(chosen.name);
      options.replaceChildren();
      const unit = chosen.options.scoring === "pagat" ? t("kots") : chosen.options.scoring === "taash" ? t("points") : t("hands won");
      const target = h("input", {type: "number", id: "opt-target", min: "1", max: "1000", value: chosen.options.target});
      const length = h("p", {class: "muted", id: "preset-length", "aria-live": "polite"});
      const sayLength = () => {
        const value = Math.round(Number(target.value));
        length.textContent = value >= 1 && value <= 1000 ? matchLength({...chosen.options, target: value}) : "";
      };
      target.addEventListener("input", sayLength);
      sayLength();
      options.append(h("p", {class: "field"}, h("label", {for: "opt-target"}, t("Play to")), h("span", {}, target, " " + unit)), length);
      if (chosen.options.collection === "centre") {
        options.append(check("opt-streak_resets", t("After a collection, the two-in-a-row count starts again"), chosen.options.streak_resets));
      }
      if (chosen.options.scoring === "taash") {
        options.append(check("opt-trick_minimum", t("The team with more tens must also take 7 tricks"), false));
      }
      options.append(check("opt-rotation", t("The deal always passes to the next player"), false));
      seatsBox.replaceChildren();
      for (let seat = 0; seat < chosen.players; seat++) {
        const select = h("select", {id: "seat-" + seat, "aria-label": t("Seat {n}", {n: seat + 1})},
          seatChoices().map((choice) => h("option", {value: choice.value}, choice.text)));
        select.value = seat === 0 ? "me" : "bot:" + app.meta.default_bot;
        select.addEventListener("change", syncListed);
        seatsBox.append(h("p", {class: "seat-row"},
          h("label", {for: "seat-" + seat}, h("span", {class: "team-dot team-" + (seat % 2)}, t("Team {n}", {n: seat % 2 + 1})),
            " " + t("Seat {n}", {n: seat + 1})), select));
      }
      syncListed();
    };
    presetSelect.addEventListener("change", drawOptions);
    drawOptions();

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = preset(presetSelect.value);
      const rules = {preset: chosen.name, target: Number(document.getElementById("opt-target").value)};
      const streak = document.getElementById("opt-streak_resets");
      if (streak) rules.streak_resets = streak.checked;
      const minimum = document.getElementById("opt-trick_minimum");
      if (minimum && minimum.checked) rules.trick_minimum = true;
      if (document.getElementById("opt-rotation").checked) rules.rotation = "simple";
      const seats = seatValues().map((value) => (value.startsWith("bot:") ? {kind: "bot", bot: value.slice(4)} : {kind: value}));
      try {
        const created = await api("/api/tables", {rules, seats, name: nameInput.value.trim(),
          grace: Number(grace.value), timer: Number(timer.value) || null, listed: listed.checked,
          watchers_allowed: watchers.checked, rated: rated.checked, assists: assists.checked && !rated.checked, ...(pauseTouched ? {trick_pause: Number(pause.value)} : {})});
        if (created.seat !== null) saveSeat(created.id, created.seat, created.token);
        saveInvites(created.id, created.invites || []);
        if (created.watch_token) saveWatch(created.id, created.watch_token);
        navigate("/t/" + created.id);
      } catch (error) { toast(errorMessage(error)); }
    });
    return form;
  }

  tablesPanel() {
    return h("section", {class: "panel"}, h("h2", {}, t("Open tables")), h("div", {id: "table-list"}, t("Loading…")));
  }

  async refreshTables() {
    const box = document.getElementById("table-list");
    if (!box) return;
    const data = await api("/api/tables").catch(() => ({tables: []}));
    if (!document.body.contains(box)) return;
    box.replaceChildren();
    if (!data.tables.length) box.append(h("p", {class: "muted"}, t("No tables yet. Create one!")));
    for (const table of data.tables) {
      const status = {waiting: t("waiting for players"), playing: t("playing"), over: t("over")}[table.status] || "";
      const seats = h("ul", {class: "seat-list"});
      const mine = savedSeat(table.id);
      for (const seat of table.seats) {
        const who = mine && mine.seat === seat.seat ? t("You") : seat.kind === "bot" ? t("{name} (bot)", {name: personName(seat.name)})
          : seat.claimed ? personName(seat.name) : t("reserved for an invited player");
        seats.append(h("li", {}, t("Seat {n}", {n: seat.seat + 1}) + ": " + who + " ",
          seat.kind === "bot" && !mine ? h("button", {type: "button", class: "small", "data-join": table.id + ":" + seat.seat,
            onclick: () => joinSeat(table.id, seat.seat)}, t("Replace the bot")) : null));
      }
      const watch = mine ? h("a", {href: "/t/" + table.id, "data-link": true, class: "button primary"}, t("Back to your seat"))
        : table.watchers_allowed === false ? null
          : h("a", {href: "/t/" + table.id, "data-link": true, class: "button"}, t("Watch"));
      box.append(h("article", {class: "table-entry"},
        h("h3", {}, (table.title || presetTitle(table.preset)) + " · " + status),
        h("p", {class: "muted"}, presetSummary(table.preset)), seats, watch));
    }
  }
}

async function joinSeat(tableId, seat) {
  try {
    const data = await api("/api/tables/" + tableId + "/join", {seat, name: playerName()});
    saveSeat(tableId, seat, data.token);
    navigate("/t/" + tableId);
  } catch (error) { toast(errorMessage(error)); }
}
