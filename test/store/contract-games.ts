/** Contract: games and their action logs. */
import assert from "node:assert/strict";
import { AppError } from "../../src/shared/errors";
import type { GameRecord, GameRematch } from "../../src/store";
import type { GamesPort, PlayersPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at, game, player, T0 } from "./fixtures";

export function gamesContract(store: PortRef<{ games: GamesPort; players: Pick<PlayersPort, "getPlayer"> }>): void {
  describe("games", function () {
    it("returns a created game as it was given when read back", async function () {
      const g = game("G1", { level: "hard", firstPlayer: "B", decidedBy: "timeout", seats: {} });
      await store().games.createGame(g);
      assert.deepEqual(await store().games.getGame("G1"), g);
    });

    it("keeps each seed's JSON type: an integer (rules versions 1-3) and 32 hex digits (version 4), also after a patch", async function () {
      const old = game("G1", { rulesVersion: 3, seed: 2 ** 31 - 1 });
      const hex = game("G2", { rulesVersion: 4, seed: "0123456789abcdef0123456789abcdef" });
      await store().games.createGames([old, hex]);
      await store().games.updateGameIf("G2", {}, { status: "active", moveCount: 1 });
      assert.deepEqual(await store().games.getGame("G1"), old);
      const read = (await store().games.getGame("G2"))!;
      assert.equal(read.seed, "0123456789abcdef0123456789abcdef");
      assert.equal((await store().games.listUnfinishedGames()).find((g) => g.id === "G2")?.seed, "0123456789abcdef0123456789abcdef");
    });

    it("returns copies so that mutating a result or the input changes nothing stored", async function () {
      const g = game("G1");
      await store().games.createGame(g);
      g.seats.A!.name = "changed input";
      const read = (await store().games.getGame("G1"))!;
      read.seats.A!.name = "changed output";
      read.score.A = 99;
      const again = (await store().games.getGame("G1"))!;
      assert.equal(again.seats.A!.name, "Ada");
      assert.equal(again.score.A, 5);
    });

    it("stores a round of games in one write, and none of them when one id is taken", async function () {
      const round = [game("G1"), game("G2"), game("G3")];
      await store().games.createGames(round);
      for (const g of round) assert.deepEqual(await store().games.getGame(g.id), g);
      await store().games.createGames([]);
      const taken = game("G5", { level: "hard" });
      await store().games.createGame(taken);
      await assert.rejects(store().games.createGames([game("G4"), game("G5"), game("G6")]));
      assert.equal(await store().games.getGame("G4"), null, "a game before the taken id is not left stored");
      assert.equal(await store().games.getGame("G6"), null);
      assert.deepEqual(await store().games.getGame("G5"), taken, "the taken id's game is unchanged");
    });

    it("returns null when the game does not exist", async function () {
      assert.equal(await store().games.getGame("missing"), null);
    });

    it("rejects a second game with the same id", async function () {
      await store().games.createGame(game("G1"));
      await assert.rejects(store().games.createGame(game("G1")));
    });

    it("stores a new game's seat profiles with it, and a game is never stored when a profile's id is taken", async function () {
      const p = player("P1", 1500);
      await store().games.createGame(game("G1"), [p]);
      assert.deepEqual(await store().players.getPlayer("P1"), p);
      assert.equal((await store().games.getGame("G1"))?.id, "G1");
      await assert.rejects(store().games.createGame(game("G2"), [player("P2", 1500), player("P1", 1400)]));
      assert.equal(await store().games.getGame("G2"), null, "the game whose profile was refused is not stored");
      assert.equal((await store().players.getPlayer("P1"))?.rating, 1500, "the profile already stored is kept");
    });

    it("merges the patch shallowly and bumps updatedAt when a game is updated", async function () {
      await store().games.createGame(game("G1"));
      assert.equal(await store().games.updateGameIf("G1", {}, { status: "active", moveCount: 3, startedAt: at(1), score: { A: 6, B: 4 } }), true);
      const g = (await store().games.getGame("G1"))!;
      assert.equal(g.status, "active");
      assert.equal(g.moveCount, 3);
      assert.equal(g.startedAt, at(1));
      assert.deepEqual(g.score, { A: 6, B: 4 });
      assert.equal(g.seed, 12345, "untouched members are kept");
      assert.equal(g.createdAt, T0);
      assert.ok(g.updatedAt > T0, `updatedAt ${g.updatedAt} was not bumped`);
    });

    it("keeps the id and removes members set to undefined when a patch says so", async function () {
      await store().games.createGame(game("G1", { firstPlayer: "A" }));
      await store().games.updateGameIf("G1", {}, { id: "OTHER", firstPlayer: undefined });
      const g = (await store().games.getGame("G1"))!;
      assert.equal(g.id, "G1");
      assert.equal("firstPlayer" in g, false);
      assert.equal(await store().games.getGame("OTHER"), null);
    });

    it("does nothing when the updated game does not exist", async function () {
      assert.equal(await store().games.updateGameIf("missing", {}, { status: "active" }), false);
      assert.equal(await store().games.getGame("missing"), null);
    });

    describe("a finished game's rematch", function () {
      const offer = (version: number, over: Partial<GameRematch> = {}): GameRematch => ({ version, offeredBy: "A", at: at(version), ...over });

      it("stores the rematch only over the version it read, and bumps updatedAt", async function () {
        await store().games.createGame(game("G1", { status: "finished" }));
        assert.equal(await store().games.updateRematchIf("G1", 1, offer(2)), false, "a version the game does not have");
        assert.equal(await store().games.updateRematchIf("G1", undefined, offer(1)), true);
        assert.equal(await store().games.updateRematchIf("G1", undefined, offer(1, { offeredBy: "B" })), false, "a second first write");
        assert.equal(await store().games.updateRematchIf("G1", 1, offer(2, { gameId: "G2" })), true);
        assert.equal(await store().games.updateRematchIf("G1", 1, offer(2, { offeredBy: null })), false, "a stale version");
        const g = (await store().games.getGame("G1"))!;
        assert.deepEqual(g.rematch, offer(2, { gameId: "G2" }));
        assert.ok(g.updatedAt > T0);
        assert.equal(g.seed, 12345, "the rest of the record is kept");
        await store().games.updateGameIf("G1", {}, { moveCount: 4 });
        assert.deepEqual((await store().games.getGame("G1"))!.rematch, offer(2, { gameId: "G2" }), "a patch without it keeps it");
      });

      it("writes nothing on a game that has not finished or does not exist", async function () {
        await store().games.createGame(game("G1", { status: "active" }));
        assert.equal(await store().games.updateRematchIf("G1", undefined, offer(1)), false);
        assert.equal((await store().games.getGame("G1"))!.rematch, undefined);
        assert.equal(await store().games.updateRematchIf("ghost", undefined, offer(1)), false);
        assert.equal(await store().games.getGame("ghost"), null);
      });

      it("lets exactly one of racing writes over the same version win", async function () {
        await store().games.createGame(game("G1", { status: "finished" }));
        const firsts = await Promise.all(Array.from({ length: 8 }, (_, i) => store().games.updateRematchIf("G1", undefined, offer(1, { at: at(i) }))));
        assert.equal(firsts.filter(Boolean).length, 1);
        const seconds = await Promise.all(Array.from({ length: 8 }, (_, i) => store().games.updateRematchIf("G1", 1, offer(2, { gameId: `N${i}` }))));
        assert.equal(seconds.filter(Boolean).length, 1);
        const g = (await store().games.getGame("G1"))!;
        assert.deepEqual(g.rematch, offer(2, { gameId: `N${seconds.indexOf(true)}` }));
      });
    });

    it("finds a game by either seat's invite code until the code is cleared", async function () {
      await store().games.createGame(game("G1", { seats: { A: { playerId: "P1", name: "Ada", kind: "human", code: "CODEA" } } }));
      await store().games.createGame(game("G2", { seats: { B: { playerId: "P2", name: "Bo", kind: "human", code: "CODEB" } } }));
      assert.equal((await store().games.findGameByCode("CODEA"))?.id, "G1");
      assert.equal((await store().games.findGameByCode("CODEB"))?.id, "G2");
      assert.equal(await store().games.findGameByCode("NOPE"), null);
      await store().games.updateGameIf("G1", {}, { seats: { A: { playerId: "P1", name: "Ada", kind: "human" } } });
      assert.equal(await store().games.findGameByCode("CODEA"), null);
    });

    it("finds the newest game holding a code, the greater id among games created at the same time", async function () {
      const seats = { A: { playerId: "P1", name: "Ada", kind: "human" as const, code: "SAME" } };
      for (const id of ["G2", "G3", "G1"]) await store().games.createGame(game(id, { seats, createdAt: at(5) }));
      await store().games.createGame(game("G0", { seats, createdAt: at(1) }));
      assert.equal((await store().games.findGameByCode("SAME"))?.id, "G3");
    });

    it("keeps a league game sealed through its room's writes, and removes the seal only once the game has finished", async function () {
      const place = (index: number) => ({ gameId: "L1", index, action: { kind: "place" as const, card: "E7", square: "b3" }, at: at(index + 1) });
      const sealed = game("L1", { status: "active", leagueId: "LG1", sealed: true, owner: "p1", ownerEpoch: 1 });
      await store().games.createGame(sealed);
      // The league unseals a deal's games with a write conditional on their being finished (GameReads.unseal).
      assert.equal(await store().games.updateGameIf("L1", { status: "finished" }, { sealed: undefined }), false, "not finished yet");
      assert.equal((await store().games.getGame("L1"))!.sealed, true);
      assert.deepEqual(await store().games.commitGames([{ gameId: "L1", actions: [place(0)], patch: { moveCount: 1 }, ownerEpoch: 1 }]), ["committed"]);
      assert.deepEqual(
        await store().games.commitGames([
          { gameId: "L1", actions: [place(1)], patch: { moveCount: 2, status: "finished", winner: "A", decidedBy: "board_full" }, ownerEpoch: 1 },
        ]),
        ["committed"],
      );
      const finished = (await store().games.getGame("L1"))!;
      assert.equal(finished.sealed, true, "the room's writes leave the seal alone");
      assert.equal(await store().games.updateGameIf("L1", { status: "finished" }, { sealed: undefined }), true);
      const unsealed = (await store().games.getGame("L1"))!;
      assert.ok(!("sealed" in unsealed), "the seal is removed, not set to null or false");
      assert.ok(unsealed.updatedAt >= finished.updatedAt);
      const { sealed: _s, updatedAt: _u, ...rest } = finished;
      const { updatedAt: _v, ...after } = unsealed;
      assert.deepEqual(after, rest, "nothing else of the record changes");
      assert.deepEqual(
        (await store().games.listActions("L1")).map((a) => a.index),
        [0, 1],
        "nor its log",
      );
      // Unsealed again (both games of a deal reach the league's finish hook): it stays unsealed.
      assert.equal(await store().games.updateGameIf("L1", { status: "finished" }, { sealed: undefined }), true);
      assert.ok(!("sealed" in (await store().games.getGame("L1"))!));
      assert.deepEqual(
        (await store().games.listGames({ status: "finished", limit: 5 })).games.map((g) => [g.id, g.sealed]),
        [["L1", undefined]],
      );
    });

    describe("listGames", function () {
      async function seed(): Promise<void> {
        // G0..G5, G5 newest; odd ones finished, G4 private; G2 and G3 share a creation time.
        const times = [0, 1, 2, 2, 4, 5];
        for (const [i, minute] of times.entries()) {
          await store().games.createGame(
            game(`G${i}`, {
              createdAt: at(minute),
              status: i % 2 ? "finished" : "active",
              public: i !== 4,
            }),
          );
        }
      }
      const ids = (games: GameRecord[]) => games.map((g) => g.id);

      it("lists newest first with ties broken by id when no filter is given", async function () {
        await seed();
        const { games, nextCursor } = await store().games.listGames({ limit: 10 });
        assert.deepEqual(ids(games), ["G5", "G4", "G3", "G2", "G1", "G0"]);
        assert.equal(nextCursor, null);
      });

      it("pages through every game exactly once when following the cursor", async function () {
        await seed();
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store().games.listGames({ limit: 2, cursor });
          assert.ok(page.games.length <= 2);
          seen.push(...ids(page.games));
          cursor = page.nextCursor ?? undefined;
          pages++;
        } while (cursor && pages < 10);
        assert.deepEqual(seen, ["G5", "G4", "G3", "G2", "G1", "G0"]);
        assert.equal(pages, 3);
      });

      it("returns no cursor when the page holds the last game", async function () {
        await seed();
        const first = await store().games.listGames({ limit: 5 });
        assert.ok(first.nextCursor);
        const last = await store().games.listGames({ limit: 5, cursor: first.nextCursor });
        assert.deepEqual(ids(last.games), ["G0"]);
        assert.equal(last.nextCursor, null);
      });

      it("lists a player's public games from either seat, newest first, paged", async function () {
        const seat = (playerId: string) => ({ playerId, name: playerId, kind: "human" as const, tokenHash: "t" });
        await store().games.createGame(game("P0", { createdAt: at(0), seats: { A: seat("Q1"), B: seat("Q2") } }));
        await store().games.createGame(game("P1", { createdAt: at(1), seats: { A: seat("Q3"), B: seat("Q1") } }));
        await store().games.createGame(game("P2", { createdAt: at(2), seats: { A: seat("Q1") }, public: false }));
        await store().games.createGame(game("P3", { createdAt: at(3), seats: { A: seat("Q3"), B: seat("Q4") } }));
        await store().games.createGame(game("P4", { createdAt: at(4), seats: { A: seat("Q1"), B: seat("Q3") }, status: "finished" }));
        const first = await store().games.listGames({ limit: 2, playerId: "Q1" });
        assert.deepEqual(ids(first.games), ["P4", "P1"]);
        const rest = await store().games.listGames({ limit: 2, playerId: "Q1", cursor: first.nextCursor! });
        assert.deepEqual(ids(rest.games), ["P0"]);
        assert.equal(rest.nextCursor, null);
        assert.deepEqual(ids((await store().games.listGames({ limit: 10, playerId: "Q9" })).games), []);
      });

      it("filters by status and by publicity when asked", async function () {
        await seed();
        assert.deepEqual(ids((await store().games.listGames({ limit: 10, status: "finished" })).games), ["G5", "G3", "G1"]);
        assert.deepEqual(ids((await store().games.listGames({ limit: 10, publicOnly: true })).games), ["G5", "G3", "G2", "G1", "G0"]);
        const both = await store().games.listGames({ limit: 1, status: "active", publicOnly: true });
        assert.deepEqual(ids(both.games), ["G2"]);
        const rest = await store().games.listGames({ limit: 5, status: "active", publicOnly: true, cursor: both.nextCursor! });
        assert.deepEqual(ids(rest.games), ["G0"]);
      });

      it("rejects a malformed cursor as a bad request", async function () {
        await assert.rejects(store().games.listGames({ limit: 2, cursor: "not-a-cursor" }), (e: unknown) => e instanceof AppError && e.code === "bad_request");
      });
    });

    it("lists waiting and active games but not finished ones as unfinished", async function () {
      await store().games.createGame(game("W", { status: "waiting", createdAt: at(1) }));
      await store().games.createGame(game("A", { status: "active", createdAt: at(2) }));
      await store().games.createGame(game("F", { status: "finished", createdAt: at(3) }));
      const unfinished = await store().games.listUnfinishedGames();
      assert.deepEqual(unfinished.map((g) => g.id).sort(), ["A", "W"]);
    });

    it("lists the games of one status oldest first, created before a time and up to a limit", async function () {
      for (let i = 1; i <= 4; i++) await store().games.createGame(game(`W${i}`, { status: "waiting", createdAt: at(i) }));
      await store().games.createGame(game("A", { status: "active", createdAt: at(5) }));
      await store().games.createGame(game("F", { status: "finished", createdAt: at(6) }));
      const ids = (games: { id: string }[]) => games.map((g) => g.id);
      assert.deepEqual(ids(await store().games.listGamesWithStatus("waiting")), ["W1", "W2", "W3", "W4"]);
      assert.deepEqual(ids(await store().games.listGamesWithStatus("waiting", { createdBefore: at(3), limit: 10 })), ["W1", "W2"]);
      assert.deepEqual(ids(await store().games.listGamesWithStatus("waiting", { limit: 3 })), ["W1", "W2", "W3"]);
      assert.deepEqual(ids(await store().games.listGamesWithStatus("active")), ["A"]);
    });

    describe("actions", function () {
      // Actions belong to a stored game and are appended at the end of its log.
      beforeEach(async function () {
        await store().games.createGame(game("G1", { status: "active" }));
        await store().games.createGame(game("G2", { status: "active" }));
      });

      it("lists a game's actions in index order", async function () {
        await store().games.commitGames([
          { gameId: "G1", actions: [{ gameId: "G1", index: 0, action: { kind: "place", card: "E7", square: "b3" }, at: at(1) }], patch: {} },
        ]);
        await store().games.commitGames([{ gameId: "G2", actions: [{ gameId: "G2", index: 0, action: { kind: "abort" }, at: at(3) }], patch: {} }]);
        await store().games.commitGames([{ gameId: "G1", actions: [{ gameId: "G1", index: 1, action: { kind: "resign", seat: "B" }, at: at(2) }], patch: {} }]);
        assert.deepEqual(await store().games.listActions("G1"), [
          { gameId: "G1", index: 0, action: { kind: "place", card: "E7", square: "b3" }, at: at(1) },
          { gameId: "G1", index: 1, action: { kind: "resign", seat: "B" }, at: at(2) },
        ]);
        assert.equal((await store().games.listActions("G2")).length, 1);
        assert.deepEqual(await store().games.listActions("none"), []);
      });

      it("lets exactly one of two racing writes of the same index win, and keeps its action", async function () {
        const timeout = (n: number) => ({ gameId: "G1", index: 0, action: { kind: "timeout" as const, seat: n ? ("B" as const) : ("A" as const) }, at: at(n) });
        const results = await Promise.all([0, 1].map((n) => store().games.commitGames([{ gameId: "G1", actions: [timeout(n)], patch: {} }])));
        assert.deepEqual(results.flat().sort(), ["committed", "conflict"]);
        assert.deepEqual(await store().games.listActions("G1"), [timeout(results[0][0] === "committed" ? 0 : 1)]);
      });
    });

    describe("commitGames (group commit)", function () {
      const place = (gameId: string, index: number, minute: number) => ({
        gameId,
        index,
        action: { kind: "place" as const, card: "E7", square: "b3" },
        at: at(minute),
      });

      it("stores every write's actions and merges its patch when the batch commits", async function () {
        await store().games.createGame(game("G1", { status: "active" }));
        await store().games.createGame(game("G2", { status: "active" }));
        const results = await store().games.commitGames([
          { gameId: "G1", actions: [place("G1", 0, 1)], patch: { moveCount: 1, score: { A: 6, B: 4 }, lastMoveAt: at(1) } },
          { gameId: "G2", actions: [place("G2", 0, 2), place("G2", 1, 3)], patch: { status: "finished", winner: "B", decidedBy: "resignation" } },
        ]);
        assert.deepEqual(results, ["committed", "committed"]);
        assert.deepEqual(await store().games.listActions("G1"), [place("G1", 0, 1)]);
        assert.equal((await store().games.listActions("G2")).length, 2);
        const g1 = (await store().games.getGame("G1"))!;
        assert.equal(g1.moveCount, 1);
        assert.deepEqual(g1.score, { A: 6, B: 4 });
        assert.ok(g1.updatedAt > T0);
        const g2 = (await store().games.getGame("G2"))!;
        assert.equal(g2.winner, "B");
        const finished = await store().games.listGames({ status: "finished", limit: 10 });
        assert.deepEqual(
          finished.games.map((g) => g.id),
          ["G2"],
          "the status written in the batch is queryable",
        );
        const active = await store().games.listGames({ status: "active", limit: 10 });
        assert.deepEqual(
          active.games.map((g) => g.id),
          ["G1"],
          "a patch without a status keeps the one stored",
        );
        assert.equal(g1.status, "active");
      });

      it("refuses only the write whose action index is taken, and stores nothing of it", async function () {
        await store().games.createGame(game("G1", { status: "active" }));
        await store().games.createGame(game("G2", { status: "active" }));
        await store().games.commitGames([{ gameId: "G1", actions: [place("G1", 0, 1)], patch: {} }]);
        const results = await store().games.commitGames([
          { gameId: "G1", actions: [place("G1", 1, 2), place("G1", 0, 3)], patch: { moveCount: 2 } },
          { gameId: "G2", actions: [place("G2", 0, 2)], patch: { moveCount: 1 } },
        ]);
        assert.equal(results[1], "committed");
        assert.equal(results[0], "conflict");
        assert.equal((await store().games.getGame("G1"))!.moveCount, 0, "the conflicting write's patch is not applied");
        assert.deepEqual(
          (await store().games.listActions("G1")).map((a) => [a.index, a.at]),
          [[0, at(1)]],
          "nor any of its actions",
        );
        assert.equal((await store().games.getGame("G2"))!.moveCount, 1);
      });

      it("stores nothing of a batch that is rejected, not even its writes that were valid", async function () {
        await store().games.createGame(game("G1", { status: "active" }));
        await store().games.createGame(game("G2", { status: "active" }));
        const unstorable = { salt: 1n as unknown as string }; // JSON has no BigInt: the adapter cannot store it
        await assert.rejects(
          store().games.commitGames([
            { gameId: "G1", actions: [place("G1", 0, 1)], patch: { moveCount: 1, lastMoveAt: at(1) } },
            { gameId: "G2", actions: [place("G2", 0, 2)], patch: { moveCount: 1, ...unstorable } },
          ]),
        );
        for (const id of ["G1", "G2"]) {
          assert.deepEqual(await store().games.listActions(id), [], `${id} keeps no action`);
          assert.deepEqual(await store().games.getGame(id), game(id, { status: "active" }), `${id} keeps its record`);
        }
        assert.deepEqual(
          await store().games.commitGames([{ gameId: "G1", actions: [place("G1", 0, 3)], patch: { moveCount: 1 } }]),
          ["committed"],
          "the log goes on where it was",
        );
      });

      it("applies two writes of one game in one batch in batch order, and undoes both when the batch is rejected", async function () {
        await store().games.createGame(game("G1", { status: "active", ownerEpoch: 1 }));
        await store().games.createGame(game("G2", { status: "active" }));
        const results = await store().games.commitGames([
          { gameId: "G1", actions: [place("G1", 0, 1)], patch: { moveCount: 1 }, ownerEpoch: 1 },
          { gameId: "G1", actions: [place("G1", 1, 2), place("G1", 2, 3)], patch: { moveCount: 3 }, ownerEpoch: 1 },
          { gameId: "G1", actions: [place("G1", 3, 4)], patch: { moveCount: 4, lastMoveAt: at(4) }, ownerEpoch: 1 },
        ]);
        assert.deepEqual(results, ["committed", "committed", "committed"]);
        assert.deepEqual(
          (await store().games.listActions("G1")).map((a) => a.index),
          [0, 1, 2, 3],
        );
        assert.equal((await store().games.getGame("G1"))!.moveCount, 4);
        const before = (await store().games.getGame("G1"))!;
        const unstorable = { salt: 1n as unknown as string };
        await assert.rejects(
          store().games.commitGames([
            { gameId: "G1", actions: [place("G1", 4, 5)], patch: { moveCount: 5, lastMoveAt: at(5) }, ownerEpoch: 1 },
            { gameId: "G1", actions: [place("G1", 5, 6)], patch: { moveCount: 6, lastMoveAt: at(6) }, ownerEpoch: 1 },
            { gameId: "G2", actions: [place("G2", 0, 6)], patch: { moveCount: 1, ...unstorable } },
          ]),
        );
        assert.deepEqual(await store().games.getGame("G1"), before, "both writes of the game are undone");
        assert.deepEqual(
          (await store().games.listActions("G1")).map((a) => a.index),
          [0, 1, 2, 3],
        );
      });

      it("updates only the record when a write has no actions, and leaves it alone with an empty patch", async function () {
        await store().games.createGame(game("G1"));
        assert.deepEqual(await store().games.commitGames([{ gameId: "G1", actions: [], patch: { status: "active", startedAt: at(1) } }]), ["committed"]);
        assert.equal((await store().games.getGame("G1"))!.status, "active");
        assert.deepEqual(await store().games.commitGames([{ gameId: "G1", actions: [place("G1", 0, 2)], patch: {} }]), ["committed"]);
        assert.equal((await store().games.getGame("G1"))!.status, "active");
        assert.equal((await store().games.listActions("G1")).length, 1);
      });

      it("merges a patch like updateGameIf: null is kept, undefined removes, objects and the status column follow", async function () {
        await store().games.createGame(game("G1", { status: "active", winner: "A", decidedBy: "board_full" }));
        const patch = { winner: null, decidedBy: undefined, score: { A: 3, B: 5 }, status: "finished" as const, lastMoveAt: at(4) };
        assert.deepEqual(await store().games.commitGames([{ gameId: "G1", actions: [place("G1", 0, 4)], patch }]), ["committed"]);
        const g = (await store().games.getGame("G1"))!;
        assert.equal(g.winner, null);
        assert.ok(!("decidedBy" in g), "a member set to undefined is removed");
        assert.deepEqual(g.score, { A: 3, B: 5 });
        assert.equal(g.lastMoveAt, at(4));
        assert.ok(g.updatedAt > T0);
        assert.deepEqual(
          (await store().games.listGames({ status: "finished", limit: 5 })).games.map((x) => x.id),
          ["G1"],
        );
        const { updatedAt: _u, ...rest } = g;
        const { updatedAt: _v, ...expected } = { ...game("G1", { status: "active", winner: "A", decidedBy: "board_full" }), ...patch };
        delete (expected as { decidedBy?: unknown }).decidedBy;
        assert.deepEqual(rest, expected, "nothing else of the record changes");
      });
    });
  });
}
