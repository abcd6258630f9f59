// A read-only board for the replay and rules pages: the same squares, art, seat badges, chess tiles and
// element squares as the game page, drawn afresh for each position.
import { el } from "./api";
import { ELEMENT_TIPS, TILE_TIPS } from "./glossary";
import { SQUARES_TOP_DOWN, artOf, cardText, type Tile, type ViewModel } from "./model";
import { cardTip } from "./view";

export function drawBoard(
  container: HTMLElement,
  board: ViewModel["board"],
  tiles: readonly Tile[],
  elements: readonly Tile[],
  opts: { last?: string; flipped?: readonly string[] } = {},
): void {
  const nodes: HTMLElement[] = [];
  for (const [i, square] of SQUARES_TOP_DOWN.entries()) {
    if (i % 4 === 0) nodes.push(el("span", { class: "axis", "aria-hidden": "true", text: square[1] }));
    const cell = board.get(square);
    const tile = tiles.find((t) => t.square === square);
    const element = elements.find((t) => t.square === square);
    const extras = [tile && `${tile.kind} tile`, element && `${element.kind} square`].filter(Boolean).join(", ");
    const cls = [
      "square",
      element && `elem-${element.kind}`,
      cell && `owner-${cell.owner}`,
      square === opts.last && "last",
      opts.flipped?.includes(square) && "flip",
    ];
    nodes.push(
      el(
        "div",
        {
          class: cls.filter(Boolean).join(" "),
          role: "img",
          "data-square": square,
          "data-owner": cell?.owner ?? "",
          "aria-label": cell
            ? `${square}: ${cardText(cell.card)}, owned by ${cell.owner}${extras ? `; ${extras}` : ""}`
            : `${square}: empty${extras ? `, ${extras}` : ""}`,
          title: [cell && cardTip(cell.card), tile && TILE_TIPS[tile.kind], element && ELEMENT_TIPS[element.kind]].filter(Boolean).join("\n"),
        },
        cell ? el("img", { src: artOf(cell.card), alt: "" }) : el("span", { text: square }),
        cell ? el("span", { class: `seat-badge ${cell.owner}`, "aria-hidden": "true", text: cell.owner }) : null,
        tile ? el("span", { class: "tag", text: tile.kind }) : null,
        element ? el("span", { class: `el el-${element.kind}` }) : null,
      ),
    );
  }
  nodes.push(el("span", { class: "axis" }), ...["a", "b", "c", "d"].map((f) => el("span", { class: "axis", "aria-hidden": "true", text: f })));
  container.replaceChildren(...nodes);
}
