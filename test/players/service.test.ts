import { strict as assert } from "node:assert";
import { PlayerService } from "../../src/players/service";
import { openStore, type GameRecord, type Store } from "../../src/store";

describe("Unit: player results", () => {
  let store: Store;
  let players: PlayerService;
  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
    players = new PlayerService(store, "http://arena.test");
  });
  afterEach(async () => store.close());

  async function finishedGame(winner: GameRecord["winner"]): Promise<GameRecord> {
    const a = (await players.resolve(undefined, "Ann")).player;
    const b = (await players.resolve(undefined, "Bob")).player;
    const at = new Date().toISOString();
    return {
      id: "g_test", ruleset: "classic", opponent: "friend", public: true, turnSeconds: 120, seed: 1, salt: "s", commitment: "c",
      status: "finished", moveCount: 16, score: { A: 9, B: 7 }, winner, decidedBy: "board_full",
      seats: { A: { playerId: a.id, name: a.name, kind: "human", champion: "knight" }, B: { playerId: b.id, name: b.name, kind: "human", champion: "herald" } },
      createdAt: at, updatedAt: at,
    };
  }

  it("applies a finished game to both profiles: games, form, champion and ratings", async () => {
    const game = await finishedGame("A");
    await players.recordResult(game);
    const a = (await store.getPlayer(game.seats.A!.playerId))!;
    const b = (await store.getPlayer(game.seats.B!.playerId))!;
    assert.deepEqual([a.games, a.wins, a.recentForm], [1, 1, "W"]);
    assert.deepEqual([b.games, b.losses, b.recentForm], [1, 1, "L"]);
    assert.ok(a.rating > 1500 && b.rating < 1500);
    assert.deepEqual(a.champions.knight, { games: 1, wins: 1 });
  });

  it("applies a game only once when its end is replayed after a restart", async () => {
    const game = await finishedGame("draw");
    await players.recordResult(game);
    const once = await store.getPlayer(game.seats.A!.playerId);
    await players.recordResult(game);
    const twice = await store.getPlayer(game.seats.A!.playerId);
    assert.equal(twice!.games, 1);
    assert.equal(twice!.rating, once!.rating);
    assert.equal(twice!.recentForm, "D");
  });

  it("does not rate an aborted game", async () => {
    const game = { ...(await finishedGame(null)), decidedBy: "aborted" as const };
    await players.recordResult(game);
    assert.equal((await store.getPlayer(game.seats.A!.playerId))!.games, 0);
  });
});
