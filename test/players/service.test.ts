import { strict as assert } from "node:assert";
import { startEngine } from "../../src/services/games/context";
import { PlayerService } from "../../src/services/players/service";
import { openStore, type GameRecord, type PlayersPort, type Store } from "../../src/store";

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
      id: "g_test",
      ruleset: "classic",
      opponent: "friend",
      public: true,
      turnSeconds: 120,
      seed: 1,
      salt: "s",
      commitment: "c",
      status: "finished",
      moveCount: 16,
      score: { A: 9, B: 7 },
      winner,
      decidedBy: "board_full",
      seats: { A: { playerId: a.id, name: a.name, kind: "human", champion: "knight" }, B: { playerId: b.id, name: b.name, kind: "human", champion: "herald" } },
      createdAt: at,
      updatedAt: at,
    };
  }

  it("applies a finished game to both profiles: games, form, champion and ratings", async () => {
    const game = await finishedGame("A");
    await players.recordResult(game, startEngine(game).champions);
    const a = (await store.players.getPlayer(game.seats.A!.playerId))!;
    const b = (await store.players.getPlayer(game.seats.B!.playerId))!;
    assert.deepEqual([a.games, a.wins, a.recentForm], [1, 1, "W"]);
    assert.deepEqual([b.games, b.losses, b.recentForm], [1, 1, "L"]);
    assert.ok(a.rating > 1500 && b.rating < 1500);
    assert.deepEqual(a.champions.knight, { games: 1, wins: 1 });
  });

  it("keeps one rating history point per rated game, with the rating it left, and none for an unrated one", async () => {
    const game = { ...(await finishedGame("A")), finishedAt: "2026-01-02T03:04:05.000Z" };
    await players.recordResult(game, startEngine(game).champions);
    await players.recordResult(game, startEngine(game).champions);
    const a = (await store.players.getPlayer(game.seats.A!.playerId))!;
    const history = await players.ratingHistory(a.id, 0, 10);
    assert.deepEqual(
      history.ratings.map((p) => [p.n, p.gameId, p.at, p.rating, p.provisional]),
      [[1, "g_test", game.finishedAt, Math.round(a.rating), true]],
    );
    assert.equal(history.nextAfter, null);
    // Profiles made from one address the same day: counted, not rated (integrity.ts), so no point.
    const b = game.seats.B!.playerId;
    await store.players.updatePlayer(a.id, { createdFrom: "same" });
    await store.players.updatePlayer(b, { createdFrom: "same" });
    const again = { ...game, id: "g_test2" };
    await players.recordResult(again, startEngine(again).champions);
    assert.equal((await store.players.getPlayer(a.id))!.games, 2);
    assert.deepEqual(
      (await players.ratingHistory(a.id, 0, 10)).ratings.map((p) => p.gameId),
      ["g_test"],
    );
    await assert.rejects(players.ratingHistory("P-NOBODY", 0, 10), /no player/);
  });

  it("applies a game only once when its end is replayed after a restart", async () => {
    const game = await finishedGame("draw");
    await players.recordResult(game, startEngine(game).champions);
    const once = await store.players.getPlayer(game.seats.A!.playerId);
    await players.recordResult(game, startEngine(game).champions);
    const twice = await store.players.getPlayer(game.seats.A!.playerId);
    assert.equal(twice!.games, 1);
    assert.equal(twice!.rating, once!.rating);
    assert.equal(twice!.recentForm, "D");
  });

  it("reads each profile once and counts the champion each seat played with, the drawn one for a seat that chose none", async () => {
    const chosen = await finishedGame("B");
    const game: GameRecord = { ...chosen, seats: { A: chosen.seats.A, B: { ...chosen.seats.B!, champion: undefined } } };
    const drawn = startEngine(game).champions.B;
    const reads: string[] = [];
    const counted = new PlayerService(
      {
        communities: store.communities,
        ratings: store.ratings,
        players: over(store.players, { getPlayer: (id: string) => (reads.push(id), store.players.getPlayer(id)) }),
      },
      "http://arena.test",
    );
    await counted.recordResult(game, startEngine(game).champions);
    assert.deepEqual([...reads].sort(), [game.seats.A!.playerId, game.seats.B!.playerId].sort());
    const b = (await store.players.getPlayer(game.seats.B!.playerId))!;
    assert.deepEqual(b.champions[drawn], { games: 1, wins: 1 });
  });

  it("stores both seats' results in one write", async () => {
    const game = await finishedGame("B");
    const writes: number[] = [];
    const counted = new PlayerService(
      {
        communities: store.communities,
        ratings: store.ratings,
        players: over(store.players, {
          updatePlayersIf: (u) => (writes.push(u.length), store.players.updatePlayersIf(u)),
          updatePlayerIf: () => assert.fail("one seat written alone"),
        }),
      },
      "http://arena.test",
    );
    await counted.recordResult(game, startEngine(game).champions);
    assert.deepEqual(writes, [2]);
    const [a, b] = [(await store.players.getPlayer(game.seats.A!.playerId))!, (await store.players.getPlayer(game.seats.B!.playerId))!];
    assert.deepEqual([a.losses, b.wins], [1, 1]);
  });

  it("does not rate an aborted game", async () => {
    const game = { ...(await finishedGame(null)), decidedBy: "aborted" as const };
    await players.recordResult(game, startEngine(game).champions);
    assert.equal((await store.players.getPlayer(game.seats.A!.playerId))!.games, 0);
  });

  it("keeps both results when two games of one player finish at once on two processes", async () => {
    const first = await finishedGame("A");
    const other = (await players.resolve(undefined, "Cy")).player;
    const second: GameRecord = { ...first, id: "g_second", seats: { ...first.seats, B: { playerId: other.id, name: other.name, kind: "human" } } };
    // Two services over one store: only the store's conditional update keeps their writes apart.
    const elsewhere = new PlayerService(store, "http://arena.test");
    await Promise.all([players.recordResult(first, startEngine(first).champions), elsewhere.recordResult(second, startEngine(second).champions)]);
    const a = (await store.players.getPlayer(first.seats.A!.playerId))!;
    assert.deepEqual([a.games, a.wins, a.recentForm], [2, 2, "WW"]);
    assert.deepEqual([...(a.ratedGames ?? [])].sort(), ["g_second", "g_test"]);
    assert.deepEqual(a.champions.knight, { games: 2, wins: 2 });
  });

  it("makes one account of a guest claimed twice at once and refuses the other claim", async () => {
    const { player, secret } = await players.resolve(undefined, "Ann");
    const elsewhere = new PlayerService(store, "http://arena.test");
    const outcomes = await Promise.allSettled([players.claim(player.id, { secret: secret! }), elsewhere.claim(player.id, { secret: secret! })]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(won.length, 1);
    assert.equal((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason.code, "conflict");
    const accounts = (await store.players.rankPlayers(undefined, 100, 0)).filter((p) => p.isAccount);
    assert.equal(accounts.length, 1);
    assert.equal((await store.players.getPlayer(player.id))!.movedTo, accounts[0].id);
  });
});

/** The port with some of its methods replaced; the others are the port's own. */
function over(port: PlayersPort, methods: Partial<PlayersPort>): PlayersPort {
  return Object.assign(Object.create(port) as PlayersPort, methods);
}
