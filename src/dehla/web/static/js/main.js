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
import {themePicker} from "./themes.js";
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

/** Show the page's frame in `lang`; `meta` is the server's meta data already in that language, if fetched. */
async function setLanguage(lang, meta) {
  document.documentElement.lang = lang;
  const [fresh] = await Promise.all([meta || api("/api/meta?lang=" + encodeURIComponent(lang)), loadLanguage(lang)]);
  app.meta = fresh;
  const texts = {"nav-lobby": t("Lobby"), "nav-history": t("History"), "nav-scorekeeper": t("Scorekeeper"),
    "lang-label": t("Language"), "fourcolour-label": t("Four colours"), "skip-link": t("Skip to content")};
  for (const [id, text] of Object.entries(texts)) document.getElementById(id).textContent = text;
  document.getElementById("main-nav").setAttribute("aria-label", t("Main menu"));
  themePicker();
}

/** The language chosen (?lang=, then the switch's last choice), or null on a first visit. */
function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) localStorage.setItem("dehla.lang", asked.slice(0, 8).toLowerCase());
  const chosen = asked || localStorage.getItem("dehla.lang");
  return chosen ? chosen.slice(0, 8).toLowerCase() : null;
}

/** A first visit: the server picks the first offered of the browser's languages (then its Accept-Language). */
async function browserLanguage() {
  const preferred = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ""];
  const meta = await api("/api/meta?lang=auto&prefer=" + encodeURIComponent(preferred.slice(0, 16).join(",")));
  return {lang: meta.lang || "en", meta};
}

async function start() {
  // one request for the meta data, already in the wanted language (the server falls back to English)
  let lang = chosenLanguage();
  if (lang) await setLanguage(lang);
  else {
    const found = await browserLanguage();
    lang = found.lang;
    await setLanguage(lang, found.meta);
  }
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
    localStorage.setItem("dehla.lang", select.value);  // a choice: kept for the next visits
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
