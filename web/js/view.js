// Draws the view model into the game page. The 16 squares are created once and updated in place, so
// keyboard focus stays on the square or card a player is on while patches arrive.
import { $, el } from "./api.js";
import { SQUARES_TOP_DOWN, artOf, cardText, decidedText, other } from "./model.js";

export function createView({ onSquare, onCard }) {
  const boardEl = $("#board");
  const squares = new Map();
  for (const [i, square] of SQUARES_TOP_DOWN.entries()) {
    if (i % 4 === 0) boardEl.append(el("span", { class: "axis", "aria-hidden": "true", text: square[1] }));
    const button = el("button", { type: "button", class: "square", "data-square": square, onclick: () => onSquare(square) });
    squares.set(square, button);
    boardEl.append(button);
  }
  boardEl.append(el("span", { class: "axis" }), ...["a", "b", "c", "d"].map((f) => el("span", { class: "axis", "aria-hidden": "true", text: f })));
  let handKey = "";

  function drawSquare(m, square, selected, canPlay) {
    const b = squares.get(square);
    const cell = m.board.get(square);
    const tile = m.chessTiles.find((t) => t.square === square);
    const element = m.elements.find((t) => t.square === square);
    const lastSquare = /@([a-d][1-4])/.exec(m.lastMove)?.[1];
    const extras = [tile && `${tile.kind} tile`, element && `${element.kind} square`].filter(Boolean).join(", ");
    b.className = ["square", element && `elem-${element.kind}`, cell && `owner-${cell.owner}`, !cell && selected && canPlay && "target", square === lastSquare && "last"].filter(Boolean).join(" ");
    b.setAttribute("aria-label", cell ? `${square}: ${cardText(cell.card)}, owned by ${cell.owner}${extras ? `; ${extras}` : ""}` : `${square}: empty${extras ? `, ${extras}` : ""}`);
    b.setAttribute("aria-disabled", String(Boolean(cell) || !canPlay));
    b.dataset.owner = cell?.owner ?? "";
    const key = `${cell?.card.id ?? ""}|${tile?.kind ?? ""}|${element?.kind ?? ""}`;
    if (b.dataset.key === key) return;
    b.dataset.key = key;
    const parts = [
      cell ? el("img", { src: artOf(cell.card), alt: "" }) : el("span", { text: square }),
      tile ? el("span", { class: "tag", text: tile.kind }) : null,
      element ? el("span", { class: `el el-${element.kind}`, title: `${element.kind} square` }) : null,
    ];
    b.replaceChildren(...parts.filter(Boolean));
  }

  function drawHand(m, selected, canPlay) {
    const section = $("#hand-section");
    section.hidden = !m.hand;
    if (!m.hand) return;
    const key = m.hand.map((c) => c.id).join(",");
    const list = $("#hand");
    if (key !== handKey) {
      const focused = document.activeElement?.dataset?.card;
      handKey = key;
      list.replaceChildren(
        ...m.hand.map((c) =>
          el("li", {}, el("button", { type: "button", class: "card", "data-card": c.id, "aria-label": cardText(c), onclick: () => onCard(c.id) }, el("img", { src: artOf(c), alt: "" }))),
        ),
      );
      if (focused) list.querySelector(`[data-card="${CSS.escape(focused)}"]`)?.focus();
    }
    for (const b of list.querySelectorAll(".card")) {
      b.setAttribute("aria-pressed", String(b.dataset.card === selected));
      b.setAttribute("aria-disabled", String(!canPlay));
    }
  }

  function drawSide(m, mySeat) {
    for (const s of ["A", "B"]) {
      const seat = m.seats[s];
      const who = seat.name || (m.status === "waiting" ? "waiting for a player…" : "?");
      const you = mySeat === s ? " (you)" : "";
      $(`#seat-${s}-name`).textContent = `${who}${you}`;
      const bits = [
        seat.champion && `champion ${seat.champion}`,
        // Only a count: the other hand is never sent to this page.
        `${seat.handCount} card${seat.handCount === 1 ? "" : "s"} in hand`,
        seat.kind === "house" ? "house opponent" : m.status === "active" ? (seat.connected ? "online" : "offline") : "",
      ].filter(Boolean);
      $(`#seat-${s}-info`).textContent = bits.join(" · ");
    }
    $("#ruleset").textContent = m.ruleset + (m.mutators.length ? ` (${m.mutators.join(", ")})` : "");
    $("#last-move").textContent = m.lastMove || "none yet";
    $("#pile").textContent = String(m.pile);
    $("#moves").textContent = `${m.moveCount} of 16`;
    $("#score-a").textContent = `A ${m.score.A}`;
    $("#score-b").textContent = `B ${m.score.B}`;
  }

  function turnText(m, mySeat) {
    if (m.status === "waiting") return "Waiting for the second player to join.";
    if (m.status === "finished") return "The game is over.";
    if (mySeat) return m.turn === mySeat ? "Your turn: choose a card, then a square." : `${m.seats[m.turn]?.name || m.turn}'s turn.`;
    return `${m.turn} to move (${m.seats[m.turn]?.name || "?"}).`;
  }

  function endText(m, mySeat) {
    if (!m.winner) return "No winner: the game was aborted.";
    if (m.winner === "draw") return "Draw.";
    if (mySeat) return m.winner === mySeat ? "You won!" : "You lost.";
    return `${m.seats[m.winner].name || m.winner} (${m.winner}) won.`;
  }

  function drawEnd(m, mySeat, gameId) {
    const end = $("#end");
    end.hidden = m.status !== "finished";
    if (end.hidden) return;
    $("#end-title").textContent = endText(m, mySeat);
    $("#end-detail").textContent = `Final score A ${m.score.A} – B ${m.score.B}; decided by ${decidedText(m.decidedBy)}.`;
    const replay = $("#replay-link");
    replay.hidden = m.decidedBy === "aborted" && m.moveCount === 0;
    replay.href = `/api/v1/games/${encodeURIComponent(gameId)}/replay`;
  }

  return {
    /** ctx: { mySeat, selected, gameId, pending } */
    update(m, ctx) {
      const canPlay = Boolean(ctx.mySeat) && m.status === "active" && m.turn === ctx.mySeat && !ctx.pending;
      for (const square of SQUARES_TOP_DOWN) drawSquare(m, square, ctx.selected, canPlay);
      drawHand(m, ctx.selected, canPlay);
      drawSide(m, ctx.mySeat);
      drawEnd(m, ctx.mySeat, ctx.gameId);
      const turn = $("#turn");
      const text = turnText(m, ctx.mySeat);
      // The live region is only written on a change, so screen readers hear each turn once.
      if (turn.textContent !== text) turn.textContent = text;
      turn.classList.toggle("you", canPlay);
      document.body.dataset.status = m.status;
      document.body.dataset.yourTurn = String(canPlay);
      $("#opponent-count").hidden = !ctx.mySeat;
      if (ctx.mySeat) $("#opponent-count").textContent = `Opponent holds ${m.seats[other(ctx.mySeat)].handCount} cards.`;
    },
  };
}
