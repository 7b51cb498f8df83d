/* What the browser remembers: seat tokens, invites, preferences (localStorage). */

const get = (key, fallback) => {
  try { const value = JSON.parse(localStorage.getItem(key) || "null"); return value === null ? fallback : value; }
  catch (error) { return fallback; }
};
const put = (key, value) => localStorage.setItem(key, JSON.stringify(value));

export function savedSeat(tableId) { return get("dehla.seat." + tableId, null); }
export function saveSeat(tableId, seat, token) { put("dehla.seat." + tableId, {seat, token}); }

export function savedInvites(tableId) { return get("dehla.invites." + tableId, []); }
export function saveInvites(tableId, invites) { put("dehla.invites." + tableId, invites); }
export function addInvite(tableId, invite) {
  const invites = savedInvites(tableId).filter((item) => item.seat !== invite.seat);
  invites.push(invite);
  saveInvites(tableId, invites);
}

export function savedWatch(tableId) { return get("dehla.watch." + tableId, null); }
export function saveWatch(tableId, token) { put("dehla.watch." + tableId, token); }

export function seatLink(tableId, seat, token) {
  return location.origin + "/t/" + tableId + "#seat=" + seat + "&token=" + encodeURIComponent(token);
}

export function watchLink(tableId, token) {
  return location.origin + "/t/" + tableId + (token ? "#watch=" + encodeURIComponent(token) : "");
}

export function pref(name, fallback) { return get("dehla." + name, fallback); }
export function setPref(name, value) { put("dehla." + name, value); }

export function playerName() { return localStorage.getItem("dehla.name") || ""; }
export function setPlayerName(name) { localStorage.setItem("dehla.name", name); }
