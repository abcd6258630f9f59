/**
 * The public log's signing key kept out of the data: on a real server's SQLite files, no byte of the private
 * key is in the database, its WAL or its shared memory, after a first start and after moving an older
 * database's stored key out; the folder and files are the service user's only; LOG_SIGNING_KEY is used as
 * given; a rotation keeps older heads verifiable and the log growing; the checkpoint parses and verifies; and
 * log:verify pins the key with --key.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { httpGetJson } from "../../src/services/leagues/verify";
import { generateLogKeyPem, keyIdOf, logKeyFrom, parseCheckpoint } from "../../src/services/log/heads";
import { verifyLog } from "../../src/services/log/verify";
import type { RunningServer } from "../../src/server";
import type { TreeHeadRecord } from "../../src/store";
import { SqliteStore } from "../../src/store/sqlite";
import type { Config } from "../../src/shared/config";
import { playToEnd } from "../agents/play";
import { bootServer, http } from "../support/server";

const run = promisify(execFile);
const ORIGIN = "arena.test/log";

/** The ways a private key's bytes could sit in a file: its PEM body, its DER, and its 32-byte seed. */
function keyTraces(pem: string): Buffer[] {
  const der = createPrivateKey(pem).export({ type: "pkcs8", format: "der" });
  return [Buffer.from(pem.replace(/-----[^-]+-----|\s/g, "")), der, der.subarray(-32)];
}

/** The database's files that exist, and any that holds a trace of the key. */
function filesHolding(database: string, pem: string): { files: string[]; holding: string[] } {
  const files = [database, `${database}-wal`, `${database}-shm`].filter((f) => existsSync(f));
  return { files, holding: files.filter((f) => keyTraces(pem).some((t) => readFileSync(f).includes(t))) };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("Integration: the public log's signing key", function () {
  this.timeout(90_000);
  let dir: string;
  let data: string;
  let database: string;
  let keyFile: string;
  let server: RunningServer | undefined;

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), "log-keys-"));
    data = join(dir, "data");
    database = join(data, "arena.db");
    keyFile = join(data, "log-signing.key");
  });
  afterEach(async function () {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const boot = async (over: Partial<Config> = {}) => {
    server = await bootServer({ database, logBatchMs: 50, logOrigin: ORIGIN, ...over });
    return server;
  };
  const restart = async (over: Partial<Config> = {}) => {
    await server?.close();
    server = undefined;
    return boot(over);
  };
  const get = (path: string) => http(server!.url, "GET", `/api/v1${path}`);

  async function finishGame(): Promise<number> {
    const before = (await get("/log/head")).json.size as number;
    const created = await http(server!.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
    await playToEnd(server!.url, created.json.game.id as string, created.json.playerToken as string);
    for (let i = 0; i < 200 && (await get("/log/head")).json.size === before; i++) await new Promise((r) => setTimeout(r, 50));
    return (await get("/log/head")).json.size as number;
  }

  it("keeps the generated key in a 0600 file of a 0700 folder, and no byte of it in the database files", async function () {
    await boot();
    await finishGame();
    const pem = readFileSync(keyFile, "utf8");
    assert.equal((await get("/log/key")).json.keyId, logKeyFrom(pem).keyId, "the server signs with the key file's key");
    assert.equal(mode(data), 0o700);
    assert.equal(mode(keyFile), 0o600);
    const { files, holding } = filesHolding(database, pem);
    assert.ok(files.includes(`${database}-wal`), "the WAL is looked at while the server runs");
    for (const f of files) assert.equal(mode(f), 0o600, `${f} is the service user's only`);
    assert.deepEqual(holding, []);
    await server!.close();
    server = undefined;
    assert.deepEqual(filesHolding(database, pem).holding, [], "nor after the server closed");
  });

  it("moves an older database's stored key to the key file and erases it from the database, its WAL and free pages", async function () {
    // A database as an older version left it: the key in log_state.signing_key, files readable by all.
    const store = new SqliteStore({ path: database, checkpointMs: 0 });
    await store.init();
    await store.close();
    const legacy = generateLogKeyPem();
    const raw = new Database(database);
    raw.exec("ALTER TABLE log_state ADD COLUMN signing_key TEXT");
    raw.prepare("UPDATE log_state SET signing_key = ? WHERE id = 1").run(legacy);
    raw.close();
    const old = new Database(database);
    old.pragma("wal_autocheckpoint = 0");
    // A later write leaves the key's page in the WAL too, as an older server's writes would.
    old.prepare("UPDATE log_state SET lease_until = ? WHERE id = 1").run(new Date(0).toISOString());
    const before = filesHolding(database, legacy).holding;
    assert.deepEqual(before, [database, `${database}-wal`], "the old database holds the key in its file and its WAL");
    old.close();

    await boot();
    assert.equal(readFileSync(keyFile, "utf8"), legacy, "the stored key is the key file's now");
    assert.equal(mode(keyFile), 0o600);
    assert.equal((await get("/log/key")).json.keyId, logKeyFrom(legacy).keyId, "the log keeps signing with its key");
    await finishGame();
    assert.deepEqual(filesHolding(database, legacy).holding, [], "no trace of the key in the database files");
    for (const f of filesHolding(database, legacy).files) assert.equal(mode(f), 0o600);
    await server!.close();
    server = undefined;
    const check = new Database(database, { readonly: true });
    const columns = (check.pragma("table_info(log_state)") as { name: string }[]).map((c) => c.name);
    const keys = check.prepare("SELECT key_id, from_size FROM log_keys").all();
    check.close();
    assert.ok(!columns.includes("signing_key"), "the column is gone");
    assert.deepEqual(keys, [{ key_id: logKeyFrom(legacy).keyId, from_size: 0 }], "only its public key is stored");
  });

  it("signs with LOG_SIGNING_KEY, writes no key file, and refuses a stored older key that is not it", async function () {
    const pem = generateLogKeyPem();
    await boot({ logSigningKey: pem });
    assert.equal((await get("/log/key")).json.keyId, logKeyFrom(pem).keyId);
    assert.ok(!existsSync(keyFile), "no key file beside a configured key");
    await finishGame();
    assert.deepEqual(filesHolding(database, pem).holding, []);
    await server!.close();
    server = undefined;
    await assert.rejects(boot({ logSigningKey: generateLogKeyPem() }), /is signed with key/, "another key than the log's is refused");
  });

  it("rotates to a new key that signs on from the log's size; older heads still verify and the log continues", async function () {
    await boot();
    await finishGame();
    const oldHead = (await get("/log/head")).json as TreeHeadRecord;
    const oldKey = (await get("/log/key")).json as { keyId: string };
    const oldPem = readFileSync(keyFile, "utf8");

    await restart({ logKeyRotate: oldKey.keyId.slice(0, 12) });
    const rotated = (await get("/log/key")).json as { keyId: string; keys: { keyId: string; fromSize: number }[] };
    assert.notEqual(rotated.keyId, oldKey.keyId);
    assert.notEqual(readFileSync(keyFile, "utf8"), oldPem, "the key file holds the new key");
    assert.equal(mode(keyFile), 0o600);
    assert.deepEqual(
      rotated.keys.map((k) => [k.keyId, k.fromSize]),
      [
        [oldKey.keyId, 0],
        [rotated.keyId, oldHead.size],
      ],
    );
    assert.equal(await finishGame(), oldHead.size + 1, "the log continues");
    const newHead = (await get("/log/head")).json as TreeHeadRecord;
    assert.equal(newHead.keyId, rotated.keyId);
    const report = await verifyLog(httpGetJson(server!.url), { since: oldHead });
    assert.deepEqual(report.problems, [], "the old head verifies with the old key, and the log only grew since");

    // The setting left in place rotates nothing more.
    await restart({ logKeyRotate: oldKey.keyId.slice(0, 12) });
    assert.equal((await get("/log/key")).json.keyId, rotated.keyId);
    assert.deepEqual(filesHolding(database, oldPem).holding, []);
  });

  it("serves the head as a checkpoint that parses and verifies with the public key and names the origin", async function () {
    await boot();
    await finishGame();
    const res = await fetch(`${server!.url}/api/v1/log/checkpoint`);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const note = await res.text();
    const head = (await get("/log/head")).json as TreeHeadRecord;
    const key = (await get("/log/key")).json as { publicKey: string; origin: string };
    assert.equal(key.origin, ORIGIN);
    assert.equal(note.split("\n")[0], ORIGIN, "the first line is the origin");
    assert.match(note, /\n\n\u2014 arena\.test\/log [A-Za-z0-9+/]+=*\n$/);
    assert.deepEqual(parseCheckpoint(note, key.publicKey), head);
    assert.equal(head.origin, ORIGIN);
    assert.equal(head.keyId, keyIdOf(key.publicKey));
    assert.equal(typeof parseCheckpoint(note, logKeyFrom(generateLogKeyPem()).publicKey), "string", "another key does not verify it");
    assert.equal(typeof parseCheckpoint(note.replace(`\n${head.size}\n`, `\n${head.size + 1}\n`), key.publicKey), "string", "nor a changed size");
  });

  it("log:verify fails with a wrong --key, passes with the right one, and warns without one", async function () {
    await boot();
    await finishGame();
    const cli = join(process.cwd(), "src/cli/log-verify.ts");
    const key = (await get("/log/key")).json as { publicKey: string; verifierKey: string };
    const right = join(dir, "log.pub");
    writeFileSync(right, key.publicKey);
    const wrong = join(dir, "other.pub");
    writeFileSync(wrong, logKeyFrom(generateLogKeyPem()).publicPem);
    const cmd = (...args: string[]) => run(process.execPath, ["--import", "tsx", cli, server!.url, ...args]);

    const bad = await cmd("--key", wrong).catch((e: { code: number; stderr: string }) => e);
    assert.equal((bad as { code: number }).code, 1);
    assert.match((bad as { stderr: string }).stderr, /not signed by the log's key/);
    const ok = await cmd("--key", right);
    assert.match(ok.stdout, /0 mismatches/);
    assert.doesNotMatch(ok.stderr, /warning/);
    const vkey = await cmd("--key", key.verifierKey);
    assert.match(vkey.stdout, /0 mismatches/, "a signed-note verifier key pins it too");
    const trusting = await cmd();
    assert.match(trusting.stderr, /warning: trusting the key the server serves/);
  });
});
