/**
 * The keys a verifier checks heads with: those the server serves (GET /log/key, every key the log was signed
 * with), or keys the verifier pinned (npm run log:verify -- --key), which the server cannot swap. A head names
 * the key that signed it (keyId), so after a rotation each head is checked with its own key.
 */
import { readFileSync } from "node:fs";
import { createPublicKey, type KeyObject } from "node:crypto";
import type { GetJson } from "../leagues/verify";
import type { TreeHeadRecord } from "../../store/port";
import { keyIdOf, verifyHead } from "./heads";

/** GET /log/key's answer as the verifier reads it (a server from before rotations served only publicKey). */
export interface ServedKeys {
  publicKey?: string;
  /** The origin a pinned verifier key names: heads of any other log are refused. */
  pinnedOrigin?: string;
  keys?: { keyId: string; publicKey: string }[];
}

/** Whether the head is signed by one of the keys, the one it names when it names one (and under the pinned origin, if any). */
export function signedByLog(served: ServedKeys, head: TreeHeadRecord): boolean {
  if (served.pinnedOrigin !== undefined && head.origin !== undefined && served.pinnedOrigin !== head.origin) return false;
  const all = served.keys ?? (served.publicKey ? [{ keyId: keyIdOf(served.publicKey), publicKey: served.publicKey }] : []);
  const candidates = head.keyId === undefined ? all : all.filter((k) => k.keyId === head.keyId);
  return candidates.some((k) => verifyHead(k.publicKey, head));
}

/** A pinned key: SPKI PEM, a signed-note verifier key (<origin>+<hash>+<base64(0x01 || key)>), or a file holding either. */
export function pinnedKey(value: string): { publicKey: KeyObject; origin?: string } {
  const text = /BEGIN PUBLIC KEY|^[^+\s]+\+[0-9a-f]{8}\+/.test(value) ? value : readFileSync(value, "utf8");
  const note = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)\s*$/.exec(text.trim());
  if (note) {
    const bytes = Buffer.from(note[3], "base64");
    if (bytes.length !== 33 || bytes[0] !== 0x01) throw new Error("the verifier key is not an Ed25519 one");
    // An Ed25519 SPKI DER is this fixed prefix and the 32 key bytes.
    const der = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), bytes.subarray(1)]);
    return { publicKey: createPublicKey({ key: der, format: "der", type: "spki" }), origin: note[1] };
  }
  const publicKey = createPublicKey(text);
  if (publicKey.asymmetricKeyType !== "ed25519") throw new Error("the pinned key is not an Ed25519 public key");
  return { publicKey };
}

/**
 * `get` with GET /api/v1/log/key answered by the pinned keys instead of the server: everything that checks a
 * head with the log's key (src/services/log/verify.ts, src/services/log/verify-tables.ts) checks it with these.
 */
export function pinKeys(get: GetJson, values: readonly string[]): GetJson {
  const pinned = values.map(pinnedKey);
  const origins = new Set(pinned.map((p) => p.origin).filter((o) => o !== undefined));
  const answer: ServedKeys = {
    ...(origins.size === 1 ? { pinnedOrigin: [...origins][0] } : {}),
    keys: pinned.map((p) => ({ keyId: keyIdOf(p.publicKey), publicKey: p.publicKey.export({ type: "spki", format: "pem" }).toString() })),
  };
  return async (path) => (path.split("?")[0] === "/api/v1/log/key" ? answer : get(path));
}
