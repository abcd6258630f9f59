/**
 * Starter bot, greedy: like random-bot.ts, but each turn it plays the move that flips the most cards by the
 * basic rule. Run: npx tsx clients/typescript/greedy-bot.ts (same environment as random-bot.ts).
 */
import { greedyMove, TileArena } from "./client";

async function main() {
  const arena = new TileArena(process.env.TILE_ARENA_URL ?? "http://localhost:2567", process.env.TILE_ARENA_KEY);
  if (!arena.key) {
    const { bot, key } = await arena.registerBot("Greedy starter");
    console.log(`registered ${bot.id}; keep the key: TILE_ARENA_KEY=${key}`);
  }
  const seated = await arena.createGame({ opponent: "house", level: (process.env.LEVEL as "easy") ?? "easy" });
  console.log(`game ${seated.game.id}, seat ${seated.seat}`);
  const end = await arena.play(seated, greedyMove);
  console.log(`result: ${end.result} (${end.decision?.summary}); replay: ${end.urls.replayPage}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
