// One view model for the game page, built either from the live room state (WebSocket) or from the REST
// game record (a finished game whose room has been released). The renderer only reads this model.

export const SQUARES_TOP_DOWN = [4, 3, 2, 1].flatMap((rank) => ["a", "b", "c", "d"].map((file) => `${file}${rank}`));

const seatOf = (s) => ({
  name: s?.name || "",
  kind: s?.kind || "human",
  champion: s?.champion || "",
  handCount: s?.handCount ?? 0,
  connected: Boolean(s?.connected),
});

const cardOf = (c) => ({ id: c.id, name: c.name, element: c.element, n: c.n, e: c.e, s: c.s, w: c.w, champion: c.champion || "" });

/** From the Colyseus schema state; `mySeat` picks the hand (the view only ever holds the own one). */
export function fromRoomState(state, mySeat) {
  const board = new Map();
  state.board.forEach((cell, square) => board.set(square, { owner: cell.owner, card: cardOf(cell.card) }));
  const hand = mySeat ? state.hands.get(mySeat) : undefined;
  return {
    status: state.status,
    turn: state.turn,
    ruleset: state.ruleset,
    moveCount: state.moveCount,
    lastMove: state.lastMove,
    pile: state.pile,
    score: { A: state.scoreA, B: state.scoreB },
    winner: state.winner || null,
    decidedBy: state.decidedBy,
    turnDeadline: state.turnDeadline || 0,
    seats: { A: seatOf(state.seats.get("A")), B: seatOf(state.seats.get("B")) },
    board,
    chessTiles: [...state.chessTiles].map((t) => ({ square: t.square, kind: t.kind })),
    elements: [...state.elements].map((t) => ({ square: t.square, kind: t.kind })),
    mutators: [...state.mutators],
    hand: hand ? [...hand.cards].map(cardOf) : null,
  };
}

/** From GET /games/{id}; `championCards` maps champion card ids (K1..) to champion names for the art. */
export function fromRecord(r, championCards) {
  const board = new Map();
  for (const c of r.board ?? []) {
    board.set(c.square, {
      owner: c.owner,
      card: { id: c.card, name: c.name, element: c.element, ...c.ranks, champion: championCards.get(c.card) || "" },
    });
  }
  const seat = (s) => ({ name: r.players?.[s]?.name || "", kind: r.players?.[s]?.kind || "human", champion: r.champions?.[s] || "", handCount: r.hands?.[s] ?? 0, connected: false });
  return {
    status: r.status,
    turn: r.turn || "",
    ruleset: r.ruleset,
    moveCount: r.moveCount,
    lastMove: r.moves?.at(-1) || "",
    pile: r.pile ?? 0,
    score: r.score,
    winner: r.winner ?? null,
    decidedBy: r.decidedBy || "",
    turnDeadline: r.turnDeadline ? Date.parse(r.turnDeadline) : 0,
    seats: { A: seat("A"), B: seat("B") },
    board,
    chessTiles: (r.chessTiles ?? []).map((t) => ({ square: t.square, kind: t.piece })),
    elements: (r.squareElements ?? []).map((t) => ({ square: t.square, kind: t.element })),
    mutators: r.mutators ?? [],
    hand: null,
  };
}

/** Card art from the generated assets: champions have their own pictures. */
export const artOf = (card) => (card.champion ? `/assets/champions/${card.champion}.svg` : `/assets/cards/${card.id}.svg`);

export const cardText = (c) => `${c.name}${c.champion ? ` (champion: ${c.champion})` : ""}, ${c.element}, north ${c.n}, east ${c.e}, south ${c.s}, west ${c.w}`;

export const other = (seat) => (seat === "A" ? "B" : "A");

const DECIDED = { board_full: "the board is full", resignation: "resignation", timeout: "the turn clock ran out", aborted: "the game was aborted" };
export const decidedText = (d) => DECIDED[d] || d || "";
