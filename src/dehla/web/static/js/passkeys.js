/* Passkeys: keep this browser's player after clearing cookies, and sign in with it on another device. */

import {api, h, toast} from "./dom.js";
import {t} from "./i18n.js";
import {errorMessage} from "./errors.js";

/** True where the browser can make and use passkeys (WebAuthn with its JSON helpers). */
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
}

/** Make a passkey for this player. */
export async function addPasskey() {
  const {options, state} = await api("/api/passkeys/register/options", {});
  const credential = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)});
  return api("/api/passkeys/register", {state, credential: credential.toJSON()});
}

/** Become the player of one of this site's passkeys. */
export async function signIn() {
  const {options, state} = await api("/api/passkeys/login/options", {});
  const credential = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
  return api("/api/passkeys/login", {state, credential: credential.toJSON()});
}

/** The lobby's panel: how many passkeys this player has, and the two buttons. */
export function passkeyPanel() {
  const status = h("p", {id: "passkey-status", role: "status"});
  const add = h("button", {type: "button", id: "passkey-add"}, t("Add a passkey"));
  const sign = h("button", {type: "button", id: "passkey-sign-in"}, t("Sign in with a passkey"));
  const show = (me) => {
    status.textContent = me.passkeys ? t("Your player has a passkey: you can sign in with it on another device.")
      : t("Add a passkey to keep your player if this browser forgets it, and to play as you on another device.");
  };
  const refresh = () => api("/api/me").then(show).catch(() => {});
  add.addEventListener("click", () => addPasskey().then(() => { toast(t("Passkey added.")); refresh(); })
    .catch((error) => toast(error.name === "NotAllowedError" ? t("No passkey was made.") : errorMessage(error))));
  sign.addEventListener("click", () => signIn().then(() => { toast(t("Signed in.")); location.reload(); })
    .catch((error) => toast(error.name === "NotAllowedError" ? t("No passkey was used.") : errorMessage(error))));
  refresh();
  return h("section", {class: "panel", id: "passkey-panel"}, h("h2", {}, t("Your player")), status, h("p", {}, add, " ", sign));
}
