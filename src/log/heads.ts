/**
 * Signed tree heads: the log's size and root hash at a time, signed with Ed25519 (node:crypto). What is signed
 * is the RFC 8785 canonical JSON of { rootHash, size, timestamp }, so anyone can check a head with the public
 * key and a JSON canonicaliser. The key is the operator's (LOG_SIGNING_KEY) or one generated on the first start
 * and kept in the store, so every process sharing the store signs with the same key.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import type { LogPort, TreeHeadRecord } from "../store/port";
import { canonicalBytes } from "./canonical";

export interface LogKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key: what clients verify heads with. */
  publicPem: string;
  /** sha256 hex of the public key's DER: names the key in a head. */
  keyId: string;
}

export function logKeyFrom(privatePem: string): LogKey {
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the public log's signing key must be an Ed25519 key (PKCS#8 PEM)");
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    privateKey,
    publicKey,
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    keyId: createHash("sha256").update(der).digest("hex"),
  };
}

/** The configured key, or the one kept in the store (generated and stored by the first process to start). */
export async function loadLogKey(store: Pick<LogPort, "ensureLogKey">, configured: string | undefined): Promise<LogKey> {
  if (configured) return logKeyFrom(configured);
  const fresh = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return logKeyFrom(await store.ensureLogKey(fresh));
}

const signedPart = (h: Pick<TreeHeadRecord, "rootHash" | "size" | "timestamp">) =>
  canonicalBytes({ rootHash: h.rootHash, size: h.size, timestamp: h.timestamp });

export function signHead(key: LogKey, head: Omit<TreeHeadRecord, "signature">): TreeHeadRecord {
  return { ...head, signature: sign(null, signedPart(head), key.privateKey).toString("base64") };
}

/** Whether the head's signature is the key's over its size, root and time. */
export function verifyHead(publicKey: KeyObject | string, head: TreeHeadRecord): boolean {
  try {
    return verify(null, signedPart(head), publicKey, Buffer.from(head.signature, "base64"));
  } catch {
    return false;
  }
}
