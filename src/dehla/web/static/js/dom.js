/* Small DOM helpers.  Names, chat and other text people typed only ever go through textContent. */

import {app} from "./state.js";

export class ApiError extends Error {
  constructor(message, code, params, status) {
    super(message);
    this.code = code || null;
    this.params = params || {};
    this.status = status;
  }
}

/** h("button", {class: "x", onclick: fn}, "text", child...): an element; `style` takes an object of properties. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style") for (const [name, v] of Object.entries(value)) el.style.setProperty(name, String(v));
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

export const mainBox = () => document.getElementById("main");

export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(app.toastTimer);
  app.toastTimer = setTimeout(() => { box.hidden = true; }, 4500);
}

export function announce(message) {
  const box = document.getElementById("announce");
  box.textContent = "";
  setTimeout(() => { box.textContent = message; }, 30);
}

/** GET (or POST `body` as JSON) and return the JSON answer; refusals throw an ApiError with the server's code. */
export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data.error || response.statusText, data.code, data.params, response.status);
  return data;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
