/**
 * Starter bot: registers (or reuses TILE_ARENA_KEY), plays one game against the house with a random legal
 * move each turn, and prints the result. Run: npx tsx clients/typescript/random-bot.ts
 * Environment: TILE_ARENA_URL (default http://localhost:2567), TILE_ARENA_KEY (a bk_... key), LEVEL.
 */
import { randomMove, TileArena } from "./client";

async function main() {
  const arena = new TileArena(process.env.TILE_ARENA_URL ?? "http://localhost:2567", process.env.TILE_ARENA_KEY);
  if (!arena.key) {
    const { bot, key } = await arena.registerBot("Random starter");
    console.log(`registered ${bot.id}; keep the key: TILE_ARENA_KEY=${key}`);
  }
  const seated = await arena.createGame({ opponent: "house", level: (process.env.LEVEL as "easy") ?? "easy" });
  console.log(`game ${seated.game.id}, seat ${seated.seat}`);
  const end = await arena.play(seated, randomMove);
  console.log(`result: ${end.result} (${end.decision?.summary}); replay: ${end.urls.replayPage}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
