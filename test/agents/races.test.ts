/**
 * Two processes serving one challenge: each is a ChallengeService of its own (its own in-process queue)
 * over one shared store, so only the store's conditional updates keep them apart.
 */
import assert from "node:assert/strict";
import { ChallengeService, type ChallengeDeps } from "../../src/services/agents/service";
import type { EmittedEvent } from "../../src/services/events/types";
import { openStore, type ChallengesPort, type Store } from "../../src/store/index";
import { game } from "../store/fixtures";

type Created = Awaited<ReturnType<ChallengeDeps["games"]["create"]>>;

describe("Unit: agent challenges served by two processes at once", () => {
  let store: Store;
  let emitted: EmittedEvent[];
  let gamesMade: number;
  let failCreate: boolean;

  /** A process that only reads challenges, through the given store. */
  const readerDeps = (through: ChallengeDeps["store"] = store): ChallengeDeps => ({
    store: through,
    baseUrl: "http://arena.test",
    emit: (e) => void emitted.push(e),
    players: { profile: async () => Promise.reject(new Error("no profile")) },
    games: { create: async () => Promise.reject(new Error("this process makes no games")) },
  });
  const process = (): ChallengeService =>
    new ChallengeService({
      store,
      baseUrl: "http://arena.test",
      emit: (e) => void emitted.push(e),
      players: { profile: async () => Promise.reject(new Error("no profile")) },
      games: {
        create: async () => {
          if (failCreate) throw new Error("room could not start");
          gamesMade++;
          const id = `g_${gamesMade}`;
          await store.games.createGame(game(id, { opponent: "house", status: "active" }));
          return { game: { id }, seat: "A", playerToken: `pt_${gamesMade}`, player: { id: `P${gamesMade}` }, urls: {} } as unknown as Created;
        },
      },
    });

  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
    emitted = [];
    gamesMade = 0;
    failCreate = false;
  });
  afterEach(() => store.close());

  async function acceptedChallenge(one: ChallengeService): Promise<{ token: string; gameId: string }> {
    const { token } = await one.create({ agent: { name: "bot" }, level: "easy", ruleset: "classic", expiresInSeconds: 600 });
    const accepted = await one.accept(token, {});
    return { token, gameId: accepted.game.id };
  }

  async function finish(gameId: string, token: string): Promise<void> {
    await store.games.updateGameIf(gameId, {}, { status: "finished", winner: "A", score: { A: 9, B: 7 }, decidedBy: "board_full", challengeToken: token });
  }

  it("lets exactly one of two racing accepts start a game", async () => {
    const [p1, p2] = [process(), process()];
    const { token } = await p1.create({ agent: { name: "bot" }, level: "easy", ruleset: "classic", expiresInSeconds: 600 });
    const outcomes = await Promise.allSettled([p1.accept(token, {}), p2.accept(token, {})]);
    assert.equal(outcomes.filter((o) => o.status === "fulfilled").length, 1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    assert.equal(refused.reason.code, "already_joined");
    assert.equal(gamesMade, 1);
    assert.equal((await store.challenges.getChallenge(token))?.gameId, "g_1");
  });

  it("opens the challenge again when its game could not be made", async () => {
    const p1 = process();
    const { token } = await p1.create({ agent: { name: "bot" }, level: "easy", ruleset: "classic", expiresInSeconds: 600 });
    failCreate = true;
    await assert.rejects(p1.accept(token, {}), /room could not start/);
    assert.equal((await store.challenges.getChallenge(token))?.status, "open");
    failCreate = false;
    assert.equal((await p1.accept(token, {})).game.id, "g_1");
  });

  it("fires challenge.played once when both processes settle the finished game", async () => {
    const [p1, p2] = [process(), process()];
    const { token, gameId } = await acceptedChallenge(p1);
    await finish(gameId, token);
    const record = (await store.games.getGame(gameId))!;
    await Promise.all([p1.onGameFinished(record), p2.onGameFinished(record), p1.onGameFinished(record)]);
    assert.equal(emitted.filter((e) => e.name === "challenge.played").length, 1);
    assert.equal((await store.challenges.getChallenge(token))?.status, "played");
  });

  it("accepts one of two identical result reports sent to different processes and refuses the other", async () => {
    const [p1, p2] = [process(), process()];
    const { token, gameId } = await acceptedChallenge(p1);
    await finish(gameId, token);
    const report = { token, gameId, winner: "A" as const, score: { A: 9, B: 7 } };
    const outcomes = await Promise.allSettled([p1.report(report), p2.report(report)]);
    assert.equal(outcomes.filter((o) => o.status === "fulfilled").length, 1);
    assert.equal((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason.code, "conflict");
    assert.equal(emitted.filter((e) => e.name === "challenge.played").length, 1);
  });

  it("never marks a challenge expired after another process accepted it", async () => {
    const p1 = process();
    const { token } = await p1.create({ agent: { name: "bot" }, level: "easy", ruleset: "classic", expiresInSeconds: 600 });
    // A second process whose clock is past expiry reads the challenge while it is open, and writes only
    // after the first process's accept went through.
    let accepted!: () => void;
    const acceptDone = new Promise<void>((r) => (accepted = r));
    const slowChallenges = new Proxy(store.challenges, {
      get(target, key: keyof ChallengesPort) {
        if (key === "getChallenge")
          return async (t: string) => {
            const c = await target.getChallenge(t);
            await acceptDone;
            return c;
          };
        const v: unknown = Reflect.get(target, key);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const slowReads = { challenges: slowChallenges, games: store.games };
    const late = new ChallengeService({ ...readerDeps(slowReads), now: () => new Date(Date.now() + 3_600_000) });
    const reading = late.get(token);
    await p1.accept(token, {});
    accepted();
    const seen = (await reading).status;
    const stored = (await store.challenges.getChallenge(token))!;
    assert.equal(stored.status, "playing");
    assert.equal(stored.gameId, "g_1");
    assert.equal(seen, "playing");
    // Whatever the late reader saw, the game's finish still settles the challenge.
    await finish("g_1", token);
    await p1.onGameFinished((await store.games.getGame("g_1"))!);
    assert.equal((await store.challenges.getChallenge(token))!.status, "played");
    assert.equal(emitted.filter((e) => e.name === "challenge.played").length, 1);
  });

  it("stores expiry once the deadline has passed and the challenge is still open", async () => {
    const p1 = process();
    const { token } = await p1.create({ agent: { name: "bot" }, level: "easy", ruleset: "classic", expiresInSeconds: 600 });
    const late = new ChallengeService({ ...readerDeps(), now: () => new Date(Date.now() + 3_600_000) });
    assert.equal((await late.get(token)).status, "expired");
    assert.equal((await store.challenges.getChallenge(token))!.status, "expired");
    await assert.rejects(p1.accept(token, {}), (e: { code?: string }) => e.code === "code_expired");
  });
});
