/* The router: page paths to page objects; links with data-link navigate without reloading. */

import {app} from "./state.js";
import {mainBox} from "./dom.js";

export function setRoutes(resolver) { app.routes = resolver; }

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

export function route() {
  if (app.page && app.page.close) app.page.close();
  app.page = null;
  const root = mainBox();
  root.replaceChildren();
  document.body.className = document.body.className.replace(/\bpage-\S+/g, "").trim();
  const path = location.pathname;
  app.page = app.routes(path, root);
  document.querySelectorAll("nav a").forEach((link) => {
    link.toggleAttribute("aria-current", link.getAttribute("href") === path);
  });
}

export function listen() {
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-link]");
    if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey && link.origin === location.origin) {
      event.preventDefault();
      navigate(link.getAttribute("href"));
    }
  });
  window.addEventListener("popstate", route);
}
