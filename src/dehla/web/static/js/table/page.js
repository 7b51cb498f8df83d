/* A table page: the connection to /ws/TABLE_ID, the state it receives, and the parts that show it
   (header, felt, hand and controls, results dialog, words panel, chat, links and host controls). */

import {announce, h, toast} from "../dom.js";
import {t} from "../i18n.js";
import {cardLabel, suitName} from "../cards.js";
import {errorText} from "../errors.js";
import {WordPanel} from "../glossary.js";
import {matchLength} from "../length.js";
import {personName, seatName} from "../names.js";
import {setSound, soundOn, yourTurnSound} from "../sound.js";
import {savedSeat, savedWatch, saveSeat, saveWatch} from "../storage.js";
import {AssistPanel} from "./assist.js";
import {Chat} from "./chat.js";
import {Felt} from "./felt.js";
import {Guide} from "./guide.js";
import {HandControls} from "./hand.js";
import {header, teams} from "./header.js";
import {HostPanel} from "./host.js";
import {matchPanel, ResultsDialog} from "./results.js";
import {Motion} from "./motion.js";

const IGNORED_KEYS = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock"]);

export class TablePage {
  constructor(tableId, root) {
    this.tableId = tableId;
    this.root = root;
    this.state = null;
    this.showLast = false;
    this.closed = false;
    this.retry = 500;
    this.moved = false;       // this seat is open in another window
    this.status = "";
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) saveSeat(tableId, Number(hash.get("seat")), hash.get("token"));
    if (hash.get("watch")) saveWatch(tableId, hash.get("watch"));
    if (location.hash) history.replaceState({}, "", "/t/" + tableId);
    this.seat = savedSeat(tableId);
    this.watch = savedWatch(tableId);
    this.motion = new Motion(this);
    this.felt = new Felt(this);
    this.hand = new HandControls(this);
    this.assist = new AssistPanel(this);
    this.guide = new Guide(this);
    this.results = new ResultsDialog(this);
    this.words = new WordPanel();
    this.chat = new Chat(this);
    this.host = new HostPanel(this);
    this.banner = h("div", {class: "moved-banner", id: "moved-banner", role: "alert", hidden: true});
    this.head = h("div", {class: "head-box"});
    this.body = h("div", {class: "table-body"}, h("p", {class: "muted"}, t("Connecting…")));
    this.teamsBox = h("div", {class: "teams-box"});
    this.matchBox = h("div", {class: "match-box"});
    this.side = h("div", {class: "table-side"});
    this.waitPanel = h("div", {class: "wait-panel"});
    this.waitingLayout = h("div", {class: "waiting-layout"});
    this.game = h("div", {class: "table-layout"},
      h("div", {class: "table-main"}, this.felt.box, this.guide.box, this.hand.box, this.assist.box, this.matchBox), this.side);
    root.append(h("div", {class: "table-page"}, this.banner, this.head, this.body));
    document.body.classList.add("page-table");
    this.onKey = (event) => {
      const typing = event.target && event.target.closest && event.target.closest("input, textarea, select");
      if (!typing && !IGNORED_KEYS.has(event.key) && this.felt.showing()) this.felt.skip();
    };
    document.addEventListener("keydown", this.onKey, true);
    this.connect();
    this.tick = setInterval(() => this.countdown(), 500);
  }

  close() {
    this.closed = true;
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey, true);
    this.felt.close();
    this.assist.close();
    this.results.close();
    document.title = "dehla";
    if (this.ws) this.ws.close();
  }

  refresh() {
    if (!this.state) return;
    this.hostKey = null;
    this.results.remove();   // opened again in the new language
    this.chat.render();
    this.render();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + "/ws/" + this.tableId);
    this.ws = ws;
    ws.onopen = () => { this.retry = 500; this.hello(); };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.closed || this.ws !== ws) return;
      if (event.code === 4403 || event.code === 4404) { this.stop(t("This table cannot be opened here.")); return; }
      this.setStatus(t("Connection lost; reconnecting…"));
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** Say who we are; after "moved elsewhere" only the button takes the seat back (not a reconnection). */
  hello(takeBack) {
    const hello = {type: "hello"};
    if (this.seat && this.seat.token && (!this.moved || takeBack)) hello.token = this.seat.token;
    else if (this.watch) hello.watch = this.watch;
    // no link here: a seat that belongs to this browser's player (another device, a table "Find a game" made)
    if (!hello.token && (!this.moved || takeBack)) hello.mine = true;
    this.send(hello);
  }

  /** Send a message; false (and a note) when not connected. */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(message)); return true; }
    toast(t("Not connected; reconnecting…"));
    return false;
  }

  act(action) {
    if (this.moved) { toast(t("This seat is now open in another window.")); return; }
    this.felt.skip();
    this.motion.settle();
    this.send({type: "act", action, version: this.state.version});
  }

  stop(text) {
    this.closed = true;
    if (this.ws) this.ws.close();
    this.body.replaceChildren(h("section", {class: "panel"}, h("p", {}, text),
      h("a", {href: "/", "data-link": true, class: "button"}, t("Back to the lobby"))));
  }

  setStatus(text) {
    this.status = text;
    const box = this.root.querySelector("#status-line");
    if (box) box.textContent = text;
  }

  seatNamer() {
    return (seat) => (this.state ? seatName(this.state.table, seat, this.state.seat) : t("Seat {n}", {n: seat + 1}));
  }

  receive(message) {
    switch (message.type) {
      case "error": {
        const text = errorText(message.code, message.params, message.message, this.seatNamer());
        if (message.code === "no_table" || message.code === "watchers_not_allowed"
            || ((message.code === "seat_owned" || message.code === "banned") && !this.state)) { this.stop(text); return; }
        toast(text);
        return;
      }
      case "notice":
        if (message.code === "moved_elsewhere") this.movedElsewhere();
        // a claim is shown in its own box (assist.js), where the other team answers: only read it out
        else if (message.code === "claim_tricks" || message.code === "claim_tens") {
          announce(errorText(message.code, message.params, message.message, this.seatNamer()));
        }
        else toast(errorText(message.code, message.params, message.message, this.seatNamer()));
        return;
      case "chat": case "chat_log": this.chat.receive(message); return;
      case "reaction": this.chat.reaction(message); return;
      case "invite": this.host.invite(message); return;
      case "hint": this.assist.hint(message); return;
      case "state": break;
      default: return;
    }
    const before = this.state;
    // Scored hands are sent when they change; otherwise the previous list still holds.
    if (message.observation && message.observation.match.hands === undefined) {
      message.observation.match.hands = before && before.observation ? before.observation.match.hands : [];
    }
    if (this.moved && message.seat !== null) {
      this.moved = false;
      this.banner.hidden = true;
      this.banner.replaceChildren();
    }
    this.state = message;
    this.receivedAt = Date.now();
    if (this.status) this.setStatus("");
    if (before && message.last && (!before.last || before.version !== message.version)) this.announceLast(message);
    const myTurn = (state) => !!(state && state.observation && state.seat !== null && state.observation.to_act === state.seat);
    if (myTurn(message) && !myTurn(before) && before) yourTurnSound();
    this.render();
  }

  movedElsewhere() {
    this.moved = true;
    this.banner.hidden = false;
    this.banner.replaceChildren(h("p", {}, h("strong", {}, t("This seat is now open in another window."))),
      h("p", {}, t("This window only watches now; your cards are in the other window.")),
      h("button", {type: "button", class: "primary", id: "take-back", onclick: () => {
        this.seat = savedSeat(this.tableId) || this.seat;
        this.hello(true);
      }}, t("Take the seat back")));
    this.render();
  }

  announceLast(message) {
    const last = message.last;
    const who = seatName(message.table, last.seat, message.seat);
    let text;
    if (last.action === "reveal") text = t("{who} asks for trump", {who});
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

  soundOn() { return soundOn(); }

  toggleSound() {
    setSound(!soundOn());
    if (soundOn()) yourTurnSound();
    this.render();
  }

  /** The finished trick has gone to its place: show the table as it is now. */
  afterTrick() { if (!this.closed) this.render(); }

  render() {
    const state = this.state;
    if (!state) return;
    const obs = state.observation;
    const table = state.table;
    this.head.replaceChildren(header(this));
    const myTurn = obs && state.seat !== null && obs.to_act === state.seat && !this.moved;
    document.title = (myTurn ? "● " + t("Your turn") + " · " : "") + "dehla";
    if (table.status === "waiting" || !obs) {
      // parts that keep what people type (chat, host settings) stay in place; only the seat list is new
      if (this.body.firstChild !== this.waitingLayout) {
        this.waitingLayout.replaceChildren(this.waitPanel, this.host.box, this.chat.box);
        this.body.replaceChildren(this.waitingLayout);
        this.chat.render();
        this.hostKey = null;
      }
      this.waitPanel.replaceChildren(this.waiting());
      this.renderHost(false);
      return;
    }
    if (this.body.firstChild !== this.game) {
      // the words panel beside the table (below it on a phone), out of the hand's way
      this.side.replaceChildren(this.words.box, this.teamsBox, this.host.box, this.chat.box);
      this.body.replaceChildren(this.game);
      this.chat.render();
      this.hostKey = null;
    }
    this.felt.update();
    this.hand.render();
    this.motion.dealt(this.hand.box, state);
    this.assist.render();
    this.guide.update();
    this.teamsBox.replaceChildren(teams(this));
    this.matchBox.replaceChildren(matchPanel(this) || "");
    this.renderHost(false);
    this.words.explainOnce("dehla");
    if (obs.trump || obs.phase === "call" || obs.trump_hidden) this.words.explainOnce("hukum");
    if (obs.tricks.length) this.words.explainOnce("haath");
    if (table.options.scoring === "pagat" && obs.match.hands.length) this.words.explainOnce("kot");
    if (table.options.collection === "centre" && obs.tricks.length) this.words.explainOnce("centre");
    this.words.draw();
    this.results.update();
  }

  renderHost(force) {
    const state = this.state;
    const table = state.table;
    const key = JSON.stringify([table.seats.map((seat) => [seat.kind, seat.claimed, seat.name]), table.listed,
      table.watchers_allowed, table.trick_pause, table.status, state.observation && state.observation.phase === "deal",
      state.you, state.seat]);
    if (!force && key === this.hostKey) return;
    this.hostKey = key;
    this.host.render();
    if (this.chatSeat !== state.seat) { this.chatSeat = state.seat; this.chat.render(); }
  }

  waiting() {
    const table = this.state.table;
    const mySeat = this.state.seat;
    const box = h("section", {class: "panel waiting"}, h("h2", {}, t("Waiting for players")));
    const list = h("ul", {class: "seat-list"});
    for (const seat of table.seats) {
      const who = seat.seat === mySeat ? t("You") : seat.kind === "bot" ? t("{name} (bot)", {name: personName(seat.name)})
        : seat.claimed ? personName(seat.name) : t("waiting for someone to open the invite link");
      list.append(h("li", {}, t("Seat {n}", {n: seat.seat + 1}) + ": " + who));
    }
    box.append(list);
    box.append(h("p", {class: "muted", id: "table-length"}, matchLength(table.options)));
    if (mySeat !== null) {
      box.append(h("button", {class: "primary", type: "button", id: "start-now", onclick: () => this.send({type: "start"})},
        t("Start now; bots play the open seats")));
    }
    return box;
  }
}
