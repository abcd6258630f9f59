/**
 * Determinization for the house opponent's search: a full state consistent with what one seat can see plus
 * a guess of what it cannot. The other seat's champion card is public knowledge (champions are chosen
 * openly), so it is never part of the guess: `unseenCards` leaves champion cards out, and `determinize`
 * puts the opponent's champion card back into the opponent's hand when it has not been placed yet.
 * A guess of the opponent's hand should therefore hold `view.hands[opponent]` cards minus one while that
 * champion is unplaced (see `opponentChampionInHand`).
 */
import { CELLS, indexOf } from "./board";
import { CATALOGUE } from "./catalogue";
import { cardById, CHAMPIONS } from "./champions";
import { unknownSeed } from "./seed";
import { commitmentOf } from "./setup";
import { notationOf, seatOfPlacement, splitNotation } from "./notation";
import type { Action, GameState, MoveRecord, Seat, SeatView } from "./types";
import { otherSeat } from "./seats";

/** The opponent's champion card id while it is still in their hand (not yet placed by them), else null. */
export function opponentChampionInHand(view: SeatView): string | null {
  const opp = otherSeat(view.seat);
  const id = CHAMPIONS[view.champions[opp]].id;
  const placed = view.history.some((text, i) => seatOfPlacement(view, i) === opp && splitNotation(text)?.card === id);
  return placed ? null : id;
}

/** Catalogue cards the viewer cannot locate: those neither in its hand nor on the board (other hand ∪ pile). */
export function unseenCards(view: SeatView): string[] {
  const seen = new Set<string>([...view.hand.map((c) => c.id), ...view.board.map((c) => c.card)]);
  return CATALOGUE.map((c) => c.id).filter((id) => !seen.has(id));
}

/**
 * A full state matching `view` with the guessed opponent hand and pile (next card first). Seed and salt are
 * unknown to a seat, so the state carries a placeholder seed of its version's form (0, or 32 zeros) and an
 * empty salt; its move records are rebuilt from the public history with the current board and score (the
 * search only reads the latest ones).
 */
export function determinize(view: SeatView, opponentHand: string[], pile: string[]): GameState {
  const opp = otherSeat(view.seat);
  const champ = opponentChampionInHand(view);
  const oppHand = [...opponentHand];
  if (champ && !oppHand.includes(champ)) oppHand.push(champ);
  const board: GameState["board"] = Array.from({ length: CELLS }, () => null);
  for (const c of view.board) board[indexOf(c.square)] = { card: c.card, owner: c.owner };
  const moves: MoveRecord[] = [];
  const actions: Action[] = [];
  view.history.forEach((text, i) => {
    const p = splitNotation(text);
    if (!p) return;
    moves.push({
      n: i + 1,
      seat: seatOfPlacement(view, i),
      card: p.card,
      square: p.square,
      name: cardById(p.card)?.name ?? p.card,
      notation: notationOf(p.card, p.square, p.captures ?? 0),
      captures: p.captures ?? 0,
      score: { ...view.score },
    });
    actions.push({ kind: "place", card: p.card, square: p.square });
  });
  return {
    ruleset: view.ruleset,
    rulesVersion: view.rulesVersion,
    seed: unknownSeed(view.rulesVersion),
    salt: "",
    commitment: view.commitment || commitmentOf(unknownSeed(view.rulesVersion), ""),
    options: { ruleset: view.ruleset, rulesVersion: view.rulesVersion, champions: { ...view.champions } },
    champions: { ...view.champions },
    firstPlayer: view.firstPlayer,
    turn: view.turn,
    board,
    hands: { [view.seat]: view.hand.map((c) => c.id), [opp]: oppHand } as Record<Seat, string[]>,
    pile: [...pile],
    chessTiles: view.chessTiles.map((t) => ({ ...t })),
    mutators: [...view.mutators],
    squareElements: view.squareElements.map((e) => ({ ...e })),
    moves,
    actions,
    status: view.status,
    score: { ...view.score },
    winner: view.winner,
    ...(view.decidedBy ? { decidedBy: view.decidedBy } : {}),
  };
}
