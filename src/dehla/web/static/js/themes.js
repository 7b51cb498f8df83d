/* Looks: the felt's colour and the design on the backs of the cards, chosen in the header's "Theme" and kept
   in the browser (storage.js).  Each choice is a class on <body>; cards.css draws them. */

import {h} from "./dom.js";
import {t} from "./i18n.js";
import {pref, setPref} from "./storage.js";

export const FELTS = ["green", "blue", "wine"];
export const BACKS = ["red", "blue", "gold"];

function feltName(felt) { return {green: t("Green"), blue: t("Blue"), wine: t("Wine red")}[felt]; }
function backName(back) { return {red: t("Red lattice"), blue: t("Blue dots"), gold: t("Black and gold")}[back]; }

function chosen(name, choices) {
  const value = pref(name, choices[0]);
  return choices.includes(value) ? value : choices[0];
}

/** Put the stored choices on the page. */
export function applyTheme() {
  const body = document.body;
  for (const felt of FELTS) body.classList.toggle("felt-" + felt, felt === chosen("felt", FELTS));
  for (const back of BACKS) body.classList.toggle("back-" + back, back === chosen("back", BACKS));
}

function picker(id, label, name, choices, words) {
  const select = h("select", {id, onchange: () => { setPref(name, select.value); applyTheme(); }},
    choices.map((choice) => h("option", {value: choice}, words(choice))));
  select.value = chosen(name, choices);
  return h("label", {class: "looks-choice"}, h("span", {}, label), select);
}

/** The header's "Theme" panel (drawn again in each language); keeps itself open or shut across languages. */
export function themePicker() {
  const old = document.getElementById("looks");
  const box = h("details", {class: "looks", id: "looks"},
    h("summary", {}, t("Theme")),
    h("div", {class: "looks-panel"},
      picker("felt-theme", t("Table colour"), "felt", FELTS, feltName),
      picker("back-theme", t("Card backs"), "back", BACKS, backName),
      h("span", {class: "looks-sample", "aria-hidden": "true"}, h("span", {class: "card back"}))));
  if (old) {
    box.open = old.open;
    old.replaceWith(box);
  } else {
    document.querySelector(".prefs").append(box);
    // a press or Escape outside the open panel closes it, as a menu does
    document.addEventListener("click", (event) => {
      const looks = document.getElementById("looks");
      if (looks && looks.open && !looks.contains(event.target)) looks.open = false;
    });
    document.addEventListener("keydown", (event) => {
      const looks = document.getElementById("looks");
      if (event.key === "Escape" && looks && looks.open) { looks.open = false; looks.querySelector("summary").focus(); }
    });
  }
  applyTheme();
}
