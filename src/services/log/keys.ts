/**
 * Where the public log's signing key comes from, and the public keys the log has been signed with. The private
 * key is never in the store: a database copied, backed up or readable by another local user must not let
 * anyone sign heads. It is LOG_SIGNING_KEY, or the key file (LOG_KEY_FILE, mode 0600, generated on the first
 * start); only public keys, with the tree size each began at, are stored (LogPort.logKeys), so heads signed
 * before a rotation still verify. A database from before this keeps its key in the log's state: the first start
 * moves it to the key file (or checks it is LOG_SIGNING_KEY's) and erases it from the store.
 */
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { LogPort, LogPublicKeyRecord } from "../../store/port";
import { DEFAULT_ORIGIN, generateLogKeyPem, keyIdOf, logKeyFrom, type LogKey } from "./heads";

export interface LogKeySettings {
  /** LOG_SIGNING_KEY: PKCS#8 PEM. */
  signingKey?: string;
  /** LOG_KEY_FILE; absent: a key made for the run (an in-memory database). */
  keyFile?: string;
  /** LOG_KEY_ROTATE: the current key's id (or 8+ leading hex digits of it) to rotate away from. */
  rotate?: string;
  origin: string;
}

/** The key this process signs with and every public key the log was signed with, oldest first. */
export interface LogKeyRing {
  current: LogKey;
  keys: LogPublicKeyRecord[];
}

type KeyStore = Pick<LogPort, "logKeys" | "addLogKey" | "legacyLogKey" | "dropLegacyLogKey" | "logState">;

const short = (keyId: string) => keyId.slice(0, 16);

/**
 * The log's signing key as the settings give it, checked against the stored public keys: a first start records
 * it (from size 0); a key the store does not know is refused unless LOG_KEY_ROTATE names the current one, when it
 * (or, from the key file, a new one) becomes current from the log's size now. `warn` hears what needs the
 * operator's eye but not a refusal.
 */
export async function openLogKeys(store: KeyStore, s: LogKeySettings, warn: (message: string) => void = () => {}): Promise<LogKeyRing> {
  const legacy = await store.legacyLogKey();
  const source = s.signingKey ? "LOG_SIGNING_KEY" : s.keyFile ? `the key file ${s.keyFile}` : "a key made for this run";
  let pem: string;
  if (s.signingKey) pem = s.signingKey;
  else if (!s.keyFile) pem = legacy ?? generateLogKeyPem();
  else pem = readKeyFile(s.keyFile, warn) ?? writeKeyFile(s.keyFile, legacy ?? generateLogKeyPem(), false);
  let key = logKeyFrom(pem, s.origin);
  if (legacy && keyIdOf(logKeyFrom(legacy).publicKey) !== key.keyId) {
    throw new Error(
      `the store holds the log's signing key of an older version, and it is not ${source}'s: the log's heads are signed with the stored one. ` +
        "Give the process that key (or move the key file aside to have it written from the store), then start again.",
    );
  }
  const known = await store.logKeys();
  const current = known.at(-1);
  const record = async (fromSize: number) => store.addLogKey({ keyId: key.keyId, publicKey: key.publicPem, fromSize, addedAt: new Date().toISOString() });
  if (!current) {
    await record(0);
    const first = (await store.logKeys())[0];
    // Two processes starting on one new store with different keys: the first recorded signs, the other stops here.
    if (first.keyId !== key.keyId)
      throw new Error(`another process recorded the log's key ${short(first.keyId)} first; give this process the same key (${source} is another)`);
  } else if (s.rotate && current.keyId.startsWith(s.rotate)) {
    if (key.keyId === current.keyId) {
      if (s.signingKey) throw new Error("LOG_KEY_ROTATE: LOG_SIGNING_KEY is still the current key; set it to the new key to rotate to");
      pem = generateLogKeyPem();
      if (s.keyFile) writeKeyFile(s.keyFile, pem, true);
      key = logKeyFrom(pem, s.origin);
    }
    const { size } = await store.logState();
    await record(size);
    warn(
      `the public log's signing key was rotated: key ${short(key.keyId)} signs from tree size ${size} on (key ${short(current.keyId)} before); remove LOG_KEY_ROTATE`,
    );
  } else if (key.keyId !== current.keyId) {
    const retired = known.some((k) => k.keyId === key.keyId);
    throw new Error(
      `the public log is signed with key ${short(current.keyId)}, and ${source} holds ${retired ? "a retired key" : "another key"} (${short(key.keyId)}): ` +
        `give this process the log's current key, or rotate to a new one with LOG_KEY_ROTATE=${short(current.keyId)} (docs/DEPLOY.md)`,
    );
  } else if (s.rotate) {
    warn(`LOG_KEY_ROTATE=${s.rotate} names no current key (the current one is ${short(current.keyId)}): nothing was rotated; remove the setting`);
  }
  // Only now, with the key safe where it is read from from now on and its public key recorded.
  if (legacy) await store.dropLegacyLogKey();
  return { current: key, keys: await store.logKeys() };
}

/**
 * The configured key, or a fresh one, as the log's key in a store with no key file (tests, tools): its public
 * key is recorded like a server's first start does.
 */
export async function loadLogKey(store: KeyStore, configured: string | undefined, origin = DEFAULT_ORIGIN): Promise<LogKey> {
  return (await openLogKeys(store, { signingKey: configured, origin })).current;
}

/** The key file's PEM, or null when there is none; one readable by others is reported (not refused). */
function readKeyFile(path: string, warn: (message: string) => void): string | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  if (statSync(path).mode & 0o077) warn(`the log's key file ${path} is readable by other users: chmod 600 it`);
  return text;
}

/**
 * Writes the key file with mode 0600 (its folder made 0700), whole or not at all: through a temporary file
 * linked into place (a process that lost the race to create it reads the winner's) or renamed over the old key
 * when `replace`. Resolves with the key the file holds.
 */
function writeKeyFile(path: string, pem: string, replace: boolean): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, pem);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (replace) renameSync(tmp, path);
    else linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    if (!replace) unlinkSync(tmp);
  }
  syncFolder(dirname(path));
  return readFileSync(path, "utf8");
}

function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform opens a folder for fsync; the file itself was synced.
  }
}
