/**
 * `npm run log:verify -- <baseUrl> --league ID` and `--tournament ID` on a real server: a league of two bots, a
 * three-entrant swiss and a two-entrant arena played out over REST are found whole in the public log, their tables following from the
 * logged results (exit 0); once a stored result they count is changed, or a logged entry, the check fails
 * (exit 1, the game named).
 *
 * In the slow suite (test/suites/index.cjs): end to end by nature, three competitions played out game by game
 * and the verifier run as a process on each, 12 to 52 s in runs of the fast suite on the 2-core machine.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { RunningServer } from "../../src/server";
import { playToEnd, waitForJson } from "../agents/play";
import { playSeat, runCli, type GameRow } from "../leagues/play";
import { bearer, bootServer, http } from "../support/server";

/** A game as a tournament's stored document counts it. */
type CountedGame = { gameId: string; outcome?: string };

describe("Public log: a league's or tournament's table checked against the log", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "log-tables-"));
    server = await bootServer({ database: join(dir, "arena.db"), logBatchMs: 50 });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tournament created with `body`, joined by `names` and started: its id and each entrant's player token. */
  async function startedTournament(body: object, names: string[]) {
    const base = server.url;
    const created = await http(base, "POST", "/api/v1/tournaments", body);
    assert.equal(created.status, 201, created.text);
    const id = created.json.tournament.id as string;
    const tokens = new Map<string, string>();
    for (const name of names) {
      const j = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name });
      assert.equal(j.status, 201, j.text);
      tokens.set(j.json.playerId, j.json.playerToken);
    }
    assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    return { id, tokens };
  }

  /** Swaps, in the stored tournament, the outcome of the game `pick` finds in its document; the game as changed. */
  function flipStoredOutcome<Doc>(id: string, pick: (doc: Doc) => CountedGame): CountedGame {
    const db = new Database(join(dir, "arena.db"));
    const row = db.prepare("SELECT doc FROM tournaments WHERE id = ?").get(id) as { doc: string };
    const doc = JSON.parse(row.doc) as Doc;
    const stored = pick(doc);
    stored.outcome = stored.outcome === "first" ? "second" : "first";
    db.prepare("UPDATE tournaments SET doc = ? WHERE id = ?").run(JSON.stringify(doc), id);
    db.close();
    return stored;
  }

  it("passes on a league played out, and fails once a stored result is changed", async () => {
    const base = server.url;
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Logged", deals: 1, turnSeconds: 60 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    const tokens = new Map<string, string>();
    for (const name of ["Left", "Right"]) {
      const reg = await http(base, "POST", "/api/v1/bots", { name });
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      assert.equal(j.status, 201, j.text);
      tokens.set(j.json.playerId, j.json.playerToken);
    }
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    const games = ((await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as { games: GameRow[] }[]).flatMap((d) => d.games);
    assert.equal(games.length, 2);
    await Promise.all(games.flatMap((g) => [playSeat(base, g.gameId, tokens.get(g.first)!), playSeat(base, g.gameId, tokens.get(g.second)!)]));
    // The league counts both games, and both are in the log (their records name their index).
    for (let i = 0; i < 200; i++) {
      const league = (await http(base, "GET", `/api/v1/leagues/${id}`)).json;
      const records = await Promise.all(games.map(async (g) => (await http(base, "GET", `/api/v1/games/${g.gameId}`)).json));
      if (league.status === "finished" && records.every((r) => typeof r.logIndex === "number")) break;
      await new Promise((r) => setTimeout(r, 50));
    }

    const ok = await runCli("log-verify.ts", base, "--league", id);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /2 games checked in the log, 0 mismatches/);

    // A result the league counts, changed in the store: the published table no longer follows from the log.
    const counted = ((await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as { games: GameRow[] }[])[0].games[0];
    const db = new Database(join(dir, "arena.db"));
    db.prepare("UPDATE league_results SET outcome = ? WHERE game_id = ?").run(counted.outcome === "first" ? "second" : "first", counted.gameId);
    db.close();
    const tampered = await runCli("log-verify.ts", base, "--league", id);
    assert.equal(tampered.code, 1, tampered.stdout + tampered.stderr);
    assert.match(tampered.stderr, new RegExp(`MISMATCH deal 0, game ${counted.gameId} \\(entry\\): counted `));

    // The other game's logged entry, changed in the store: it no longer leads to the signed root.
    const other = games.find((g) => g.gameId !== counted.gameId)!;
    const db2 = new Database(join(dir, "arena.db"));
    assert.equal(db2.prepare(`UPDATE log_entries SET leaf = replace(leaf, '"salt":"', '"salt":"0') WHERE game_id = ?`).run(other.gameId).changes, 1);
    db2.close();
    const changed = await runCli("log-verify.ts", base, "--league", id);
    assert.equal(changed.code, 1, changed.stdout + changed.stderr);
    assert.match(changed.stderr, new RegExp(`MISMATCH deal 0: game ${other.gameId}: entry \\d+ and its inclusion proof do not lead to the signed root`));

    // An unknown league is a usage problem, not a pass.
    assert.equal((await runCli("log-verify.ts", base, "--league", "lg_none")).code, 2);
  });

  it("passes on a swiss tournament played out, and fails once its stored result is changed", async () => {
    const base = server.url;
    const { id, tokens } = await startedTournament({ name: "Logged swiss", rounds: 1 }, ["Ada", "Bo", "Cy"]);
    const round = ((await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.rounds.length >= 1, 30_000)).rounds as { games: GameRow[] }[])[0];
    assert.equal(round.games.length, 1);
    const game = round.games[0];
    await Promise.all([playToEnd(base, game.gameId, tokens.get(game.first)!, 60_000), playToEnd(base, game.gameId, tokens.get(game.second)!, 60_000)]);
    await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished", 30_000);
    await waitForJson(base, `/api/v1/games/${game.gameId}`, (j) => typeof j.logIndex === "number", 30_000);

    const ok = await runCli("log-verify.ts", base, "--tournament", id);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /tournament .*: 1 games checked in the log, 0 mismatches/);

    // The stored result changed: the API's standings follow it, the log does not.
    const stored = flipStoredOutcome(id, (doc: { played: { games: CountedGame[] }[] }) => doc.played[0].games[0]);
    const tampered = await runCli("log-verify.ts", base, "--tournament", id);
    assert.equal(tampered.code, 1, tampered.stdout + tampered.stderr);
    assert.match(tampered.stderr, new RegExp(`MISMATCH round 1, game ${game.gameId} \\(entry\\): counted ${stored.outcome}, the log says`));
    assert.match(tampered.stderr, /MISMATCH table: .*published score/);
  });

  it("passes on an arena's games, and fails once a result it counted is changed", async () => {
    const base = server.url;
    const { id, tokens } = await startedTournament({ name: "Logged arena", format: "arena", minutes: 30 }, ["Ann", "Ben"]);
    // Two entrants meet once: the next pairing avoids the previous opponent, so the arena has one game.
    const game = ((await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.games?.length >= 1, 30_000)).games as GameRow[])[0];
    await Promise.all([playToEnd(base, game.gameId, tokens.get(game.first)!, 60_000), playToEnd(base, game.gameId, tokens.get(game.second)!, 60_000)]);
    await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.games[0].outcome !== null, 30_000);
    await waitForJson(base, `/api/v1/games/${game.gameId}`, (j) => typeof j.logIndex === "number", 30_000);

    const ok = await runCli("log-verify.ts", base, "--tournament", id);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /tournament .*: 1 games checked in the log, 0 mismatches/);

    // The counted result changed in the store: the arena's standings follow it, the log does not.
    const stored = flipStoredOutcome(id, (doc: { arena: { games: CountedGame[] } }) => doc.arena.games[0]);
    const tampered = await runCli("log-verify.ts", base, "--tournament", id);
    assert.equal(tampered.code, 1, tampered.stdout + tampered.stderr);
    assert.match(tampered.stderr, new RegExp(`MISMATCH game 1, game ${game.gameId} \\(entry\\): counted ${stored.outcome}, the log says`));
    assert.match(tampered.stderr, /MISMATCH table: .*published score/);
  });
});
