/* Links and the host's controls: invite links (each reserves its seat), a watch link, whether the table is
   listed and watchers allowed, and, between hands, a seat replaced with a bot or a new invite. */

import {app} from "../state.js";
import {api, h, toast} from "../dom.js";
import {errorMessage} from "../errors.js";
import {t} from "../i18n.js";
import {botLevel, personName} from "../names.js";
import {addInvite, savedInvites, savedWatch, seatLink, watchLink} from "../storage.js";

function linkRow(label, link, id, kind) {
  const input = h("input", {readonly: true, value: link, class: kind || "invite", id, "aria-label": label});
  input.addEventListener("focus", () => input.select());
  return h("div", {class: "link-row"}, h("span", {class: "link-label"}, label),
    h("span", {class: "link-box"}, input, h("button", {type: "button", class: "small", onclick: () => {
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast(t("Copied."))).catch(() => input.select());
      else input.select();
    }}, t("Copy"))));
}

export class HostPanel {
  constructor(page) {
    this.page = page;
    this.box = h("section", {class: "host-panel"});
  }

  /** An invite made by the host for a seat: keep it and show it. */
  invite(message) {
    addInvite(this.page.tableId, {seat: message.seat, token: message.token});
    toast(t("New invite link for seat {n}.", {n: message.seat + 1}));
    this.render();
  }

  links(table) {
    const tableId = this.page.tableId;
    const open = savedInvites(tableId).filter((invite) => {
      const seat = table.seats[invite.seat];
      return seat && seat.kind !== "bot" && !seat.claimed;
    });
    const box = h("div", {class: "invites"});
    if (open.length) {
      box.append(h("h3", {}, t("Invite links (one per seat; send each to one person)")),
        ...open.map((invite) => linkRow(t("Seat {n}", {n: invite.seat + 1}), seatLink(tableId, invite.seat, invite.token),
          "invite-" + invite.seat)));
    }
    return box;
  }

  controls(table, obs) {
    const you = this.page.state.you || {};
    if (!you.host) return null;
    const between = table.status === "waiting" || !obs || obs.phase === "deal";
    const box = h("details", {class: "host-controls", id: "host-controls"}, h("summary", {}, t("Host controls")));
    const setting = (id, text, checked, field) => {
      const input = h("input", {type: "checkbox", id, checked});
      input.addEventListener("change", () => this.page.send({type: "settings", [field]: input.checked}));
      return h("p", {}, h("label", {class: "check"}, input, " " + text));
    };
    if (table.watchers_allowed !== false) {
      const token = savedWatch(this.page.tableId);
      if (token || !table.private) box.append(linkRow(t("Watch link"), watchLink(this.page.tableId, token), "watch-link", "watch"));
    }
    box.append(setting("host-listed", t("Open to anyone: list the table in the lobby"), !!table.listed, "listed"),
      setting("host-watchers", t("Watchers allowed"), table.watchers_allowed !== false, "watchers_allowed"));
    if (!table.rated) box.append(setting("host-assists", t("Hints and undo against bots"), table.assists !== false, "assists"));
    const pause = h("input", {type: "number", id: "host-pause", min: "0", max: "5", step: "0.1", value: String(table.trick_pause ?? 1.2)});
    pause.addEventListener("change", () => this.page.send({type: "settings", trick_pause: Number(pause.value)}));
    box.append(h("p", {class: "field"}, h("label", {for: "host-pause"}, t("Pause to see each finished trick (seconds)")), pause));
    const seats = h("ul", {class: "host-seats"});
    for (const seat of table.seats) {
      if (seat.seat === this.page.state.seat) continue;
      const bot = seat.kind === "bot";
      const who = bot ? botLevel(seat.bot_label) : seat.claimed ? personName(seat.name) : t("invite not opened yet");
      seats.append(h("li", {}, h("span", {}, t("Seat {n}", {n: seat.seat + 1}) + ": " + who), " ",
        bot ? null : h("button", {type: "button", class: "small", disabled: !between, "data-host-bot": seat.seat,
          onclick: () => this.page.send({type: "seat", seat: seat.seat, kind: "bot", bot: app.meta.default_bot})}, t("Put a bot here")),
        " ",
        h("button", {type: "button", class: "small", disabled: !between, "data-host-invite": seat.seat,
          onclick: () => this.page.send({type: "seat", seat: seat.seat, kind: "invite"})}, t("New invite link")),
        " ", this.friendChoice(seat.seat, between || (seat.kind !== "bot" && !seat.claimed))));
    }
    box.append(h("h3", {}, t("Seats")));
    if (!between) box.append(h("p", {class: "muted"}, t("Seats can be changed between hands.")));
    box.append(seats);
    return box;
  }

  /** Invite one of the players the host follows to a seat (they are told in their lobby). */
  friendChoice(seat, allowed) {
    if (!this.friends || !this.friends.length || !allowed) return null;
    const select = h("select", {"aria-label": t("Invite a friend to seat {n}", {n: seat + 1}), "data-host-friend": seat},
      h("option", {value: ""}, t("Invite a friend…")),
      ...this.friends.map((friend) => h("option", {value: friend.player},
        personName(friend.name) + (friend.online ? " · " + t("online") : ""))));
    select.addEventListener("change", () => {
      if (!select.value) return;
      api("/api/tables/" + this.page.tableId + "/invite", {friend: select.value, seat})
        .then(() => toast(t("Your friend is invited: they see it in their lobby.")))
        .catch((error) => toast(errorMessage(error)));
    });
    return select;
  }

  render() {
    const state = this.page.state;
    if (state && state.you && state.you.host && this.friends === undefined) {
      this.friends = [];
      api("/api/me/friends").then((data) => { this.friends = data.friends; this.render(); }).catch(() => {});
    }
    if (!state) return;
    const wasOpen = this.box.querySelector("#host-controls")?.open;
    this.box.replaceChildren(this.links(state.table), this.controls(state.table, state.observation) || "");
    const details = this.box.querySelector("#host-controls");
    if (details && wasOpen) details.open = true;
  }
}
