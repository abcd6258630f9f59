// The rules page: the text is static HTML (from docs/RULES.md); each capture kind gets a picture worked out
// by the engine's own capture rules, the board before the placement and after it, with the reasons.
import { indexOf, squareOf } from "../../../src/engine/board";
import { cardById } from "../../../src/engine/champions";
import { resolvePlacement, type Cell } from "../../../src/engine/rules";
import { CURRENT_RULES_VERSION, rulesOf, startingHands } from "../../../src/engine/versions";
import { $, el } from "../lib/api";
import { drawBoard } from "../lib/board";
import { explainCaptures, ruleContext } from "../lib/captures";
import type { CardView, Seat, Tile, ViewModel } from "../lib/model";
import { enableTouchTips } from "../lib/touch-tips";

interface Example {
  /** Cards already on the board: square → [card id, owner]. */
  board: Record<string, [string, Seat]>;
  place: { card: string; square: string; seat: Seat };
  tiles?: Tile[];
  elements?: Tile[];
  mutators?: string[];
}

/** The worked examples of docs/RULES.md, one per capture kind. */
const EXAMPLES: Record<string, Example> = {
  basic: { board: { b2: ["S1", "B"] }, place: { card: "E9", square: "b1", seat: "A" } },
  rook: { board: { a3: ["S1", "B"] }, place: { card: "S5", square: "a1", seat: "A" }, tiles: [{ square: "a1", kind: "rook" }] },
  knight: { board: { b3: ["S1", "B"], c2: ["S10", "B"] }, place: { card: "S5", square: "a1", seat: "A" }, tiles: [{ square: "a1", kind: "knight" }] },
  bishop: { board: { c3: ["S1", "B"] }, place: { card: "S5", square: "a1", seat: "A" }, tiles: [{ square: "a1", kind: "bishop" }] },
  same: { board: { b3: ["G2", "B"], c2: ["S3", "B"] }, place: { card: "S5", square: "b2", seat: "A" }, mutators: ["same"] },
  plus: { board: { b3: ["E6", "B"], c2: ["E2", "B"] }, place: { card: "T1", square: "b2", seat: "A" }, mutators: ["plus"] },
  combo: { board: { b2: ["S1", "B"], b3: ["E3", "B"], b4: ["G3", "B"] }, place: { card: "E9", square: "b1", seat: "A" }, mutators: ["combo"] },
  reverse: { board: { b2: ["S1", "B"] }, place: { card: "T1", square: "b1", seat: "A" }, mutators: ["reverse"] },
  elemental: {
    board: { b2: ["E6", "B"] },
    place: { card: "E1", square: "b1", seat: "A" },
    mutators: ["elemental"],
    elements: [{ square: "b1", kind: "ember" }],
  },
};

function view(id: string): CardView {
  const c = cardById(id)!;
  return { id, name: c.name, element: c.element, ...c.ranks, champion: c.champion ?? "", tier: c.tier };
}

function toMap(cells: readonly Cell[]): ViewModel["board"] {
  const m: ViewModel["board"] = new Map();
  cells.forEach((c, i) => c && m.set(squareOf(i), { owner: c.owner, card: view(c.card) }));
  return m;
}

function figure(name: string, x: Example): HTMLElement {
  const tiles = x.tiles ?? [];
  const elements = x.elements ?? [];
  const ctx = ruleContext(tiles, elements, x.mutators ?? []);
  const cells: Cell[] = Array.from({ length: 16 }, () => null);
  for (const [sq, [card, owner]] of Object.entries(x.board)) cells[indexOf(sq)] = { card, owner };
  const before = toMap(cells);
  const placed = cells.slice();
  placed[indexOf(x.place.square)] = { card: x.place.card, owner: x.place.seat };
  const after = resolvePlacement(placed, ctx, indexOf(x.place.square), x.place.seat).board;
  const reasons = explainCaptures(before, ctx, x.place.card, x.place.square, x.place.seat);
  const [b1, b2] = [el("div", { class: "board", "aria-label": `${name}: before` }), el("div", { class: "board", "aria-label": `${name}: after` })];
  drawBoard(b1, toMap(placed), tiles, elements, { last: x.place.square });
  drawBoard(b2, toMap(after), tiles, elements, { last: x.place.square });
  return el(
    "figure",
    { class: "rule", "data-example": name },
    el(
      "div",
      { class: "pair" },
      el("div", {}, el("p", { class: "muted small", text: `A places ${view(x.place.card).name} on ${x.place.square}` }), b1),
      el("div", {}, el("p", { class: "muted small", text: "after the captures" }), b2),
    ),
    el("figcaption", {}, reasons.length ? el("ul", {}, ...reasons.map((r) => el("li", { text: r.text }))) : "No capture."),
  );
}

/** The figures the text states, written from the engine's current rules version so they cannot drift from it. */
function fillRuleFigures(): void {
  const version = CURRENT_RULES_VERSION;
  const rules = rulesOf(version);
  const without = rules.lastPlacementWithout;
  const figures: Record<string, string> = {
    version: String(version),
    "first-classic": String(startingHands(version, "classic").first),
    "first-mutators": String(startingHands(version, "mutators").first),
    second: String(startingHands(version, "classic").second),
    tie: rules.tieGoesToFirstMover ? "with equal scores the seat that moved first wins" : "equal scores are a draw",
    "last-without": without.length ? `The game's last placement (the 16th) is resolved without ${without.join(" and ")}.` : "",
  };
  for (const node of document.querySelectorAll<HTMLElement>("[data-rule]")) node.textContent = figures[node.dataset.rule!] ?? node.textContent;
}
fillRuleFigures();

for (const slot of document.querySelectorAll<HTMLElement>("[data-example]")) {
  const name = slot.dataset.example!;
  const x = EXAMPLES[name];
  if (x) slot.replaceWith(figure(name, x));
}
$("main").dataset.ready = "true";
enableTouchTips();
