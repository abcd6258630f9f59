import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningServer } from "../../src/server";
import { playNext, seatedFriendGame } from "../support/play";
import { bootServer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

/** The database file and the two SQLite keeps beside it while it is open. */
const filesOf = (database: string) => [database, `${database}-wal`, `${database}-shm`];

/**
 * Whether this machine can make a file unwritable for the test's own user. The suite runs as root, whom
 * permission bits do not stop (chmod 444 and root still writes, through an open descriptor or a new one); the
 * immutable attribute (chattr +i, ext4 and xfs, CAP_LINUX_IMMUTABLE) refuses every write, even root's through
 * a descriptor opened before, which is what a disk gone read-only does to a running server.
 */
function canMakeImmutable(dir: string): boolean {
  const probe = join(dir, "probe");
  writeFileSync(probe, "x");
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}

const immutable = (files: string[], on: boolean) => execFileSync("chattr", [on ? "+i" : "-i", ...files.filter((f) => existsSync(f))], { stdio: "ignore" });

describe("Integration: a store that cannot keep what it is given is reported and refuses work", function () {
  this.timeout(60_000);
  const dir = useTempDir("arena-store-failure-", "each");
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close().catch(() => undefined);
    server = undefined;
  });

  /** A started friend game with both tokens and one move played, on a server storing into `database`. */
  async function gameUnderWay(database: string) {
    server = await bootServer({ database });
    const { id, tokens } = await seatedFriendGame(server.url);
    const move = () => playNext(server!.url, id, tokens);
    assert.equal((await move()).status, 200);
    assert.equal((await http(server.url, "GET", "/healthz")).status, 200);
    return { id, move };
  }

  /** What every client of a broken store must see: /healthz not ok, and work refused with 503 `unavailable`. */
  async function assertRefusesWork(move: () => ReturnType<typeof http>) {
    // A probe write may be at most a second old (the store probes at most once a second).
    let health = await http(server!.url, "GET", "/healthz");
    for (let i = 0; i < 30 && health.status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      health = await http(server!.url, "GET", "/healthz");
    }
    assert.equal(health.status, 503, health.text);
    assert.equal(health.json.ok, false);
    assert.equal(health.json.store.ok, false);
    const moved = await move();
    assert.equal(moved.status, 503, moved.text);
    assert.equal(moved.json.code, "unavailable");
    assert.match(moved.headers.get("content-type") ?? "", /application\/problem\+json/);
    for (const body of [{ opponent: "friend" }, { opponent: "house", level: "easy" }, { opponent: "hosted" }]) {
      const created = await http(server!.url, "POST", "/api/v1/games", body);
      assert.equal(created.status, 503, `${body.opponent}: ${created.text}`);
      assert.equal(created.json.code, "unavailable");
      assert.match(created.headers.get("content-type") ?? "", /application\/problem\+json/);
    }
  }

  it("reports data files deleted while running, and acknowledges no move or game after", async () => {
    const database = join(dir(), "arena.sqlite");
    const { move } = await gameUnderWay(database);
    for (const f of filesOf(database)) rmSync(f, { force: true });
    await assertRefusesWork(move);
  });

  it("reports data files that cannot be written (immutable even to root), and answers 503, never 500", async function () {
    if (!canMakeImmutable(dir())) this.skip();
    const database = join(dir(), "arena.sqlite");
    const { move } = await gameUnderWay(database);
    // Not the -shm file: SQLite writes it through a memory map, and a store to a mapped page of an immutable
    // file is a SIGBUS that ends the process (its content is only an index, rebuilt from the WAL at the next start).
    const files = filesOf(database).slice(0, 2);
    immutable(files, true);
    try {
      await assertRefusesWork(move);
    } finally {
      immutable(files, false);
    }
  });
});
