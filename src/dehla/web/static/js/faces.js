/* Card faces drawn by the project as SVG pictures (no files, nothing fetched): a corner index (rank and
   suit) in two corners, the suit's pips in the standard layouts for 2 to 10, a large pip for the ace and
   a framed letter with a simple emblem for the jack, queen and king.

   Each face is a data: URL (the page's policy allows data: images) that the card shows as its background:
   an image is laid out and painted far faster than an SVG tree per card (measured: a table redraw took
   about ten times as long with inline SVG), and the browser keeps each picture once.  A card carries two:
   --face in the usual colours and --face4 in the four-colour deck's (cards.css picks one). */

/** The suit colours, as style.css's --spade, --heart, --diamond and --club (plain and four-colour). */
export const INKS = {S: "#111", H: "#c0111f", D: "#c0111f", C: "#111"};
export const FOUR_INKS = {...INKS, D: "#1450c8", C: "#117a2a"};
const EMBLEM_INK = "#a87a08";
const FRAME_FILL = "#fbf4e4";

/* Each suit in a 20 x 20 box centred on 0,0, drawn by hand for this project. */
const SUIT_SHAPES = {
  H: '<path d="M0 9C-3 6-10 1.5-10-4C-10-8-7.2-10-5-10C-2.6-10-.8-8.4 0-6.4C.8-8.4 2.6-10 5-10C7.2-10 10-8 10-4C10 1.5 3 6 0 9Z"/>',
  D: '<path d="M0-10Q3.6-4.6 8 0Q3.6 4.6 0 10Q-3.6 4.6-8 0Q-3.6-4.6 0-10Z"/>',
  S: '<path d="M0-10C-3-6-10-2.4-10 2.6C-10 6.4-7.4 8-5 8C-3.2 8-1.8 7.2-1 5.8C-1.2 7.8-2.2 9.2-4.2 10H4.2C2.2 9.2 1.2 7.8 1 5.8'
    + 'C1.8 7.2 3.2 8 5 8C7.4 8 10 6.4 10 2.6C10-2.4 3-6 0-10Z"/>',
  C: '<circle cy="-4.8" r="4.6"/><circle cx="-5" cy="2.2" r="4.6"/><circle cx="5" cy="2.2" r="4.6"/><circle cy="1" r="2.4"/>'
    + '<path d="M-.9 1C-1 5.6-2 8.6-4.2 10H4.2C2 8.6 1 5.6 .9 1Z"/>',
};

/** One suit sign at x, y, `size` units tall, turned upside down when `flip`. */
function suitShape(suit, x, y, size, flip, mark) {
  const turn = flip ? " rotate(180)" : "";
  return '<g' + (mark ? ' class="' + mark + '"' : "") + ' transform="translate(' + x + " " + y + ") scale(" + (size / 20) + ")" + turn + '">'
    + (SUIT_SHAPES[suit] || SUIT_SHAPES.S) + "</g>";
}

/* Pip places on a 100 x 140 card: columns left, centre, right; rows as a fraction of the pip area's height. */
const LEFT = 35, CENTRE = 50, RIGHT = 65, TOP = 30, BOTTOM = 110;
const column = (x, ...rows) => rows.map((row) => [x, row]);
export const PIP_LAYOUTS = {
  2: column(CENTRE, 0, 1),
  3: column(CENTRE, 0, .5, 1),
  4: [...column(LEFT, 0, 1), ...column(RIGHT, 0, 1)],
  5: [...column(LEFT, 0, 1), ...column(RIGHT, 0, 1), [CENTRE, .5]],
  6: [...column(LEFT, 0, .5, 1), ...column(RIGHT, 0, .5, 1)],
  7: [...column(LEFT, 0, .5, 1), ...column(RIGHT, 0, .5, 1), [CENTRE, .25]],
  8: [...column(LEFT, 0, .5, 1), ...column(RIGHT, 0, .5, 1), ...column(CENTRE, .25, .75)],
  9: [...column(LEFT, 0, 1 / 3, 2 / 3, 1), ...column(RIGHT, 0, 1 / 3, 2 / 3, 1), [CENTRE, .5]],
  10: [...column(LEFT, 0, 1 / 3, 2 / 3, 1), ...column(RIGHT, 0, 1 / 3, 2 / 3, 1), ...column(CENTRE, 1 / 6, 5 / 6)],
};

/* Simple emblems over the court letter: a crown (king), a coronet of pearls (queen), a feathered cap (jack). */
const EMBLEMS = {
  K: '<path d="M36 46L38 30L44 38L50 27L56 38L62 30L64 46Z"/><rect x="36" y="47" width="28" height="4" rx="1"/>',
  Q: '<path d="M38 46L40 34L45 40L50 33L55 40L60 34L62 46Z"/><circle cx="40" cy="32" r="2.4"/><circle cx="50" cy="31" r="2.4"/>'
    + '<circle cx="60" cy="32" r="2.4"/><rect x="38" y="47" width="24" height="3.5" rx="1"/>',
  J: '<path d="M37 47C37 38 43 34 50 34C57 34 63 38 63 47Z"/><path d="M57 36C61 29 67 26 70 27C66 29 63 33 60 38Z"/>'
    + '<rect x="35" y="47" width="30" height="3.5" rx="1"/>',
};

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-weight="700" text-anchor="middle"';

function cornerIndex(rank, suit, flip) {
  const ten = rank === "10";
  return '<g class="index"' + (flip ? ' transform="rotate(180 50 70)"' : "") + ">"
    + '<text x="12" y="25" ' + FONT + ' font-size="' + (ten ? 23 : 26) + '"'
    + (ten ? ' textLength="20" lengthAdjust="spacingAndGlyphs"' : "") + ">" + rank + "</text>"
    + suitShape(suit, 12, 37, 12, false) + "</g>";
}

function middle(rank, suit) {
  if (rank === "A") return suitShape(suit, 50, 70, suit === "S" ? 52 : 44, false, "ace");
  if (EMBLEMS[rank]) {
    return '<rect class="court-frame" x="25" y="18" width="50" height="104" rx="4" fill="' + FRAME_FILL + '" stroke-width="1.4"/>'
      + '<g class="emblem" fill="' + EMBLEM_INK + '">' + EMBLEMS[rank] + "</g>"
      + '<text class="court-letter" x="50" y="90" ' + FONT + ' font-size="38">' + rank + "</text>"
      + suitShape(suit, 50, 106, 16, false);
  }
  return (PIP_LAYOUTS[rank] || []).map(([x, row]) => suitShape(suit, x, TOP + row * (BOTTOM - TOP), 15, row > .5, "pip-mark")).join("");
}

/** The face of a card as SVG text, in `ink`. */
export function faceSvg(rank, suit, ink) {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" fill="' + ink + '" stroke="' + ink + '" stroke-width="0">'
    + cornerIndex(rank, suit, false) + middle(rank, suit) + cornerIndex(rank, suit, true) + "</svg>";
}

const urls = new Map();

/** The face as a CSS url() of a data: picture (made once per card and colour). */
export function faceUrl(rank, suit, four) {
  const key = rank + suit + (four ? "4" : "");
  if (!urls.has(key)) {
    const ink = (four ? FOUR_INKS : INKS)[suit] || "#111";
    urls.set(key, 'url("data:image/svg+xml,' + encodeURIComponent(faceSvg(rank, suit, ink)) + '")');
  }
  return urls.get(key);
}
