/* Quick reactions and short chat between the people at a table: text only (textContent), at most
   200 characters, and a mute switch remembered in this browser. */

import {api, h, toast} from "../dom.js";
import {errorMessage} from "../errors.js";
import {t} from "../i18n.js";
import {personName} from "../names.js";
import {pref, setPref} from "../storage.js";

export const REACTIONS = ["👍", "👏", "😮", "😂", "🙏", "🔥"];
export const MAX_CHAT = 200;

export class Chat {
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.unread = 0;
    this.box = h("section", {class: "chat panel", "aria-label": t("Chat")});
    this.list = h("ol", {class: "chat-log", "aria-live": "polite", id: "chat-log"});
    this.input = h("input", {type: "text", id: "chat-text", maxlength: String(MAX_CHAT), autocomplete: "off",
      placeholder: t("Say something…"), "aria-label": t("Chat message")});
    this.form = h("form", {class: "chat-form", id: "chat-form"}, this.input, h("button", {type: "submit"}, t("Send")));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim().slice(0, MAX_CHAT);
      if (!text) return;
      if (this.page.send({type: "chat", text})) this.input.value = "";
    });
    // keys typed in the chat must not skip the finished trick or play cards
    this.box.addEventListener("keydown", (event) => event.stopPropagation());
    this.render();
  }

  muted() { return pref("chat_muted", false) === true; }

  render() {
    const muted = this.muted();
    const seated = this.page.state ? this.page.state.seat !== null : false;
    const mute = h("button", {type: "button", class: "small", id: "chat-mute", "aria-pressed": muted ? "true" : "false",
      onclick: () => { setPref("chat_muted", !muted); this.render(); }}, muted ? t("Unmute chat") : t("Mute chat"));
    const reactions = h("div", {class: "reactions", role: "group", "aria-label": t("Quick reactions")},
      REACTIONS.map((reaction) => h("button", {type: "button", class: "reaction", "data-reaction": reaction,
        "aria-label": t("React {reaction}", {reaction}), onclick: () => this.page.send({type: "react", reaction})}, reaction)));
    this.box.replaceChildren(h("div", {class: "chat-head"}, h("h2", {}, t("Chat")), mute));
    if (muted) {
      this.box.append(h("p", {class: "muted"}, t("Chat and reactions are muted.")));
      return;
    }
    this.box.append(this.list);
    if (seated) this.box.append(reactions, this.form);
    else this.box.append(h("p", {class: "muted"}, t("Watchers can read the chat; take a seat to write.")));
    this.drawList();
  }

  drawList() {
    const mine = (message) => this.page.state && message.seat === this.page.state.seat;
    this.list.replaceChildren(...this.messages.slice(-50).map((message) => h("li", {class: "chat-line"},
      h("strong", {}, this.who(message) + ": "), h("span", {class: "chat-text"}, message.text),
      mine(message) ? null : h("span", {class: "chat-actions"},
        " ", h("button", {type: "button", class: "link small", "data-report": String(message.id),
          "aria-label": t("Report this line of {name}", {name: personName(message.name)}),
          onclick: () => this.page.send({type: "report", chat: message.id})}, t("Report")),
        " ", h("button", {type: "button", class: "link small", "data-follow": String(message.seat),
          "aria-label": t("Follow {name}", {name: personName(message.name)}),
          onclick: () => api("/api/me/friends", {table: this.page.tableId, seat: message.seat})
            .then(() => toast(t("You follow {name}: you see when they are online and can invite them.", {name: personName(message.name)})))
            .catch((error) => toast(errorMessage(error)))}, t("Follow")),
        " ", h("button", {type: "button", class: "link small", "data-block": String(message.seat),
          "aria-label": t("Block {name}", {name: personName(message.name)}),
          onclick: () => this.block(message)}, t("Block"))))));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Hide this person's chat from now on, everywhere, and never be seated with them by "Find a game". */
  block(message) {
    api("/api/me/blocks", {table: this.page.tableId, seat: message.seat}).then(() => {
      this.messages = this.messages.filter((line) => line.seat !== message.seat);
      this.drawList();
      toast(t("{name} is blocked: you will not see their chat, and you will not be seated with them.", {name: personName(message.name)}));
    }).catch((error) => toast(errorMessage(error)));
  }

  who(message) {
    const state = this.page.state;
    if (state && message.seat !== null && message.seat !== undefined && message.seat === state.seat) return t("You");
    return personName(message.name) || t("Someone");
  }

  receive(message) {
    if (message.type === "chat_log") this.messages = (message.messages || []).slice(-50);
    else if (message.type === "chat") this.messages.push(message);
    this.messages = this.messages.slice(-50);
    if (!this.muted()) this.drawList();
  }

  reaction(message) {
    if (this.muted()) return;
    if (message.seat !== null && message.seat !== undefined) this.page.felt.react(message.seat, message.reaction);
  }
}
