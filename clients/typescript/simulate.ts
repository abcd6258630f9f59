/**
 * The rules engine offline: the same pure engine the server runs (src/engine), for a bot to simulate games
 * without a server. Plays random against greedy (the move that captures most) and prints the score. Games are
 * numbered 1..N: under the current rules the engine derives each game's 128-bit seed from its number
 * (docs/RULES.md, "The deal"), so a run deals the same cards every time.
 * Run: npx tsx clients/typescript/simulate.ts [games]
 */
import { apply, legalMovesFor, newGame, resultFor, type GameState, type LegalMove } from "../../src/engine";

/** The move that flips the most cards now, found by trying each on the engine. */
export function greedy(state: GameState): LegalMove {
  const moves = legalMovesFor(state, state.turn);
  let best = moves[0];
  let most = -1;
  for (const m of moves) {
    const r = apply(state, { kind: "place", card: m.card, square: m.square });
    const captures = r.ok ? (r.move?.captures ?? 0) : -1;
    if (captures > most) [best, most] = [m, captures];
  }
  return best;
}

export function playOffline(seed: number): "win" | "loss" | "draw" | null {
  let state = newGame({ ruleset: "classic" }, seed, `offline-${seed}`);
  while (state.status === "active") {
    const moves = legalMovesFor(state, state.turn);
    const m = state.turn === "A" ? greedy(state) : moves[Math.floor(Math.random() * moves.length)];
    const r = apply(state, { kind: "place", card: m.card, square: m.square });
    if (!r.ok) throw new Error(r.detail);
    state = r.state;
  }
  return resultFor(state.winner, "A");
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 20);
  const tally = { win: 0, loss: 0, draw: 0 };
  for (let seed = 1; seed <= games; seed++) {
    const r = playOffline(seed);
    if (r) tally[r]++;
  }
  console.log(`greedy (seat A) against random over ${games} games: ${JSON.stringify(tally)}`);
}
