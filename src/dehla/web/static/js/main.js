/* dehla web tables: the start of the page (native ES modules, no build step).
   Loads the server's meta data and the language, then shows the page the address asks for. */

import {app} from "./state.js";
import {api, mainBox} from "./dom.js";
import {loadLanguage, t} from "./i18n.js";
import {listen, route, setRoutes} from "./router.js";
import {LobbyPage} from "./lobby.js";
import {HistoryPage} from "./history.js";
import {ReplayPage} from "./replay.js";
import {ScorekeeperPage} from "./scorekeeper.js";
import {TablePage} from "./table/page.js";
import {DailyPage, dailyReplay} from "./daily.js";

function resolve(path, root) {
  let found;
  if ((found = path.match(/^\/t\/([A-Za-z0-9_-]+)$/))) return new TablePage(found[1], root);
  if (path === "/history") return new HistoryPage(root);
  if ((found = path.match(/^\/replay\/([A-Za-z0-9_-]+)\/(\d+)$/))) return new ReplayPage(found[1], Number(found[2]), root);
  if (path === "/scorekeeper") return new ScorekeeperPage(root);
  if ((found = path.match(/^\/daily(?:\/(\d{4}-\d{2}-\d{2}))?$/))) return new DailyPage(found[1] || null, root);
  if ((found = path.match(/^\/daily\/(\d{4}-\d{2}-\d{2})\/replay\/([A-Za-z0-9_-]+)$/))) return dailyReplay(found[1], found[2], root);
  return new LobbyPage(root);
}

async function setLanguage(lang) {
  localStorage.setItem("dehla.lang", lang);
  document.documentElement.lang = lang;
  const [meta] = await Promise.all([api("/api/meta?lang=" + encodeURIComponent(lang)), loadLanguage(lang)]);
  app.meta = meta;
  const texts = {"nav-lobby": t("Lobby"), "nav-history": t("History"), "nav-scorekeeper": t("Scorekeeper"),
    "lang-label": t("Language"), "fourcolour-label": t("Four colours"), "skip-link": t("Skip to content")};
  for (const [id, text] of Object.entries(texts)) document.getElementById(id).textContent = text;
  document.getElementById("main-nav").setAttribute("aria-label", t("Main menu"));
}

/** The language asked for (?lang=, then the switch's last choice, then the browser's languages). */
function wantedLanguage() {
  const asked = new URLSearchParams(location.search).get("lang") || localStorage.getItem("dehla.lang");
  if (asked) return asked.slice(0, 8).toLowerCase();
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return first.slice(0, 2).toLowerCase();
}

async function start() {
  // one request for the meta data, already in the wanted language (the server falls back to English)
  let lang = wantedLanguage();
  await setLanguage(lang);
  if (!app.meta.languages.some((language) => language.code === lang)) {
    lang = "en";
    await setLanguage(lang);
  }
  const select = document.getElementById("lang");
  for (const language of app.meta.languages) {
    const option = document.createElement("option");
    option.value = language.code;
    option.textContent = language.name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    if (app.page && app.page.refresh) app.page.refresh();
    else route();
  });
  const four = document.getElementById("fourcolour");
  four.checked = localStorage.getItem("dehla.fourcolour") === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => {
    localStorage.setItem("dehla.fourcolour", four.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", four.checked);
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (app.page && app.page.state && app.page.render) app.page.render(); }, 80);
  });
  setRoutes(resolve);
  listen();
  route();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(() => null);
  }
}

start().catch((error) => { mainBox().textContent = "dehla: " + error.message; });
