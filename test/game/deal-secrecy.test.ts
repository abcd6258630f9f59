/**
 * The deal is secret to the seats. A seat sees its own hand, the chess tiles and who moves first; under rules
 * versions 1-3 that is enough to find the seed by trying seeds (and so to read the other hand and the pile),
 * under version 4 it is not. The scan here is the one a seat would run: deal every candidate seed and keep those
 * whose deal shows the seat what it sees.
 */
import { strict as assert } from "node:assert";
import { createHash, createHmac } from "node:crypto";
import {
  buildReplay,
  CATALOGUE,
  commitmentOf,
  legalMoves,
  newGame,
  numberedSeed,
  seedProblem,
  verifyReplay,
  type GameState,
  type RulesVersion,
  type Seat,
  type Seed,
} from "../../src/engine";
import { DEAL_LABEL, dealWords, uniformFrom } from "../../src/engine/seed";
import { newSeed } from "../../src/shared/secrets";
import { dealSeed, playMatchGame } from "../../src/services/ai";
import { play } from "./helpers";

const other = (s: Seat): Seat => (s === "A" ? "B" : "A");
const CARD_IDS = new Set(CATALOGUE.map((c) => c.id));

/** What a seat knows of the deal at its first turn, as a key: its seat, the first mover, the tiles, its hand. */
const viewKey = (g: GameState, seat: Seat) => JSON.stringify([seat, g.firstPlayer, g.chessTiles, g.hands[seat]]);

/** The dealt catalogue cards of a seat (its champion is public). */
const dealtCards = (g: GameState, seat: Seat) => g.hands[seat].filter((c) => CARD_IDS.has(c));

/** Deals every candidate under `version` and answers, per target key, the candidates whose deal matches it. */
function scan(version: RulesVersion, candidates: Iterable<Seed>, targets: ReadonlySet<string>): Map<string, GameState[]> {
  const found = new Map<string, GameState[]>();
  for (const seed of candidates) {
    const g = newGame({ ruleset: "classic", rulesVersion: version }, seed, "");
    for (const seat of ["A", "B"] as const) {
      const key = viewKey(g, seat);
      if (targets.has(key)) found.set(key, [...(found.get(key) ?? []), g]);
    }
  }
  return found;
}

/** Integers 0..n-1, as a seat scanning a version 1-3 game would try them. */
function* integers(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}
/** The same small values as version 4 seeds (32 hex digits, zero-padded). */
function* smallHex(n: number): Generator<string> {
  for (let i = 0; i < n; i++) yield i.toString(16).padStart(32, "0");
}
/** Random 128-bit guesses. */
function* guesses(n: number): Generator<string> {
  for (let i = 0; i < n; i++) yield newSeed();
}
/** Fixed version 4 seeds of this test, so the statistics below are reproducible (not numberedSeed's). */
const fixedSeed = (i: number) => createHash("sha256").update(`deal-secrecy/${i}`).digest("hex").slice(0, 32);
/** Fixed integer seeds below 2^14, spread out. */
const smallSeed = (i: number) => (i * 2654435761) % 2 ** 14;

const BUDGET = 2 ** 14;

describe("Unit: the deal is secret to the seats (rules version 4)", function () {
  this.timeout(60_000);

  describe("the scan a seat would run", () => {
    it("finds the seed of a version 3 game whose seed is small, and with it the other hand and the pile", () => {
      const games = [1, 2, 3, 4].map((i) => newGame({ ruleset: "classic", rulesVersion: 3 }, smallSeed(i), "secret-salt"));
      const seats = games.map((g, i): Seat => (i % 2 === 0 ? g.firstPlayer : other(g.firstPlayer)));
      const found = scan(3, integers(BUDGET), new Set(games.map((g, i) => viewKey(g, seats[i]))));
      games.forEach((g, i) => {
        const matches = found.get(viewKey(g, seats[i])) ?? [];
        assert.deepEqual(
          matches.map((m) => m.seed),
          [g.seed],
          `game ${i}: the scan names the seed`,
        );
        assert.deepEqual(matches[0].hands[other(seats[i])], g.hands[other(seats[i])], "and reads the other hand");
        assert.deepEqual(matches[0].pile, g.pile, "and the draw order");
      });
    });

    it("finds nothing for version 4 games within the same budget: small values and random guesses", () => {
      const games = [1, 2, 3, 4].map(() => newGame({ ruleset: "classic", rulesVersion: 4 }, newSeed(), "secret-salt"));
      const targets = new Set(games.flatMap((g) => [viewKey(g, "A"), viewKey(g, "B")]));
      for (const g of games) assert.equal(seedProblem(4, g.seed), null);
      assert.equal(scan(4, smallHex(BUDGET), targets).size, 0, "no small value deals any of the games");
      assert.equal(scan(4, guesses(BUDGET / 4), targets).size, 0, "no random guess does");
      // The game's seed itself does: the scan would find it if it were among the candidates.
      assert.equal(scan(4, [games[0].seed], targets).size, 2);
    });
  });

  describe("a seat's guess at the other hand", () => {
    /**
     * The seat's best guess: the other hand of a seed the scan finds with the seat's view (within a budget), else
     * the first unseen cards in catalogue order. Answers the cards guessed right and, for chance, the mean and
     * variance of a uniform guess's hits (hypergeometric).
     */
    function guessOtherHands(version: RulesVersion, games: GameState[], candidates: Iterable<Seed>) {
      const seats = games.map((g, i): Seat => (i % 2 === 0 ? g.firstPlayer : other(g.firstPlayer)));
      const found = scan(version, candidates, new Set(games.map((g, i) => viewKey(g, seats[i]))));
      let hits = 0,
        mean = 0,
        variance = 0;
      games.forEach((g, i) => {
        const seat = seats[i];
        const hidden = dealtCards(g, other(seat));
        const seen = new Set(g.hands[seat]);
        const unseen = CATALOGUE.map((c) => c.id).filter((id) => !seen.has(id));
        const match = found.get(viewKey(g, seat))?.[0];
        const guess = match ? dealtCards(match, other(seat)) : unseen.slice(0, hidden.length);
        hits += guess.filter((c) => hidden.includes(c)).length;
        const N = unseen.length,
          K = hidden.length,
          n = guess.length;
        mean += (n * K) / N;
        variance += ((n * K) / N) * ((N - K) / N) * ((N - n) / (N - 1));
      });
      return { hits, total: games.reduce((t, g, i) => t + dealtCards(g, other(seats[i])).length, 0), mean, sd: Math.sqrt(variance) };
    }

    it("reads every hidden card of version 3 games with small seeds", () => {
      const games = Array.from({ length: 120 }, (_, i) => newGame({ ruleset: "classic", rulesVersion: 3 }, smallSeed(i + 10), "s"));
      const r = guessOtherHands(3, games, integers(BUDGET));
      assert.equal(r.hits, r.total);
      assert.ok(r.hits > r.mean + 20 * r.sd, "far above chance");
    });

    it("does no better than chance on version 4 games", () => {
      const games = Array.from({ length: 600 }, (_, i) => newGame({ ruleset: "classic", rulesVersion: 4 }, fixedSeed(i), "s"));
      const r = guessOtherHands(4, games, smallHex(BUDGET / 4));
      // Within 4 standard deviations of a uniform guess (about 1 in 15,000 for a fair deal).
      assert.ok(Math.abs(r.hits - r.mean) <= 4 * r.sd, `${r.hits} cards guessed right of ${r.total}; chance ${r.mean.toFixed(1)} ± ${r.sd.toFixed(1)}`);
    });
  });

  describe("the version 4 generator", () => {
    it("deals the same game from the same seed and another from another seed", () => {
      const seed = fixedSeed(1);
      assert.deepEqual(newGame({ ruleset: "mutators" }, seed, "x"), newGame({ ruleset: "mutators" }, seed, "x"));
      const a = newGame({ ruleset: "classic" }, seed, "x");
      const b = newGame({ ruleset: "classic" }, fixedSeed(2), "x");
      assert.notDeepEqual([a.hands, a.pile], [b.hands, b.pile]);
      // The salt is not part of the deal, only of the commitment.
      assert.deepEqual(newGame({ ruleset: "classic" }, seed, "y").pile, a.pile);
      assert.equal(a.commitment, commitmentOf(seed, "x"));
      assert.equal(a.commitment, createHash("sha256").update(`${seed}:x`).digest("hex"));
    });

    it("reads its words from HMAC-SHA-256(seed, label || counter), big-endian, as docs/RULES.md says", () => {
      const seed = "000102030405060708090a0b0c0d0e0f";
      const block = (i: number) => {
        const msg = Buffer.concat([Buffer.from("tile-arena/deal/v4", "ascii"), Buffer.from([0, 0, 0, i])]);
        return createHmac("sha256", Buffer.from(seed, "hex")).update(msg).digest();
      };
      const expected = [block(0), block(1)].flatMap((b) => Array.from({ length: 8 }, (_, k) => b.readUInt32BE(4 * k)));
      const next = dealWords(seed);
      assert.deepEqual(
        Array.from({ length: 16 }, () => next()),
        expected,
      );
      assert.equal(DEAL_LABEL, "tile-arena/deal/v4");
    });

    it("draws integers in a range without modulo bias: a word in the top partial range is thrown away", () => {
      // For n = 3, 2^32 mod 3 = 1: the word 2^32 - 1 would make 0 more likely than 1 and 2, so it is skipped.
      const words = [2 ** 32 - 1, 7, 2 ** 32 - 2];
      const draw = uniformFrom(() => words.shift()!);
      assert.equal(draw(0, 2), 7 % 3);
      assert.equal(draw(10, 12), 10 + ((2 ** 32 - 2) % 3));
      assert.equal(words.length, 0);
      // A range of one value still reads a word (every draw reads at least one).
      const one = [5];
      assert.equal(uniformFrom(() => one.shift()!)(4, 4), 4);
      assert.equal(one.length, 0);
    });

    it("gives each value of a range its share (chi-square on a fixed stream)", () => {
      // Critical values of chi-square at p = 0.001 for n - 1 degrees of freedom.
      const critical: Record<number, number> = { 2: 10.83, 3: 13.82, 5: 18.47, 6: 20.52, 42: 70.7 };
      const draw = uniformFrom(dealWords(fixedSeed(99)));
      for (const n of [2, 3, 5, 6, 42]) {
        const draws = 2000 * n;
        const counts = new Array<number>(n).fill(0);
        for (let i = 0; i < draws; i++) counts[draw(0, n - 1)]++;
        const expected = draws / n;
        const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
        assert.ok(chi2 < critical[n], `n = ${n}: chi-square ${chi2.toFixed(1)}`);
      }
    });

    it('deals what a re-implementation written from docs/RULES.md ("The deal") deals', () => {
      /** The deal of docs/RULES.md from node:crypto alone: words of HMAC-SHA-256 blocks, rejection sampling. */
      function dealFromTheRules(seed: string, ruleset: "classic" | "mutators") {
        const words: number[] = [];
        let block = 0;
        const draw = (lo: number, hi: number) => {
          const n = hi - lo + 1;
          for (;;) {
            if (words.length === 0) {
              const counter = Buffer.alloc(4);
              counter.writeUInt32BE(block++);
              const d = createHmac("sha256", Buffer.from(seed, "hex"))
                .update(Buffer.concat([Buffer.from("tile-arena/deal/v4"), counter]))
                .digest();
              for (let k = 0; k < 32; k += 4) words.push(d.readUInt32BE(k));
            }
            const w = words.shift()!;
            if (w < 2 ** 32 - (2 ** 32 % n)) return lo + (w % n);
          }
        };
        const partial = (size: number, count: number) => {
          const pool = Array.from({ length: size }, (_, i) => i);
          for (let k = 0; k < count; k++) {
            const j = draw(k, size - 1);
            [pool[k], pool[j]] = [pool[j], pool[k]];
          }
          return pool.slice(0, count);
        };
        const squares = Array.from({ length: 16 }, (_, i) => `${"abcd"[i % 4]}${Math.floor(i / 4) + 1}`);
        const pile = CATALOGUE.map((c) => c.id);
        for (let i = 39; i >= 1; i--) {
          const j = draw(0, i);
          [pile[i], pile[j]] = [pile[j], pile[i]];
        }
        const chessTiles = partial(16, 2).map((sq) => ({ square: squares[sq], piece: ["knight", "bishop", "rook", "queen", "king"][draw(0, 4)] }));
        const firstPlayer = draw(0, 1) === 0 ? "A" : "B";
        const roster = ["knight", "bastion", "usurper", "herald", "tidecaller", "reaver"];
        const a = roster[draw(0, 5)];
        const champions = { A: a, B: roster.filter((c) => c !== a)[draw(0, 4)] };
        let mutators: string[] = [];
        let squareElements: Array<{ square: string; element: string }> = [];
        if (ruleset === "mutators") {
          mutators = partial(5, 2)
            .sort((x, y) => x - y)
            .map((i) => ["same", "plus", "combo", "reverse", "elemental"][i]);
          if (mutators.includes("elemental"))
            squareElements = partial(16, 3).map((sq) => ({ square: squares[sq], element: ["ember", "tide", "gale", "stone"][draw(0, 3)] }));
        }
        return { pile, chessTiles, firstPlayer, champions, mutators, squareElements };
      }
      for (let i = 0; i < 40; i++) {
        const ruleset = i % 2 === 0 ? "classic" : "mutators";
        const g = newGame({ ruleset, rulesVersion: 4 }, fixedSeed(1000 + i), "x");
        const d = dealFromTheRules(fixedSeed(1000 + i), ruleset);
        const first = d.firstPlayer as Seat,
          second = other(first);
        // Hands: 4 each from the top, alternately A first; the first mover's extra cards next; then the champions.
        const extra = ruleset === "classic" ? 1 : 2;
        const hands = { A: [0, 2, 4, 6].map((k) => d.pile[k]), B: [1, 3, 5, 7].map((k) => d.pile[k]) };
        hands[first].push(...d.pile.slice(8, 8 + extra));
        assert.deepEqual(
          {
            chessTiles: g.chessTiles,
            firstPlayer: g.firstPlayer,
            champions: g.champions,
            mutators: g.mutators,
            squareElements: g.squareElements,
            pile: g.pile,
          },
          {
            chessTiles: d.chessTiles,
            firstPlayer: d.firstPlayer,
            champions: d.champions,
            mutators: d.mutators,
            squareElements: d.squareElements,
            pile: d.pile.slice(8 + extra),
          },
          `game ${i}`,
        );
        assert.deepEqual(g.hands[first].slice(0, -1), hands[first]);
        assert.deepEqual(g.hands[second].slice(0, -1), hands[second]);
      }
    });

    it("stands a number n for the seed derived from it, which the game records, so self-play stays reproducible", () => {
      assert.equal(numberedSeed(7), createHash("sha256").update("tile-arena/selfplay/7").digest("hex").slice(0, 32));
      const g = newGame({ ruleset: "classic", rulesVersion: 4 }, 7, "x");
      assert.equal(g.seed, numberedSeed(7));
      assert.deepEqual(g, newGame({ ruleset: "classic", rulesVersion: 4 }, numberedSeed(7), "x"));
      // Versions 1-3 keep their integer seeds.
      assert.equal(newGame({ ruleset: "classic", rulesVersion: 3 }, 7, "x").seed, 7);
      assert.throws(() => newGame({ ruleset: "classic", rulesVersion: 4 }, "ABC", "x"), /32 lowercase hex digits/);
      assert.throws(() => newGame({ ruleset: "classic", rulesVersion: 3 }, numberedSeed(7), "x"), /must be a number/);
      // Self-play names each deal by a number and plays it from the seed derived from it.
      const game = playMatchGame({ games: 2, ruleset: "classic", a: "random", b: "random", seed: 5 }, 1);
      assert.equal(game.state.seed, numberedSeed(dealSeed(5, 1)));
      assert.equal(game.state.rulesVersion, 4);
    });
  });

  describe("replays", () => {
    const finished = (seed: Seed) => {
      let s = newGame({ ruleset: "mutators", rulesVersion: 4 }, seed, "replay-salt");
      while (s.status === "active") s = play(s, legalMoves(s)[0].card, legalMoves(s)[0].square).state;
      return buildReplay(s, { id: "g_v4", players: { A: "a", B: "b" }, replayUrl: "" });
    };

    it("verifies a version 4 replay and refuses it with another seed, an integer seed or its seed in capitals", () => {
      const replay = finished(newSeed());
      assert.deepEqual(verifyReplay(replay), { ok: true });
      const seed = replay.seed as string;
      const flipped = seed.slice(0, -1) + (seed.endsWith("0") ? "1" : "0");
      const refusedOn = (r: object) => {
        const res = verifyReplay(r);
        return res.ok ? null : res.field;
      };
      assert.equal(refusedOn({ ...replay, seed: flipped }), "commitment");
      // Another seed with a matching commitment: the deal shows the lie.
      assert.equal(refusedOn({ ...replay, seed: flipped, commitment: commitmentOf(flipped, replay.salt) }) !== null, true);
      assert.equal(refusedOn({ ...replay, seed: 12345 }), "seed");
      assert.equal(refusedOn({ ...replay, seed: seed.toUpperCase() }), "seed");
      assert.equal(refusedOn({ ...replay, seed: seed.slice(2) }), "seed");
    });
  });
});
