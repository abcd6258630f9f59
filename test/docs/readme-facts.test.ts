/**
 * The README states facts a newcomer acts on: versions, the problem codes, the hand sizes, the commands and
 * where things are. Each is read out of the README's text and held to the code it describes, and the curl
 * game it gives is run, as written, against a real server: a README that drifts from the code fails here.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ERROR_CODES } from "../../src/shared/errors";
import { apply, CATALOGUE, CURRENT_RULES_VERSION, legalMoves, newGame, rulesOf, SQUARES, type GameState, type Ruleset } from "../../src/engine";
import { MUTATORS, PIECES } from "../../src/engine/setup";
import { LevelSchema } from "../../src/services/games/schemas";
import { GAME_ROOM, QUEUE_ROOM } from "../../src/services/games/room-access";
import { BOT_KEY_PREFIX } from "../../src/shared/secrets";
import { loadConfig } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const readme = readFileSync("README.md", "utf8");
/** The README with its line breaks and runs of spaces as single spaces, for facts that wrap. */
const flat = readme.replace(/\s+/g, " ");
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; scripts: Record<string, string> };

/** The text of a `## heading` section, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The one match of `re` in the README (its first group), failing with what was looked for. */
function stated(re: RegExp, what: string): string {
  const m = re.exec(flat);
  assert.ok(m, `the README states ${what}`);
  return m[1];
}

const WORDS: Record<string, number> = { four: 4, five: 5, six: 6, seven: 7 };

describe("README: every fact it states matches the code", () => {
  it("fits a page or two (under 12 KB)", () => {
    assert.ok(Buffer.byteLength(readme) < 12 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
  });

  it("names the current rules version", () => {
    assert.equal(Number(stated(/`rulesVersion`, now (\d+)/, "the rules version")), CURRENT_RULES_VERSION);
  });

  it("gives the hand sizes each seat is dealt, per ruleset", () => {
    const second = WORDS[stated(/second mover is dealt (\w+) cards/, "the second mover's hand")];
    const base = WORDS[stated(/\((\w+) and its champion\)/, "the cards besides the champion")];
    const [classic, mutators] = stated(/\(hands of (\d+ and \d+)\)/, "the first mover's hands")
      .split(" and ")
      .map(Number);
    const dealt = (ruleset: Ruleset) => {
      const g = newGame({ ruleset }, 7, "readme");
      const other = g.firstPlayer === "A" ? "B" : "A";
      return { first: g.hands[g.firstPlayer].length, second: g.hands[other].length, champions: g.hands[other].filter((c) => c.startsWith("K")).length };
    };
    for (const [ruleset, first] of [
      ["classic", classic],
      ["mutators", mutators],
    ] as const) {
      const d = dealt(ruleset);
      assert.deepEqual({ first: d.first, second: d.second }, { first, second }, ruleset);
      assert.equal(d.champions, 1, "one champion card in a hand");
      assert.equal(d.second - d.champions, base);
    }
  });

  it("lists exactly the problem codes of src/shared/errors.ts", () => {
    const list = stated(/with a stable `code`: (.*?)\. Its `docs` link/, "the problem codes");
    const codes = [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    assert.deepEqual([...codes].sort(), Object.keys(ERROR_CODES).sort());
  });

  it("states the Node version package.json requires, which Colyseus accepts", () => {
    const version = stated(/Node\.js (\d+\.\d+) or later/, "the Node requirement");
    assert.equal(pkg.engines.node, `>=${version}.0`);
    const colyseus = JSON.parse(readFileSync("node_modules/colyseus/package.json", "utf8")) as { engines: { node: string } };
    assert.match(colyseus.engines.node, new RegExp(`\\b${version.split(".")[0]}\\b`));
  });

  it("names the default port and the embedded store the config uses", () => {
    const config = loadConfig({});
    assert.equal(Number(stated(/listens on port (\d+)/, "the port")), config.port);
    assert.ok(config.database.startsWith(stated(/SQLite file under `([^`]+)`/, "the SQLite folder")));
  });

  it("runs only npm scripts that package.json has, here and in docs/", () => {
    const files = [
      "README.md",
      ...readdirSync("docs")
        .filter((f) => f.endsWith(".md"))
        .map((f) => join("docs", f)),
      "CONTRIBUTING.md",
    ].filter((f) => existsSync(f));
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/npm (?:run )?([a-z][\w:-]*)/g)) {
        const name = m[1];
        // npm's own commands, not scripts.
        if (["ci", "install", "run", "warns", "exec", "i"].includes(name)) continue;
        if (m[0].startsWith("npm run ") || ["start", "test"].includes(name)) {
          assert.ok(name in pkg.scripts, `${file}: "${m[0]}" is not a script in package.json`);
        }
      }
    }
  });

  it("says which Debian packages the test command installs", () => {
    const installs = stated(/installs (`[^.]*?) from Debian/, "what the test command installs");
    const named = [...installs.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
    const script = readFileSync("scripts/test.sh", "utf8");
    const installed = [...script.matchAll(/need_apt\+=\(([\w-]+)\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(named, installed);
  });

  it("describes the board, the cards, the deal, the draw and the tie as the engine plays them", () => {
    assert.equal(stated(/on a (\d+x\d+) board/, "the board's size"), "4x4");
    assert.equal(stated(/board \((a1\.\.d4)\)/, "the squares"), `${SQUARES[0]}..${SQUARES.at(-1)}`);
    assert.equal(SQUARES.length, 16);
    const ranks = stated(/four ranks \((`n`, `e`, `s`, `w`)/, "the ranks").replace(/[`\s]/g, "");
    for (const c of CATALOGUE) assert.deepEqual(Object.keys(c.ranks).join(","), ranks, c.id);
    const listed = (what: string, re: RegExp) =>
      stated(re, what)
        .split(/, | or /)
        .map((w) => w.trim())
        .sort();
    assert.deepEqual(listed("the chess pieces", /also attacks like a (.*?);/), [...PIECES].sort());
    assert.deepEqual(listed("the twists", /twists drawn by the seed \((.*?)\)/), [...MUTATORS].sort());
    assert.equal(stated(/ruleset adds (\w+) twists/, "how many twists"), "two");
    assert.equal(stated(/(\w+) squares are chess tiles/, "how many chess tiles"), "two");
    const each = Number(stated(/until it is full: (\d+) cards each/, "the cards each seat places"));
    assert.equal(each * 2, SQUARES.length);

    const seen = { pieces: new Set<string>(), twists: new Set<string>() };
    for (let seed = 1; seed <= 60; seed++) {
      const ruleset: Ruleset = seed % 2 ? "classic" : "mutators";
      let g: GameState = newGame({ ruleset }, seed, `readme-${seed}`);
      assert.equal(g.chessTiles.length, 2);
      assert.equal(g.mutators.length, ruleset === "mutators" ? 2 : 0);
      g.chessTiles.forEach((t) => seen.pieces.add(t.piece));
      g.mutators.forEach((m) => seen.twists.add(m));
      // The seed's sha256 commitment is what is published at the start.
      assert.equal(g.commitment, createHash("sha256").update(`${g.seed}:${g.salt}`).digest("hex"));
      const second = g.firstPlayer === "A" ? "B" : "A";
      while (g.status === "active") {
        const { card, square } = legalMoves(g)[0];
        const mover = g.turn;
        const next = apply(g, { kind: "place", card, square });
        assert.ok(next.ok);
        // After each placement the mover draws from the one shared pile, from its head.
        if (g.pile.length > 0) {
          assert.ok(next.state.pile.length < g.pile.length);
          assert.ok(next.state.hands[mover].includes(g.pile[0]));
        }
        g = next.state;
      }
      for (const seat of ["A", "B"] as const) assert.equal(g.moves.filter((m) => m.seat === seat).length, each, `seed ${seed}`);
      assert.equal(g.moves.at(-1)!.seat, second, "the second mover places the last card");
      if (g.score.A === g.score.B) assert.equal(g.winner, g.firstPlayer, "the first mover wins a tied board");
    }
    assert.deepEqual([...seen.pieces].sort(), [...PIECES].sort(), "every piece is dealt");
    assert.deepEqual([...seen.twists].sort(), [...MUTATORS].sort(), "every twist is drawn");
    assert.equal(rulesOf(CURRENT_RULES_VERSION).tieGoesToFirstMover, true);
  });

  it("names the house levels the API accepts, the rooms the server defines and the bots' key prefix", () => {
    const where = section("What is where");
    const levels = /The house opponent \(levels ([^)]*)\)/.exec(where)?.[1];
    assert.ok(levels, "the house levels");
    assert.deepEqual(
      [...levels.matchAll(/`(\w+)`/g)].map((m) => m[1]),
      [...LevelSchema.options],
    );
    const rooms = /The Colyseus rooms \(([^)]*)\)/.exec(where)?.[1];
    assert.ok(rooms, "the rooms");
    assert.deepEqual(
      [...rooms.matchAll(/`(\w+)`/g)].map((m) => m[1]),
      [GAME_ROOM, QUEUE_ROOM],
    );
    assert.match(where, /`messages\.ts` holds every WebSocket message/);
    assert.ok(existsSync("rooms/messages.ts"));
    assert.match(where, new RegExp(`Bot accounts \\(\`${BOT_KEY_PREFIX}\` keys\\)`));
  });

  it("says what npm ci, npm start and npm run dev run, on which Colyseus and store", () => {
    const quick = section("Quick start").replace(/\s+/g, " ");
    assert.match(quick, /`npm ci` also compiles the server to `dist\/` \(`npm run build`, source maps on\)/);
    assert.match(pkg.scripts.prepare, /^npm run build( &&|$)/);
    assert.match(readFileSync(pkg.scripts.build.split(" ").at(-1)!, "utf8"), /sourcemap: "linked"/);
    assert.match(pkg.scripts.start, /^exec node --enable-source-maps .* dist\/src\/main\.js$/);
    assert.match(quick, /`npm run dev` runs the TypeScript directly and restarts on every save/);
    assert.match(pkg.scripts.dev, /^tsx watch .*src\/main\.ts$/);
    const colyseus = JSON.parse(readFileSync("node_modules/colyseus/package.json", "utf8")) as { version: string };
    assert.equal(stated(/Colyseus (\d+\.\d+) requires/, "the Colyseus version"), colyseus.version.split(".").slice(0, 2).join("."));
    // "in-process presence": no Redis unless REDIS_URL names one.
    assert.match(quick, /in-process presence/);
    assert.equal(loadConfig({}).redisUrl, undefined);
    // better-sqlite3's install script: a prebuilt binary, else a build from source.
    const sqlite = JSON.parse(readFileSync("node_modules/better-sqlite3/package.json", "utf8")) as { scripts: { install: string } };
    assert.match(sqlite.scripts.install, /^prebuild-install \|\| node-gyp rebuild/);
  });

  it("says what .ci/run runs, and the licence package.json names", () => {
    assert.match(flat, /`\.ci\/run` runs `test\.sh` on Node 22/);
    const ci = readFileSync(".ci/run", "utf8");
    assert.match(ci, /-lt 22/);
    assert.match(ci, /^bash scripts\/test\.sh$/m);
    assert.match(flat, /MIT licensed \(\[LICENSE\]\(LICENSE\)\)/);
    assert.equal((JSON.parse(readFileSync("package.json", "utf8")) as { license: string }).license, "MIT");
    assert.match(readFileSync("LICENSE", "utf8"), /^MIT License\n/);
  });

  it("shows benchmark commands that docs/BENCHMARKS.md describes", () => {
    const commands = [...section("Measured").matchAll(/^\| `(npm run [\w:]+)` \|/gm)].map((m) => m[1]);
    assert.ok(commands.length >= 3, commands.join());
    const benchmarks = readFileSync("docs/BENCHMARKS.md", "utf8");
    for (const c of commands) assert.ok(benchmarks.includes(c), `${c} is in docs/BENCHMARKS.md`);
  });

  it("points at paths and documents that exist", () => {
    for (const m of section("What is where").matchAll(/`((?:src|rooms|web|test|loadtest|scripts|deploy|\.ci)\/[^`]*)`/g)) {
      assert.ok(existsSync(m[1]), `${m[1]} exists`);
    }
    for (const m of readme.matchAll(/\]\(((?!https?:)[^)#]+)(#[^)]*)?\)/g)) assert.ok(existsSync(m[1]), `${m[1]} exists`);
  });

  describe("the curl game, as written, against a real server", function () {
    this.timeout(90_000);
    let server: RunningServer;
    const tmp = useTempDir("readme-curl-");
    before(async () => {
      server = await bootServer();
    });
    after(async () => {
      await server?.close();
    });

    it("serves the pages it names, the API reference and the rules as data", async () => {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
      assert.equal(created.status, 201, created.text);
      const quick = section("Quick start").replace(/\s+/g, " ");
      const named = /watch a live game\); (.*?) are the other pages/.exec(quick)?.[1] ?? "";
      const pages = [...named.matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]);
      assert.ok(pages.length >= 6, pages.join());
      for (const page of ["/", ...pages]) {
        // A profile names a player (a profile of no one is a 404 page); the other pages name the game.
        const id = page.startsWith("/players/") ? (created.json.player.id as string) : (created.json.game.id as string);
        const path = page.replace("{id}", id);
        const r = await http(server.url, "GET", path);
        assert.equal(r.status, 200, path);
        assert.match(r.headers.get("content-type") ?? "", /html/, path);
      }
      assert.match(quick, /The API reference is at `\/docs`/);
      assert.equal((await http(server.url, "GET", "/docs")).status, 200);
      assert.match(flat, /the rules as data: `GET \/api\/v1\/rules`/);
      const rules = await http(server.url, "GET", "/api/v1/rules");
      assert.equal(rules.status, 200);
      assert.ok(JSON.stringify(rules.json).includes(`"version":${CURRENT_RULES_VERSION}`), "the current version's rules");
    });

    it("takes a move by fields, and refuses with a problem document whose docs link names its code", async () => {
      const example = JSON.parse(stated(/A move can also be sent by fields: `(\{[^`]*\})`/, "the move by fields")) as { card: string; square: string };
      assert.deepEqual(Object.keys(example), ["card", "square"]);
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann", seat: "A" });
      const { game, playerToken } = created.json;
      let sync = (await http(server.url, "GET", `/api/v1/games/${game.id}/sync?since=0&timeout=10`, undefined, bearer(playerToken))).json;
      if (!sync.yourTurn)
        sync = (await http(server.url, "GET", `/api/v1/games/${game.id}/sync?since=${sync.moveCount}&timeout=10`, undefined, bearer(playerToken))).json;
      assert.equal(sync.yourTurn, true);
      // The README's example card is rarely in the hand: a card the seat holds, onto a free square, by fields.
      const taken = new Set(sync.state.board.map((c: { square: string }) => c.square));
      const square = SQUARES.find((q) => !taken.has(q));
      const moved = await http(server.url, "POST", `/api/v1/games/${game.id}/moves`, { card: sync.state.hand[0].id, square }, bearer(playerToken));
      assert.equal(moved.status, 200, moved.text);
      assert.match(example.card, /^[ETGS]\d+$/, "a card id of the catalogue's form");
      assert.ok(CATALOGUE.some((c) => c.id === example.card));

      assert.match(flat, /RFC 9457 problem document \(`application\/problem\+json`\)/);
      const refused = await http(server.url, "GET", "/api/v1/games/g_nope");
      assert.equal(refused.status, 404);
      assert.match(refused.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal(refused.json.code, "not_found");
      assert.match(flat, /Its `docs` link, `\/docs\/errors#<code>`/);
      assert.ok(String(refused.json.docs).endsWith("/docs/errors#not_found"), refused.json.docs);
      assert.equal((await http(server.url, "GET", "/docs/errors")).status, 200);
    });

    it("plays a whole game against the house and reads its replay and review", async () => {
      const block = /```sh\n([\s\S]*?)```/.exec(section("Play a game with curl"))?.[1];
      assert.ok(block, "the curl section has a shell block");
      assert.ok(block.includes("localhost:2567"), "the block talks to the default port");
      const script = block.replaceAll("localhost:2567", `127.0.0.1:${server.port}`);
      const { stdout } = await promisify(execFile)("bash", ["-c", script], {
        env: { ...process.env, TMPDIR: tmp() },
        timeout: 80_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      const moves = stdout.split("\n").filter((l) => /^\w+@[a-d][1-4] /.test(l));
      assert.equal(moves.length, 8, `it played its seat's moves:\n${stdout.slice(0, 2000)}`);
      assert.ok(
        moves.every((l) => l.endsWith(" 200")),
        `every move was accepted:\n${moves.join("\n")}`,
      );
      assert.match(stdout, /"seed":"[0-9a-f]{32}"/, "the replay reveals the seed, 128 bits as hex");
      assert.match(stdout, /"mark":/, "the review marks the moves");
      // The replay and the review end on their own lines, as the README's expected output shows them.
      const last = stdout.trim().split("\n").slice(-3);
      assert.match(last[0], /^\{"A":\d+,"B":\d+\}$/, "the final score");
      assert.match((JSON.parse(last[1]) as { seed: string }).seed, /^[0-9a-f]{32}$/, "the replay, alone on its line");
      assert.ok("moves" in (JSON.parse(last[2]) as object) && last[2].includes('"mark":'), "the review, alone on its line");
      const shown = /```text\n([\s\S]*?)```/.exec(section("Play a game with curl"))?.[1].trim().split("\n") ?? [];
      assert.match(shown[0], /^\w+@[a-d][1-4] 200$/, "the README shows the moves' lines");
      assert.match(shown.at(-3)!, /^\{"A":\d+,"B":\d+\}$/);
      assert.match(shown.at(-2)!, /"seed":/);
      assert.match(shown.at(-1)!, /"mark":/);
      // Its files went to the temporary folder, none to the working directory.
      assert.ok(!existsSync("game.json") && !existsSync("sync.json"));
      assert.equal(readdirSync(tmp()).length, 1);
    });
  });
});
