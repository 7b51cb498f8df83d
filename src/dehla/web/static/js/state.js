/* The one place for state shared between modules: the server's meta data, the language's catalogs,
   and the page being shown.  Every other module keeps its state inside the objects it creates. */

export const app = {
  meta: null,          // GET /api/meta?lang=LANG: presets (with title and summary), bots, languages, messages
  lang: "en",
  locale: "en",        // dates and numbers: the language with Latin digits, as cards and scores are written
  catalog: {messages: {}, plurals: {}, pluralIndex: (n) => (n === 1 ? 0 : 1)},
  page: null,          // the page object being shown (may have close() and refresh())
  routes: null,        // (path, root) => page object, set once by main.js
  toastTimer: null,    // the timer that hides the toast
  audio: null,         // the Web Audio context, made on the first sound
};
