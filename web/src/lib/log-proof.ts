// The public log's inclusion proof, checked in the browser with Web Crypto (RFC 9162): the entry's leaf hash
// recomputed as SHA-256(0x00 || its canonical JSON), the root rebuilt from the audit path and compared with
// the signed head's, and the head's Ed25519 signature checked where the browser's Web Crypto offers Ed25519.
// The same steps as src/services/log/merkle.ts and src/services/log/heads.ts, which run on node:crypto and cannot ship here.
import { canonicalJson } from "../../../src/services/log/canonical";
import type { TreeHead } from "./api-types";

export interface ProofInput {
  /** The signed head, as GET /api/v1/log/head serves it. */
  head: TreeHead;
  /** The key's SPKI PEM, as GET /api/v1/log/key serves it. */
  publicKeyPem: string;
  /** The entry as the entries endpoint serves it (parsed JSON). */
  entry: unknown;
  index: number;
  /** Hex hashes, leaf side first. */
  path: string[];
}

/** "unchecked": this browser has no Ed25519 in Web Crypto, so the signature is left to the verifier. */
export type SignatureCheck = "verified" | "invalid" | "unchecked";

export interface ProofCheck {
  /** The audit path leads from the entry to the head's root. */
  included: boolean;
  signature: SignatureCheck;
}

const bytes = (hex: string): Uint8Array => {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return new Uint8Array(0);
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
};
const toHex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> => new Uint8Array(await crypto.subtle.digest("SHA-256", data));
/** Base64 to bytes; null when it is not base64. */
const base64 = (b64: string): Uint8Array<ArrayBuffer> | null => {
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
};
const utf8 = (s: string) => new TextEncoder().encode(s);

/** SHA-256(0x00 || the entry's canonical JSON): the entry's leaf hash. */
export const leafHashOf = async (entry: unknown): Promise<Uint8Array> => sha256(concat(Uint8Array.of(0), utf8(canonicalJson(entry))));

/** The root an audit path leads to from `leaf` at `index` of a tree of `size` (RFC 9162 2.1.3.2); null when the path cannot be one. */
export async function rootFromPath(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[]): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0 || p.length !== 32) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(concat(Uint8Array.of(1), p, r));
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await sha256(concat(Uint8Array.of(1), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/**
 * The head's signature over its checkpoint note text (origin, size, base64 root, time: src/services/log/heads.ts);
 * "unchecked" without Ed25519. The API serves every head so signed: one stored before heads named their
 * origin is signed again as a checkpoint when it is served.
 */
export async function checkHeadSignature(head: TreeHead, publicKeyPem: string): Promise<SignatureCheck> {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey("spki", base64(publicKeyPem.replace(/-----[^-]+-----|\s/g, "")) ?? new Uint8Array(0), { name: "Ed25519" }, false, [
      "verify",
    ]);
  } catch (e) {
    // A browser without Ed25519 refuses the algorithm itself; a key it cannot read is the log's fault.
    return e instanceof DOMException && e.name === "NotSupportedError" ? "unchecked" : "invalid";
  }
  const signature = base64(head.signature);
  if (!signature) return "invalid";
  const root = btoa(String.fromCharCode(...bytes(head.rootHash)));
  const signed = utf8(`${head.origin}\n${head.size}\n${root}\n${head.timestamp}\n`);
  return (await crypto.subtle.verify({ name: "Ed25519" }, key, signature, signed)) ? "verified" : "invalid";
}

export async function checkProof(p: ProofInput): Promise<ProofCheck> {
  const root = await rootFromPath(await leafHashOf(p.entry), p.index, p.head.size, p.path.map(bytes));
  return { included: root !== null && toHex(root) === p.head.rootHash.toLowerCase(), signature: await checkHeadSignature(p.head, p.publicKeyPem) };
}
