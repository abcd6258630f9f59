// Draws the view model into the game page. The 16 squares are created once and updated in place, so
// keyboard focus stays on the square or card a player is on while patches arrive.
import { $, el, plural } from "./api";
import { botMark } from "./bot-mark";
import { CHAMPION_TIPS, ELEMENT_TIPS, MUTATOR_TIPS, TIER_TIPS, TILE_TIPS } from "./glossary";
import { SQUARES_TOP_DOWN, artOf, cardText, other, type CardView, type Seat, type ViewModel } from "./model";

/** What the page knows beyond the model: its seat, the chosen card, and whether a move is on its way. */
export interface ViewContext {
  mySeat: Seat | null;
  selected: string | null;
  gameId: string;
  pending: boolean;
  offline: boolean;
}

export interface ViewHandlers {
  onSquare: (square: string) => void;
  onCard: (id: string) => void;
}

/** The tooltip of a card: its champion ability or its tier. */
export function cardTip(c: CardView): string {
  return c.champion ? (CHAMPION_TIPS[c.champion] ?? c.champion) : `${c.name}, ${c.element}. ${TIER_TIPS[c.tier] ?? ""}`;
}

/** Up/down/left/right from a square on the top-down grid, or null at the edge. */
function step(square: string, key: string): string | null {
  const i = SQUARES_TOP_DOWN.indexOf(square);
  const [row, col] = [Math.floor(i / 4), i % 4];
  const to =
    key === "ArrowUp"
      ? [row - 1, col]
      : key === "ArrowDown"
        ? [row + 1, col]
        : key === "ArrowLeft"
          ? [row, col - 1]
          : key === "ArrowRight"
            ? [row, col + 1]
            : null;
  if (!to || to[0] < 0 || to[0] > 3 || to[1] < 0 || to[1] > 3) return null;
  return SQUARES_TOP_DOWN[to[0] * 4 + to[1]];
}

export function createView({ onSquare, onCard }: ViewHandlers) {
  const boardEl = $("#board");
  const squares = new Map<string, HTMLButtonElement>();
  for (const [i, square] of SQUARES_TOP_DOWN.entries()) {
    if (i % 4 === 0) boardEl.append(el("span", { class: "axis", "aria-hidden": "true", text: square[1] }));
    // One tab stop for the board (roving tabindex); arrow keys move between squares.
    const button = el("button", {
      type: "button",
      class: "square",
      "data-square": square,
      tabindex: square === "a4" ? "0" : "-1",
      onclick: () => onSquare(square),
    });
    squares.set(square, button);
    boardEl.append(button);
  }
  boardEl.append(el("span", { class: "axis" }), ...["a", "b", "c", "d"].map((f) => el("span", { class: "axis", "aria-hidden": "true", text: f })));
  boardEl.addEventListener("keydown", (ev) => {
    const from = (ev.target as HTMLElement).dataset.square;
    const to = from && step(from, ev.key);
    if (!from || !to) return;
    ev.preventDefault();
    squares.get(from)!.tabIndex = -1;
    const next = squares.get(to)!;
    next.tabIndex = 0;
    next.focus();
  });
  let handKey = "";

  function drawSquare(m: ViewModel, square: string, selected: string | null, canPlay: boolean) {
    const b = squares.get(square)!;
    const cell = m.board.get(square);
    const tile = m.chessTiles.find((t) => t.square === square);
    const element = m.elements.find((t) => t.square === square);
    const lastSquare = /@([a-d][1-4])/.exec(m.lastMove)?.[1];
    const extras = [tile && `${tile.kind} tile`, element && `${element.kind} square`].filter(Boolean).join(", ");
    const flipping = b.classList.contains("flip");
    b.className = [
      "square",
      element && `elem-${element.kind}`,
      cell && `owner-${cell.owner}`,
      !cell && selected && canPlay && "target",
      square === lastSquare && "last",
      flipping && "flip",
    ]
      .filter(Boolean)
      .join(" ");
    b.setAttribute(
      "aria-label",
      cell ? `${square}: ${cardText(cell.card)}, owned by ${cell.owner}${extras ? `; ${extras}` : ""}` : `${square}: empty${extras ? `, ${extras}` : ""}`,
    );
    b.setAttribute("aria-disabled", String(Boolean(cell) || !canPlay));
    b.title = [cell && cardTip(cell.card), tile && TILE_TIPS[tile.kind], element && ELEMENT_TIPS[element.kind]].filter(Boolean).join("\n");
    b.dataset.owner = cell?.owner ?? "";
    const key = `${cell?.card.id ?? ""}|${cell?.owner ?? ""}|${tile?.kind ?? ""}|${element?.kind ?? ""}`;
    if (b.dataset.key === key) return;
    b.dataset.key = key;
    const parts = [
      cell ? el("img", { src: artOf(cell.card), alt: "" }) : el("span", { text: square }),
      // The owner as a solid badge as well as the border colour, so it reads on every card's colours.
      cell ? el("span", { class: `seat-badge ${cell.owner}`, "aria-hidden": "true", text: cell.owner }) : null,
      tile ? el("span", { class: "tag", text: tile.kind }) : null,
      element ? el("span", { class: `el el-${element.kind}` }) : null,
    ];
    b.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  function drawHand(m: ViewModel, selected: string | null, canPlay: boolean) {
    const section = $("#hand-section");
    // At the end the hand's place holds the result panel (on a phone), so the board does not move.
    section.hidden = !m.hand || m.status !== "active";
    if (!m.hand) return;
    const key = m.hand.map((c) => c.id).join(",");
    const list = $("#hand");
    if (key !== handKey) {
      const focused = (document.activeElement as HTMLElement | null)?.dataset?.card;
      handKey = key;
      list.replaceChildren(
        ...m.hand.map((c, i) =>
          el(
            "li",
            {},
            el(
              "button",
              {
                type: "button",
                class: "card",
                "data-card": c.id,
                "aria-label": `${i + 1}: ${cardText(c)}`,
                title: cardTip(c),
                "aria-keyshortcuts": String(i + 1),
                onclick: () => onCard(c.id),
              },
              el("img", { src: artOf(c), alt: "" }),
              el("span", { class: "key", "aria-hidden": "true", text: String(i + 1) }),
              c.tier && !c.champion ? el("span", { class: `tier t${c.tier}`, "aria-hidden": "true", text: "•".repeat(c.tier) }) : null,
            ),
          ),
        ),
      );
      if (focused) list.querySelector<HTMLElement>(`[data-card="${CSS.escape(focused)}"]`)?.focus();
    }
    for (const b of list.querySelectorAll<HTMLElement>(".card")) {
      b.setAttribute("aria-pressed", String(b.dataset.card === selected));
      b.setAttribute("aria-disabled", String(!canPlay));
    }
  }

  function drawSide(m: ViewModel, mySeat: Seat | null) {
    for (const s of ["A", "B"] as const) {
      const seat = m.seats[s];
      const who = seat.name || (m.status === "waiting" ? "waiting for a player…" : "?");
      const you = mySeat === s ? " (you)" : "";
      const nameEl = $(`#seat-${s}-name`);
      nameEl.replaceChildren(
        seat.playerId && seat.kind !== "house" ? el("a", { href: `/players/${encodeURIComponent(seat.playerId)}`, text: who }) : who,
        botMark(seat.kind) ?? "",
        you,
      );
      const bits = [
        seat.champion && `champion ${seat.champion}`,
        // Only a count: the other hand is never sent to this page.
        `${plural(seat.handCount, "card")} in hand`,
        seat.kind === "house" ? "house opponent" : m.status === "active" ? (seat.connected ? "online" : "offline") : "",
      ].filter(Boolean);
      $(`#seat-${s}-info`).textContent = bits.join(" · ");
      $(`#seat-${s}-info`).title = seat.champion ? (CHAMPION_TIPS[seat.champion] ?? "") : "";
    }
    // Rebuilt only when it changes: a render per move would detach the mutator a finger is on.
    const ruleset = $("#ruleset");
    const rulesetKey = [m.ruleset, ...m.mutators].join(" ");
    if (ruleset.dataset.key !== rulesetKey) {
      ruleset.dataset.key = rulesetKey;
      ruleset.replaceChildren(
        m.ruleset,
        ...m.mutators.flatMap((mu, i) => [i === 0 ? " (" : ", ", el("abbr", { title: MUTATOR_TIPS[mu] ?? mu, text: mu })]),
        m.mutators.length ? ")" : "",
      );
    }
    $("#last-move").textContent = m.lastMove || "none yet";
    $("#pile").textContent = String(m.pile);
    $("#moves").textContent = `${m.moveCount} of 16`;
    $("#score-a").textContent = `A ${m.score.A}`;
    $("#score-b").textContent = `B ${m.score.B}`;
  }

  function turnText(m: ViewModel, mySeat: Seat | null, offline: boolean) {
    if (offline && m.status === "active") return "Paused: not connected.";
    if (m.status === "waiting") return "Waiting for the second player to join.";
    if (m.status === "finished") return "The game is over.";
    if (mySeat) return m.turn === mySeat ? "Your turn: choose a card, then a square." : `${m.seats[m.turn as Seat]?.name || m.turn}'s turn.`;
    return `${m.turn} to move (${m.seats[m.turn as Seat]?.name || "?"}).`;
  }

  return {
    /** Flips the squares a move captured (the stylesheet leaves it out under prefers-reduced-motion). */
    flip(squaresFlipped: readonly string[]) {
      for (const sq of squaresFlipped) {
        const b = squares.get(sq);
        if (!b) continue;
        b.classList.remove("flip");
        void b.offsetWidth; // restart the animation on a square flipped twice in a row
        b.classList.add("flip");
        setTimeout(() => b.classList.remove("flip"), 700);
      }
    },
    update(m: ViewModel, ctx: ViewContext) {
      const canPlay = Boolean(ctx.mySeat) && m.status === "active" && m.turn === ctx.mySeat && !ctx.pending && !ctx.offline;
      for (const square of SQUARES_TOP_DOWN) drawSquare(m, square, ctx.selected, canPlay);
      drawHand(m, ctx.selected, canPlay);
      drawSide(m, ctx.mySeat);
      const turn = $("#turn");
      const text = turnText(m, ctx.mySeat, ctx.offline);
      // The live region is only written on a change, so screen readers hear each turn once.
      if (turn.textContent !== text) turn.textContent = text;
      turn.classList.toggle("you", canPlay);
      document.body.dataset.status = m.status;
      document.body.dataset.yourTurn = String(canPlay);
      $("#board").classList.toggle("paused", ctx.offline);
      $("#opponent-count").hidden = !ctx.mySeat || m.status !== "active";
      if (ctx.mySeat) $("#opponent-count").textContent = `Opponent holds ${plural(m.seats[other(ctx.mySeat)].handCount, "card")}.`;
    },
  };
}
