/**
 * A duplicate league of four scripted bots played to the end over REST on a real server: each bot enters with
 * its key, watches the league's games and plays its seat of every released game with its league token. The
 * published standings are checked against an independent recomputation from the games' own records, and the
 * re-derivation command (`league:verify`) passes on the finished league and fails once a result is tampered with.
 * A deal's first finished game shows no reveal, replay or review (REST, MCP, webhook) while its other game runs.
 *
 * In the slow suite (test/suites/index.cjs): end to end by nature, whole leagues played out by bots and the
 * verifier run as a process, 8 to 80 s in runs of the fast suite on the 2-core machine.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { greedyMove, type Policy } from "../../clients/typescript/client";
import { generateSecret } from "../../src/services/events";
import { verifyReplay } from "../../src/engine";
import type { RunningServer } from "../../src/server";
import { httpGetJson, verifyLeague } from "../../src/services/leagues/verify";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { connect, type McpTestClient } from "../mcp/helpers";
import { bearer, bootServer, http } from "../support/server";
import { firstMove, playSeat, runCli, type DealRow } from "./play";

/** One deal a pair: each bot has three deals, two at a time (the wave rule), and every pair meets once. */
const DEALS = 1;
const PARALLEL = 2;

/** The last legal move: another weak one, so the weak bots differ from each other. */
const lastMove: Policy = (v) => v.legalMoves[v.legalMoves.length - 1];

/** Hunter's MM fit of the same model (a virtual draw against a reference of strength 1), written apart from the server's. */
function independentRatings(ids: string[], games: { winner: string | null; loser: string | null; draw: [string, string] | null }[]) {
  const index = new Map(ids.map((id, i) => [id, i]));
  const w = ids.map(() => 0.5);
  const n = ids.map(() => ids.map(() => 0));
  for (const g of games) {
    const [x, y] = g.draw ?? [g.winner!, g.loser!];
    const i = index.get(x)!;
    const j = index.get(y)!;
    if (g.draw) {
      w[i] += 0.5;
      w[j] += 0.5;
    } else w[i] += 1;
    n[i][j]++;
    n[j][i]++;
  }
  let p = ids.map(() => 1);
  for (let it = 0; it < 200000; it++) {
    const next = p.map((pi, i) => w[i] / (1 / (pi + 1) + n[i].reduce((s, nij, j) => (j === i || nij === 0 ? s : s + nij / (pi + p[j])), 0)));
    const moved = Math.max(...next.map((x, i) => Math.abs(Math.log(x / p[i]))));
    p = next;
    if (moved < 1e-13) break;
  }
  const logs = p.map((x) => (400 * Math.log(x)) / Math.LN10);
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
  return new Map(ids.map((id, i) => [id, logs[i] - mean]));
}

/** Whether any object inside `value` has a member whose name says seed (seed, seedHex, ...). */
function namesSeed(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesSeed);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, member]) => /seed/i.test(key) || namesSeed(member));
}
describe("Duplicate league over REST", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let base: string;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "league-e2e-"));
    server = await bootServer({ database: join(dir, "arena.db") });
    base = server.url;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses entries without a bot key, twice, or after the start, and a start by anyone but the director", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Refusals", deals: 1 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    assert.equal((await http(base, "POST", "/api/v1/leagues", { name: "x", deals: 0 })).status, 400);
    const guest = await http(base, "POST", `/api/v1/leagues/${id}/join`);
    assert.equal(guest.status, 401);
    assert.match(guest.headers.get("content-type") ?? "", /application\/problem\+json/);
    const bot = await http(base, "POST", "/api/v1/bots", { name: "Lonely" });
    const joined = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(bot.json.key));
    assert.equal(joined.status, 201, joined.text);
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(bot.json.key))).status, 409);
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(joined.json.playerToken))).status, 403);
    // One entrant is not a league.
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 409);
    assert.equal((await http(base, "GET", `/api/v1/leagues/${id}`)).json.status, "open");
  });

  it("deals both games of a deal from one seed it keeps secret while they are played, each with its own commitment", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Secret seeds", deals: 1 });
    const id = created.json.league.id as string;
    for (const name of ["Seed bot A", "Seed bot B"]) {
      const reg = await http(base, "POST", "/api/v1/bots", { name });
      assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key))).status, 201);
    }
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    const deal = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals[0] as DealRow;
    const records = await Promise.all(deal.games.map(async (g) => http(base, "GET", `/api/v1/games/${g.gameId}`)));
    for (const r of records) {
      assert.equal(r.json.status, "active");
      assert.doesNotMatch(r.text, /"seed"|"salt"/);
      assert.match(r.json.commitment, /^[0-9a-f]{64}$/);
      assert.equal((await http(base, "GET", `/api/v1/games/${r.json.id}/replay`)).status, 409);
    }
    assert.notEqual(records[0].json.commitment, records[1].json.commitment);
    // One seed, one deal: the same seat moves first, the same chess tiles, each entrant in the first seat once.
    assert.equal(records[0].json.firstPlayer, records[1].json.firstPlayer);
    assert.deepEqual(records[0].json.chessTiles, records[1].json.chessTiles);
    const first = records[0].json.firstPlayer as "A" | "B";
    assert.deepEqual(
      records.map((r) => r.json.players[first].id),
      [deal.a, deal.b],
    );
  });

  it("plays every deal from both seats among four bots, publishes standings that match the games, and verifies", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Four bots", deals: DEALS, parallel: PARALLEL, turnSeconds: 60 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    const policies: [string, Policy][] = [
      ["Greedy one", greedyMove],
      ["Greedy two", greedyMove],
      ["First legal", firstMove],
      ["Last legal", lastMove],
    ];
    const bots: { playerId: string; token: string; policy: Policy }[] = [];
    let stream: { lines: string[]; stop: () => void } | undefined;
    for (const [name, policy] of policies) {
      const reg = await http(base, "POST", "/api/v1/bots", { name });
      // The first bot also holds its event stream open: the league's games are announced on it.
      stream ??= await followStream(base, reg.json.key as string);
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      assert.equal(j.status, 201, j.text);
      assert.equal(j.json.playerId, reg.json.bot.id);
      bots.push({ playerId: j.json.playerId, token: j.json.playerToken, policy });
    }
    const started = await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken));
    assert.equal(started.status, 200, started.text);
    assert.equal(started.json.progress.games, 6 * DEALS * 2);
    const late = await http(base, "POST", "/api/v1/bots", { name: "Late" });
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(late.json.key))).status, 409);

    // Each bot polls the league's games and plays every released game of its own until the league is over; the
    // polls also check the wave rule: no bot ever has more than PARALLEL deals unfinished.
    let mostInFlight = 0;
    let secretsShown = false;
    await Promise.all(
      bots.map(async (bot) => {
        const playing = new Map<string, Promise<void>>();
        for (let i = 0; i < 5000; i++) {
          const league = await http(base, "GET", `/api/v1/leagues/${id}`);
          if (league.json.status === "finished") break;
          const listed = await http(base, "GET", `/api/v1/leagues/${id}/games`);
          // A member named like a seed, at any depth (a regular expression over the text also matched random ids).
          if (namesSeed(listed.json)) secretsShown = true;
          const deals = listed.json.deals as DealRow[];
          const open = deals.filter((d) => d.released && d.games.some((g) => g.outcome === null) && (d.a === bot.playerId || d.b === bot.playerId));
          mostInFlight = Math.max(mostInFlight, open.length);
          for (const g of open.flatMap((d) => d.games)) {
            if (g.outcome === null && !playing.has(g.gameId)) playing.set(g.gameId, playSeat(base, g.gameId, bot.token, bot.policy));
          }
          await new Promise((r) => setTimeout(r, 60));
        }
        await Promise.all(playing.values());
      }),
    );
    assert.ok(mostInFlight >= 1 && mostInFlight <= PARALLEL, `a bot had ${mostInFlight} deals in flight`);
    const starts = new Set(
      stream!.lines
        .map((l) => JSON.parse(l) as { type: string; gameId: string })
        .filter((e) => e.type === "gameStart")
        .map((e) => e.gameId),
    );
    stream!.stop();
    assert.equal(starts.size, 3 * DEALS * 2, "the first bot's stream announced each of its league games");
    assert.equal(secretsShown, false, "the games list never shows a seed");

    const league = (await http(base, "GET", `/api/v1/leagues/${id}`)).json;
    assert.equal(league.status, "finished");
    assert.deepEqual(league.progress, { deals: 6 * DEALS, dealsPlayed: 6 * DEALS, games: 6 * DEALS * 2, gamesPlayed: 6 * DEALS * 2 });

    // Independent recomputation from the games' own records: seats, first mover, winner.
    const deals = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[];
    const ids = bots.map((b) => b.playerId);
    const counts = new Map(ids.map((p) => [p, { games: 0, wins: 0, draws: 0, losses: 0 }]));
    const results: Parameters<typeof independentRatings>[1] = [];
    const meetings = new Map<string, number>();
    for (const d of deals) {
      const records = await Promise.all(d.games.map(async (g) => (await http(base, "GET", `/api/v1/games/${g.gameId}`)).json));
      const replays = await Promise.all(d.games.map(async (g) => (await http(base, "GET", `/api/v1/games/${g.gameId}/replay`)).json));
      assert.equal(replays[0].seed, replays[1].seed, "the deal's two games share a seed");
      assert.notEqual(replays[0].salt, replays[1].salt, "each game has its own salt");
      assert.notEqual(records[0].commitment, records[1].commitment);
      const pair = [d.a, d.b].sort().join(" ");
      meetings.set(pair, (meetings.get(pair) ?? 0) + 1);
      const decided = records.map((r, i) => {
        const firstId = r.players[r.firstPlayer].id as string;
        const secondId = r.players[r.firstPlayer === "A" ? "B" : "A"].id as string;
        assert.equal(firstId, d.games[i].first);
        assert.equal(secondId, d.games[i].second);
        return { r, firstId, secondId };
      });
      assert.deepEqual([decided[0].firstId, decided[1].firstId], [d.a, d.b], "each entrant moves first once in the deal");
      if (records.some((r) => r.winner === null)) continue; // a void game voids its deal
      for (const { r, firstId, secondId } of decided) {
        counts.get(firstId)!.games++;
        counts.get(secondId)!.games++;
        if (r.winner === "draw") {
          counts.get(firstId)!.draws++;
          counts.get(secondId)!.draws++;
          results.push({ winner: null, loser: null, draw: [firstId, secondId] });
          continue;
        }
        const winner = r.players[r.winner].id as string;
        const loser = winner === firstId ? secondId : firstId;
        counts.get(winner)!.wins++;
        counts.get(loser)!.losses++;
        results.push({ winner, loser, draw: null });
      }
    }
    assert.equal(meetings.size, 6);
    // The schedule decides who meets next: a league game offers no rematch.
    const rematch = await http(
      base,
      "POST",
      `/api/v1/games/${deals[0].games[0].gameId}/rematch`,
      undefined,
      bearer(bots.find((b) => b.playerId === deals[0].a)!.token),
    );
    assert.equal(rematch.status, 403, rematch.text);
    assert.match(rematch.json.detail, /league/);
    for (const n of meetings.values()) assert.equal(n, DEALS);
    const expected = independentRatings(ids, results);
    const table = (await http(base, "GET", `/api/v1/leagues/${id}/standings`)).json;
    assert.equal(table.standings.length, 4);
    for (const row of table.standings) {
      assert.deepEqual({ games: row.games, wins: row.wins, draws: row.draws, losses: row.losses }, counts.get(row.playerId));
      assert.ok(Math.abs(row.rating - expected.get(row.playerId)!) <= 0.051, `${row.playerId}: ${row.rating} vs ${expected.get(row.playerId)}`);
      assert.ok(row.low <= row.rating && row.rating <= row.high, `${row.playerId}: ${row.low} ${row.rating} ${row.high}`);
    }
    const ranked = [...table.standings].sort((x, y) => y.rating - x.rating).map((r) => r.playerId);
    assert.deepEqual(
      table.standings.map((r: { playerId: string }) => r.playerId),
      ranked,
    );

    // The re-derivation, in process and as the command a reader runs.
    const report = await verifyLeague(httpGetJson(base), id);
    assert.deepEqual(report.problems, []);
    assert.equal(report.gamesChecked, 6 * DEALS * 2);
    const cli = await runCli("league-verify.ts", base, id);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, new RegExp(`${6 * DEALS * 2} games checked, 0 mismatches`));

    // A result counted the other way round in the stored league: the replays no longer agree with it.
    const [game] = await server.store.leagues.listLeagueResults(id);
    const db = new Database(join(dir, "arena.db"));
    db.prepare("UPDATE league_results SET outcome = ? WHERE game_id = ?").run(game.outcome === "first" ? "second" : "first", game.gameId);
    db.close();
    const tampered = await verifyLeague(httpGetJson(base), id);
    assert.ok(
      tampered.problems.some((p) => p.includes(game.gameId) && p.includes("the replay says")),
      tampered.problems.join("\n"),
    );
    const failed = await runCli("league-verify.ts", base, id);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /MISMATCH/);
  });
});

describe("Duplicate league: a deal's seed stays sealed until both its games have finished", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;
  let mcp: McpTestClient;
  let receiver: Receiver;

  before(async () => {
    // Loopback webhooks with the receiver's self-signed certificate, to see what game.finished carries.
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [50, 100] });
    base = server.url;
    mcp = await connect(base);
    receiver = await startReceiver();
  });
  after(async () => {
    await mcp?.close();
    await receiver?.close();
    await server?.close();
  });

  /** Every string anywhere in a JSON value. */
  const strings = (v: unknown): string[] =>
    typeof v === "string" ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];

  it("shows neither reveal, replay nor review of the finished game while the other runs, then both", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Sealed", deals: 1, turnSeconds: 60 });
    const id = created.json.league.id as string;
    const bots: { playerId: string; token: string; stream: { lines: string[]; stop: () => void } }[] = [];
    for (const name of ["Sealed bot A", "Sealed bot B"]) {
      const reg = await http(base, "POST", "/api/v1/bots", { name });
      const stream = await followStream(base, reg.json.key as string);
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      bots.push({ playerId: j.json.playerId, token: j.json.playerToken, stream });
    }
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    const deal = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals[0] as DealRow;
    const [one, two] = deal.games.map((g) => g.gameId);
    const secret = generateSecret();
    await mcp.method("events/subscribe", { name: "game.finished", arguments: { game_id: one }, delivery: { mode: "webhook", url: receiver.url, secret } });

    // The first game is played to its end; the second has not moved.
    await Promise.all(bots.map((b) => playSeat(base, one, b.token, firstMove)));

    // Each bot's stream told it of each of its turns and of the end: the game's two bot seats are watched as one.
    const told = (b: (typeof bots)[number]) => b.stream.lines.map((l) => JSON.parse(l) as { type: string; gameId: string }).filter((e) => e.gameId === one);
    for (let i = 0; i < 100 && !bots.every((b) => told(b).some((e) => e.type === "gameFinish")); i++) await new Promise((r) => setTimeout(r, 50));
    for (const b of bots)
      assert.deepEqual(
        told(b)
          .map((e) => e.type)
          .filter((t) => t !== "yourTurn"),
        ["gameStart", "gameFinish"],
        b.playerId,
      );
    for (const b of bots) assert.equal(told(b).filter((e) => e.type === "yourTurn").length, 8, `${b.playerId}: ${JSON.stringify(told(b))}`);
    const record = await http(base, "GET", `/api/v1/games/${one}`);
    assert.equal(record.json.status, "finished");
    assert.equal((await server.store.games.getGame(one))!.sealed, true);
    assert.equal(record.json.reveal, undefined, "no reveal while the deal's other game runs");
    assert.equal(record.json.replayUrl, undefined);
    assert.doesNotMatch(record.text, /"seed"|"salt"/);
    assert.equal((await mcp.ok("get_game", { game_id: one })).reveal, undefined);
    for (const b of bots) {
      const sync = await http(base, "GET", `/api/v1/games/${one}/sync`, undefined, bearer(b.token));
      assert.equal(sync.json.status, "finished");
      assert.doesNotMatch(sync.text, /"seed"|"salt"|"reveal"/);
    }
    for (const path of ["replay", "review"]) {
      const refused = await http(base, "GET", `/api/v1/games/${one}/${path}`);
      assert.equal(refused.status, 409, refused.text);
      assert.match(refused.headers.get("content-type") ?? "", /application\/problem\+json/);
      assert.equal(refused.json.code, "game_not_finished");
      assert.match(refused.json.detail, /other game of this league deal/);
      const viaMcp = await mcp.raw(path, { game_id: one });
      assert.equal(viaMcp.isError, true);
      assert.equal(viaMcp.structuredContent.code, "game_not_finished");
    }
    // What announced the finish carries no seed: the webhook, and whatever each bot's stream told it.
    await receiver.waitFor(1, 10_000);
    const finishedEvent = receiver.events().find((e) => e.json?.name === "game.finished");
    assert.ok(finishedEvent, "game.finished was delivered");
    assert.equal(finishedEvent.json.data.game_id, one);
    assert.doesNotMatch(finishedEvent.raw, /"seed"|"salt"|"reveal"/);
    for (const b of bots) for (const l of b.stream.lines) assert.doesNotMatch(l, /"seed"|"salt"|"reveal"/);

    // A running league verifies without the sealed game: its deal is not counted yet.
    const running = await verifyLeague(httpGetJson(base), id);
    assert.deepEqual(running.problems, []);
    assert.equal(running.gamesChecked, 0);

    // The running game: each bot sees its own hand and nothing of the other's.
    const views = await Promise.all(bots.map(async (b) => (await http(base, "GET", `/api/v1/games/${two}/sync`, undefined, bearer(b.token))).json));
    assert.equal(views[0].status, "active");
    for (const [mine, theirs] of [
      [views[0], views[1]],
      [views[1], views[0]],
    ]) {
      const shown = new Set(strings(mine));
      const hidden = (theirs.state.hand as { id: string }[]).map((c) => c.id);
      assert.equal(hidden.length > 0, true);
      assert.deepEqual(
        hidden.filter((c) => shown.has(c)),
        [],
        "a seat's sync shows a card of the other seat's hand",
      );
      assert.doesNotMatch(JSON.stringify(mine), /"seed"|"salt"|"reveal"/);
    }

    // The second game ends: once the league has counted the deal, both games reveal the one seed.
    await Promise.all(bots.map((b) => playSeat(base, two, b.token, firstMove)));
    // A seat's sync shows the game finished a moment before the finish hook has counted it (and unsealed the deal).
    let status = "";
    for (let i = 0; i < 200 && status !== "finished"; i++) {
      status = (await http(base, "GET", `/api/v1/leagues/${id}`)).json.status;
      if (status !== "finished") await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(status, "finished");
    for (const g of [one, two]) assert.equal((await server.store.games.getGame(g))!.sealed, undefined, `game ${g} is unsealed in the store`);
    const records = await Promise.all([one, two].map(async (g) => (await http(base, "GET", `/api/v1/games/${g}`)).json));
    for (const r of records) assert.ok(r.reveal, `game ${r.id} reveals once its deal is over`);
    assert.equal(records[0].reveal.seed, records[1].reveal.seed);
    const replays = await Promise.all([one, two].map(async (g) => http(base, "GET", `/api/v1/games/${g}/replay`)));
    for (const r of replays) {
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(verifyReplay(r.json), { ok: true });
    }
    assert.equal((await mcp.ok("replay", { game_id: one })).seed, records[0].reveal.seed);
    const report = await verifyLeague(httpGetJson(base), id);
    assert.deepEqual(report.problems, []);
    assert.equal(report.gamesChecked, 2);
    for (const b of bots) b.stream.stop();
  });
});

/** Reads a bot's NDJSON event stream into `lines` until stopped. */
async function followStream(base: string, key: string): Promise<{ lines: string[]; stop: () => void }> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/v1/stream/events`, { headers: bearer(key), signal: abort.signal });
  assert.equal(res.status, 200);
  const lines: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      const reader = res.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        buffered += decoder.decode(r.value, { stream: true });
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        lines.push(...parts.filter((p) => p.trim() !== ""));
      }
    } catch {
      // Aborted by stop().
    }
  })();
  return { lines, stop: () => abort.abort() };
}

describe("Duplicate league: a wave of games resigned at once", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;
  let dir: string;
  before(async () => {
    // A database file, as deployed (each write durable before it is answered).
    dir = mkdtempSync(join(tmpdir(), "league-wave-"));
    server = await bootServer({ database: join(dir, "arena.db") });
    base = server.url;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // 16 bots and 50 deals a pair: 6,000 deals, the largest league.
  it("counts every one of 64 games resigned together, and releases the next wave", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Wave", deals: 50, parallel: 4 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    const tokens = new Map<string, string>();
    for (let i = 0; i < 16; i++) {
      const reg = await http(base, "POST", "/api/v1/bots", { name: `Wave ${i}` });
      assert.equal(reg.status, 201, reg.text);
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      assert.equal(j.status, 201, j.text);
      tokens.set(j.json.playerId, j.json.playerToken);
    }
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    const wave = ((await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[]).filter((d) => d.released).flatMap((d) => d.games);
    assert.equal(wave.length, 64);
    // Every game resigned at once by its first mover (before any move: each is void, and each is a result).
    const answers = await Promise.all(wave.map((g) => http(base, "POST", `/api/v1/games/${g.gameId}/resign`, undefined, bearer(tokens.get(g.first)!))));
    assert.deepEqual(
      answers.filter((a) => a.status !== 200).map((a) => a.text),
      [],
    );
    let progress = { gamesPlayed: 0, dealsPlayed: 0 };
    for (let i = 0; i < 200 && progress.gamesPlayed < 64; i++) {
      await new Promise((r) => setTimeout(r, 100));
      progress = (await http(base, "GET", `/api/v1/leagues/${id}`)).json.progress;
    }
    assert.equal(progress.gamesPlayed, 64);
    assert.equal(progress.dealsPlayed, 32);
    const after = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[];
    assert.equal(after.flatMap((d) => d.games).filter((g) => g.outcome === "void").length, 64);
    const next = after.filter((d) => d.released && d.games.every((g) => g.outcome === null));
    assert.ok(next.length > 0, "the next wave was released");
    for (const bot of tokens.keys()) assert.ok(next.filter((d) => d.a === bot || d.b === bot).length <= 4);
  });
});
