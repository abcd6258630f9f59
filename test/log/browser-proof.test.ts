/**
 * The replay page's in-browser proof check (web/src/lib/log-proof.ts, on Web Crypto) against the server's own
 * tree and signing (src/services/log/merkle.ts, src/services/log/heads.ts on node:crypto): every leaf of every tree size up to 20
 * is found included, a changed path, index, entry or root is not, and a head's Ed25519 signature is verified
 * with the key as GET /api/v1/log/key serves it, a changed head refused.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { canonicalBytes } from "../../src/services/log/canonical";
import { logKeyFrom, signHead } from "../../src/services/log/heads";
import { appendLeaf, evaluate, frontierRoot, inclusionPlan, leafHash, refKey, type Hash } from "../../src/services/log/merkle";
import { checkHeadSignature, checkProof, leafHashOf } from "../../web/src/lib/log-proof";

const key = logKeyFrom(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
// Members out of order and a non-ASCII string: the leaf is the canonical JSON's UTF-8 bytes.
const entryOf = (i: number) => ({ z: i, gameId: `g_${i}`, a: { name: `Zoë ${i}`, moves: [i, i + 1] }, kind: "game" });

function tree(size: number) {
  const nodes = new Map<string, Hash>();
  let frontier: Hash[] = [];
  for (let i = 0; i < size; i++) {
    const next = appendLeaf(frontier, i, leafHash(canonicalBytes(entryOf(i))));
    frontier = next.frontier;
    for (const n of next.nodes) nodes.set(refKey(n), n.hash);
  }
  const head = signHead(key, { size, rootHash: frontierRoot(frontier).toString("hex"), timestamp: "2026-11-28T11:00:00.000Z" });
  const pathOf = (index: number) => inclusionPlan(index, size).map((e) => evaluate(e, nodes).toString("hex"));
  return { head, pathOf };
}

describe("Public log: the browser's inclusion check", () => {
  it("hashes a leaf as the server does", async () => {
    for (let i = 0; i < 5; i++) assert.equal(Buffer.from(await leafHashOf(entryOf(i))).toString("hex"), leafHash(canonicalBytes(entryOf(i))).toString("hex"));
  });

  it("finds every entry of every tree size up to 20 included, and no changed proof", async () => {
    for (let size = 1; size <= 20; size++) {
      const { head, pathOf } = tree(size);
      for (let index = 0; index < size; index++) {
        const path = pathOf(index);
        const ok = await checkProof({ head, publicKeyPem: key.publicPem, entry: entryOf(index), index, path });
        assert.deepEqual(ok, { included: true, signature: "verified" }, `size ${size} index ${index}`);
        const no = async (p: Partial<Parameters<typeof checkProof>[0]>, what: string) =>
          assert.equal(
            (await checkProof({ head, publicKeyPem: key.publicPem, entry: entryOf(index), index, path, ...p })).included,
            false,
            `${what}: size ${size} index ${index}`,
          );
        await no({ entry: { ...entryOf(index), z: -1 } }, "changed entry");
        await no({ path: [...path, "00".repeat(32)] }, "longer path");
        if (size > 1) {
          await no({ index: (index + 1) % size }, "other index");
          await no({ path: path.map((h, k) => (k === 0 ? (h[0] === "0" ? "1" : "0") + h.slice(1) : h)) }, "changed path");
          await no({ path: path.slice(1) }, "shorter path");
        }
        await no({ index: size }, "index outside the tree");
      }
    }
  });

  it("verifies the head's Ed25519 signature with the served key and refuses a changed head", async () => {
    const { head } = tree(3);
    assert.equal(await checkHeadSignature(head, key.publicPem), "verified");
    assert.equal(await checkHeadSignature({ ...head, size: 4 }, key.publicPem), "invalid");
    assert.equal(await checkHeadSignature({ ...head, rootHash: "00".repeat(32) }, key.publicPem), "invalid");
    const other = logKeyFrom(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    assert.equal(await checkHeadSignature(head, other.publicPem), "invalid");
    assert.equal(await checkHeadSignature({ ...head, signature: "not base64!" }, key.publicPem), "invalid");
  });
});
