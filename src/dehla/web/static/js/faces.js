/* Card faces drawn by the project as inline SVG (no images, nothing fetched): a corner index (rank and
   suit) in two corners, the suit's pips in the standard layouts for 2 to 10, a large pip for the ace and
   a framed letter with a simple emblem for the jack, queen and king.  Everything is filled with
   currentColor, so the suit colours (and the four-colour deck) come from the stylesheet. */

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.append(child);
  return el;
}

/* Each suit in a 20 x 20 box centred on 0,0, drawn by hand for this project. */
const SUIT_SHAPES = {
  H: [["path", {d: "M0 9C-3 6-10 1.5-10-4C-10-8-7.2-10-5-10C-2.6-10-.8-8.4 0-6.4C.8-8.4 2.6-10 5-10C7.2-10 10-8 10-4C10 1.5 3 6 0 9Z"}]],
  D: [["path", {d: "M0-10Q3.6-4.6 8 0Q3.6 4.6 0 10Q-3.6 4.6-8 0Q-3.6-4.6 0-10Z"}]],
  S: [["path", {d: "M0-10C-3-6-10-2.4-10 2.6C-10 6.4-7.4 8-5 8C-3.2 8-1.8 7.2-1 5.8C-1.2 7.8-2.2 9.2-4.2 10H4.2C2.2 9.2 1.2 7.8 1 5.8"
    + "C1.8 7.2 3.2 8 5 8C7.4 8 10 6.4 10 2.6C10-2.4 3-6 0-10Z"}]],
  C: [["circle", {cx: 0, cy: -4.8, r: 4.6}], ["circle", {cx: -5, cy: 2.2, r: 4.6}], ["circle", {cx: 5, cy: 2.2, r: 4.6}],
    ["circle", {cx: 0, cy: 1, r: 2.4}], ["path", {d: "M-.9 1C-1 5.6-2 8.6-4.2 10H4.2C2 8.6 1 5.6 .9 1Z"}]],
};

/** One suit sign at x, y, `size` units tall, turned upside down when `flip`. */
export function suitShape(suit, x, y, size, flip) {
  const scale = size / 20;
  const shape = SUIT_SHAPES[suit] || SUIT_SHAPES.S;
  return svg("g", {transform: "translate(" + x + " " + y + ") scale(" + scale + ")" + (flip ? " rotate(180)" : "")},
    ...shape.map(([tag, attrs]) => svg(tag, attrs)));
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
  K: [["path", {d: "M36 46L38 30L44 38L50 27L56 38L62 30L64 46Z"}], ["rect", {x: 36, y: 47, width: 28, height: 4, rx: 1}]],
  Q: [["path", {d: "M38 46L40 34L45 40L50 33L55 40L60 34L62 46Z"}], ["circle", {cx: 40, cy: 32, r: 2.4}],
    ["circle", {cx: 50, cy: 31, r: 2.4}], ["circle", {cx: 60, cy: 32, r: 2.4}], ["rect", {x: 38, y: 47, width: 24, height: 3.5, rx: 1}]],
  J: [["path", {d: "M37 47C37 38 43 34 50 34C57 34 63 38 63 47Z"}], ["path", {d: "M57 36C61 29 67 26 70 27C66 29 63 33 60 38Z"}],
    ["rect", {x: 35, y: 47, width: 30, height: 3.5, rx: 1}]],
};

function cornerIndex(rank, suit, flip) {
  const ten = rank === "10";
  return svg("g", {class: "index", transform: flip ? "rotate(180 50 70)" : ""},
    svg("text", {x: 12, y: 25, "text-anchor": "middle", "font-size": ten ? 23 : 26, "font-weight": 700,
      ...(ten ? {textLength: 20, lengthAdjust: "spacingAndGlyphs"} : {})}, rank),
    suitShape(suit, 12, 37, 12, false));
}

function middle(rank, suit) {
  if (rank === "A") return [suitShape(suit, 50, 70, suit === "S" ? 52 : 44, false)];
  if (EMBLEMS[rank]) {
    return [svg("rect", {class: "court-frame", x: 25, y: 18, width: 50, height: 104, rx: 4}),
      svg("g", {class: "emblem"}, ...EMBLEMS[rank].map(([tag, attrs]) => svg(tag, attrs))),
      svg("text", {class: "court-letter", x: 50, y: 90, "text-anchor": "middle", "font-size": 38, "font-weight": 700}, rank),
      suitShape(suit, 50, 106, 16, false)];
  }
  const layout = PIP_LAYOUTS[rank] || [];
  return layout.map(([x, row]) => {
    const pip = suitShape(suit, x, TOP + row * (BOTTOM - TOP), 15, row > .5);
    pip.setAttribute("class", "pip-mark");
    return pip;
  });
}

/** The whole face of a card as an SVG element (decorative: the card's name is given in words beside it). */
export function faceSvg(rank, suit) {
  return svg("svg", {class: "face", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false"},
    cornerIndex(rank, suit, false), ...middle(rank, suit), cornerIndex(rank, suit, true));
}
