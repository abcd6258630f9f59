/**
 * Signed tree heads: the log's size and root hash at a time, signed with Ed25519 (node:crypto) as a C2SP
 * checkpoint (c2sp.org/tlog-checkpoint, a signed note: c2sp.org/signed-note). The signed bytes are the note
 * text "<origin>\n<size>\n<base64 root>\n<timestamp>\n": the origin binds a head to this log, and the note's
 * signature line names the key (its 4-byte key hash), so a head can neither be passed off as another log's
 * nor checked against the wrong key after a rotation. The JSON head carries the same signature with the origin
 * and the key's id; GET /log/checkpoint serves the note itself. Heads stored before the checkpoint format (no
 * origin) were signed over the RFC 8785 canonical JSON of { rootHash, size, timestamp } and still verify.
 * Where the private key comes from (never the store) is src/services/log/keys.ts.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import type { TreeHeadRecord } from "../../store/port";
import { canonicalBytes } from "./canonical";

/** The origin of a log built without one (tests, tools): a real server derives its own (LOG_ORIGIN). */
export const DEFAULT_ORIGIN = "localhost/log";

export interface LogKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key: what clients verify heads with. */
  publicPem: string;
  /** sha256 hex of the public key's DER: names the key in a head. */
  keyId: string;
  /** The log's origin: the checkpoint's first line and the note key's name. */
  origin: string;
}

/** The SHA-256 hex of a public key's SPKI DER: the key id heads and GET /log/key name. */
export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  return createHash("sha256")
    .update(key.export({ type: "spki", format: "der" }))
    .digest("hex");
}

/** A PKCS#8 PEM private key as the log's key under `origin`; refused unless Ed25519. */
export function logKeyFrom(privatePem: string, origin = DEFAULT_ORIGIN): LogKey {
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the public log's signing key must be an Ed25519 key (PKCS#8 PEM)");
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey), origin };
}

/** A fresh Ed25519 private key, PKCS#8 PEM. */
export function generateLogKeyPem(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** The raw 32 bytes of an Ed25519 public key (the last 32 of its SPKI DER). */
const rawPublic = (publicKey: KeyObject) => publicKey.export({ type: "spki", format: "der" }).subarray(-32);

/** The signed-note key hash of an Ed25519 key named `name`: the first 4 bytes of SHA-256(name || "\n" || 0x01 || key). */
export function noteKeyHash(name: string, publicKey: KeyObject | string): Buffer {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([0x01]), rawPublic(key)]))
    .digest()
    .subarray(0, 4);
}

/** The signed-note verifier key ("<name>+<hex key hash>+<base64(0x01 || key)>"), as Go's golang.org/x/mod/sumdb/note reads it. */
export function verifierKey(name: string, publicKey: KeyObject | string): string {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  return `${name}+${noteKeyHash(name, key).toString("hex")}+${Buffer.concat([Buffer.from([0x01]), rawPublic(key)]).toString("base64")}`;
}

type HeadFields = Pick<TreeHeadRecord, "rootHash" | "size" | "timestamp">;

/** The checkpoint's note text (what is signed): origin, size, base64 root, the time as an extension line. */
export function checkpointText(origin: string, h: HeadFields): string {
  if (!origin || /[\n\s+]/.test(origin)) throw new Error(`a log origin is one word without spaces or '+': ${JSON.stringify(origin)}`);
  return `${origin}\n${h.size}\n${Buffer.from(h.rootHash, "hex").toString("base64")}\n${h.timestamp}\n`;
}

const legacySigned = (h: HeadFields) => canonicalBytes({ rootHash: h.rootHash, size: h.size, timestamp: h.timestamp });

/** A head signed as a checkpoint: it names its origin and its key. */
export type SignedHead = TreeHeadRecord & { origin: string; keyId: string };

export function signHead(key: LogKey, head: Omit<TreeHeadRecord, "signature" | "origin" | "keyId">): SignedHead {
  const fields = { size: head.size, rootHash: head.rootHash, timestamp: head.timestamp };
  const signature = sign(null, Buffer.from(checkpointText(key.origin, fields)), key.privateKey).toString("base64");
  return { ...fields, origin: key.origin, keyId: key.keyId, signature };
}

/** Whether the head's signature is the key's over its origin, size, root and time (a head from before origins: over its canonical JSON). */
export function verifyHead(publicKey: KeyObject | string, head: TreeHeadRecord): boolean {
  try {
    const signed = head.origin === undefined ? legacySigned(head) : Buffer.from(checkpointText(head.origin, head));
    return verify(null, signed, publicKey, Buffer.from(head.signature, "base64"));
  } catch {
    return false;
  }
}

/** A signed head as a C2SP checkpoint: its note text, a blank line and the log's signature line. */
export function checkpointOf(head: TreeHeadRecord, publicKey: KeyObject | string): string {
  if (head.origin === undefined) throw new Error(`the head of size ${head.size} predates checkpoints (it names no origin)`);
  const sig = Buffer.concat([noteKeyHash(head.origin, publicKey), Buffer.from(head.signature, "base64")]).toString("base64");
  return `${checkpointText(head.origin, head)}\n\u2014 ${head.origin} ${sig}\n`;
}

/** A checkpoint parsed back into a head (its signature the one by `origin`'s key hash of `publicKey`), or why not. */
export function parseCheckpoint(note: string, publicKey: KeyObject | string): TreeHeadRecord | string {
  const split = note.indexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) return "not a signed note (no blank line before the signatures, or no final newline)";
  const lines = note
    .slice(0, split + 1)
    .split("\n")
    .slice(0, -1);
  if (lines.length < 4) return "the note text is not origin, size, root hash and time";
  const [origin, sizeLine, root, timestamp] = lines;
  if (!/^(0|[1-9]\d*)$/.test(sizeLine)) return `the tree size ${JSON.stringify(sizeLine)} is not a decimal number`;
  const rootBytes = Buffer.from(root, "base64");
  if (rootBytes.length !== 32 || rootBytes.toString("base64") !== root) return "the root hash is not 32 bytes of base64";
  const want = noteKeyHash(origin, publicKey);
  for (const line of note.slice(split + 2, -1).split("\n")) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) return `a signature line is malformed: ${JSON.stringify(line)}`;
    const bytes = Buffer.from(m[2], "base64");
    if (m[1] !== origin || bytes.length !== 68 || !bytes.subarray(0, 4).equals(want)) continue;
    const head: TreeHeadRecord = {
      size: Number(sizeLine),
      rootHash: rootBytes.toString("hex"),
      timestamp,
      origin,
      keyId: keyIdOf(publicKey),
      signature: bytes.subarray(4).toString("base64"),
    };
    if (note.slice(0, split + 1) !== checkpointText(origin, head)) return "the note text has lines this log does not sign";
    return verifyHead(publicKey, head) ? head : "the log's signature does not verify with the key";
  }
  return `no signature line by ${origin} with this key`;
}
