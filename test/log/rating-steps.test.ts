/**
 * The one rating step (src/services/players/rating.ts, rateSeat) against what the server records: every rated seat's
 * kept step, recomputed from its before-values, the opponent's and the score, gives exactly the rating the
 * server stored; both seats of a game see each other's pre-game values, even when one seat's write is retried
 * after the other's went in; a house opponent is its level's fixed rating; steps chain by the profile's points.
 */
import { strict as assert } from "node:assert";
import { startEngine } from "../../src/services/games/context";
import { DEFAULT_RATING, houseRated, rateGame, rateSeat } from "../../src/services/players/rating";
import { PlayerService } from "../../src/services/players/service";
import { openStore, type GameRecord, type PlayerRecord, type RatingStep, type Store } from "../../src/store";

describe("Unit: the shared rating step and the steps the server records", () => {
  let store: Store;
  let players: PlayerService;
  let ann: PlayerRecord;
  let bob: PlayerRecord;
  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
    players = new PlayerService(store, "http://arena.test");
    ann = (await players.resolve(undefined, "Ann")).player;
    bob = (await players.resolve(undefined, "Bob")).player;
  });
  afterEach(async () => store.close());

  function game(id: string, winner: GameRecord["winner"], house?: "easy" | "hard"): GameRecord {
    const at = new Date().toISOString();
    return {
      id,
      ruleset: "classic",
      opponent: house ? "house" : "friend",
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
      finishedAt: at,
      ...(house ? { level: house } : {}),
      seats: {
        A: { playerId: ann.id, name: ann.name, kind: "human", champion: "knight" },
        B: house ? { playerId: "house", name: "House", kind: "house" } : { playerId: bob.id, name: bob.name, kind: "human", champion: "herald" },
      },
      createdAt: at,
      updatedAt: at,
    };
  }

  /** The point a game left a player's history, with its step. */
  async function pointOf(gameId: string, playerId: string) {
    const [change] = await store.ratings.ratingChanges(gameId, [playerId]);
    assert.ok(change?.after.step, `a kept step for ${playerId} in ${gameId}`);
    return change.after as typeof change.after & { step: RatingStep };
  }

  /** The step recomputed with the shared function is what the server stored, in the history and the profile. */
  async function assertRecomputes(gameId: string, playerId: string): Promise<RatingStep> {
    const point = await pointOf(gameId, playerId);
    const again = rateSeat(point.step.before, point.step.opponent, point.step.score);
    assert.deepEqual(again, { rating: point.rating, rd: point.rd, volatility: point.step.volatility });
    const profile = (await store.players.getPlayer(playerId))!;
    assert.deepEqual(again, { rating: profile.rating, rd: profile.rd, volatility: profile.volatility });
    return point.step;
  }

  it("records each seat's step so the shared step gives the stored rating, and chains the steps", async () => {
    const first = game("g_1", "A");
    await players.recordResult(first, startEngine(first).champions);
    const a1 = await assertRecomputes("g_1", ann.id);
    const b1 = await assertRecomputes("g_1", bob.id);
    assert.deepEqual([a1.score, b1.score], [1, 0]);
    assert.deepEqual(a1.before, DEFAULT_RATING);
    assert.deepEqual(a1.opponent, b1.before, "each seat is rated against the other's pre-game values");
    assert.equal(a1.previous, null, "a first rated game");
    // The same numbers as rating both seats at once.
    assert.deepEqual(rateGame(a1.before, b1.before, 1), [rateSeat(a1.before, a1.opponent, 1), rateSeat(b1.before, b1.opponent, 0)]);

    const second = game("g_2", "draw");
    await players.recordResult(second, startEngine(second).champions);
    const a2 = await assertRecomputes("g_2", ann.id);
    assert.equal(a2.score, 0.5);
    assert.deepEqual(a2.previous, { gameId: "g_1", n: 1 });
    const p1 = await pointOf("g_1", ann.id);
    assert.deepEqual(a2.before, { rating: p1.rating, rd: p1.rd, volatility: p1.step.volatility }, "the step starts where the previous one left");
  });

  it("rates against a house player at its level's fixed rating and names the level", async () => {
    const g = game("g_house", "B", "hard");
    await players.recordResult(g, startEngine(g).champions);
    const step = await assertRecomputes("g_house", ann.id);
    assert.equal(step.house, "hard");
    assert.deepEqual(step.opponent, houseRated("hard"));
    assert.equal(step.score, 0);
  });

  it("rates a seat whose write is retried against the other seat's pre-game values", async () => {
    // Bob's write misses once (another process changed his profile meanwhile); Ann's goes in.
    const real = store.players.updatePlayersIf.bind(store.players);
    let missed = false;
    store.players.updatePlayersIf = async (updates) => {
      if (missed) return real(updates);
      missed = true;
      const wrote = await real(updates.filter((u) => u.id !== bob.id));
      return updates.map((u) => (u.id === bob.id ? false : wrote.shift()!));
    };
    const g = game("g_retry", "A");
    await players.recordResult(g, startEngine(g).champions);
    assert.ok(missed);
    const a = await assertRecomputes("g_retry", ann.id);
    const b = await assertRecomputes("g_retry", bob.id);
    assert.deepEqual(b.opponent, a.before, "Bob is rated against Ann before the game, not after it");
  });
});
