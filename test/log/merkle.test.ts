/**
 * The Merkle tree core against RFC 6962/9162 test vectors (the certificate-transparency reference tests'
 * eight leaves) and against a naive implementation written here from the RFC's recursive definitions, for
 * every tree size 1..64, every leaf and every pair of sizes.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  appendLeaf,
  consistencyPlan,
  EMPTY_ROOT,
  evaluate,
  frontierRefs,
  frontierRoot,
  inclusionPlan,
  leafHash,
  leafHashHex,
  refKey,
  refsOf,
  rootExpr,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type HashExpr,
} from "../../src/services/log/merkle";

const sha = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};

// ---- the naive implementation: RFC 9162 2.1.1, 2.1.3.1 and 2.1.4.1 written as they read --------------
const k = (n: number) => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha();
  if (d.length === 1) return sha(Buffer.of(0), d[0]);
  const s = k(d.length);
  return sha(Buffer.of(1), mth(d.slice(0, s)), mth(d.slice(s)));
}
function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length === 1) return [];
  const s = k(d.length);
  return m < s ? [...path(m, d.slice(0, s)), mth(d.slice(s))] : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  const n = d.length;
  if (m === n) return b ? [] : [mth(d)];
  const s = k(n);
  return m <= s ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))] : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
}
const proof = (m: number, d: Buffer[]) => (m === 0 || m === d.length ? [] : subproof(m, d, true));

// ---- the core, with its nodes built by appendLeaf as the log builds them -----------------------------
function grow(leaves: Buffer[]) {
  const nodes = new Map<string, Hash>();
  let frontier: Hash[] = [];
  const roots: Hash[] = [EMPTY_ROOT];
  leaves.forEach((leaf, i) => {
    const next = appendLeaf(frontier, i, leafHash(leaf));
    frontier = next.frontier;
    for (const n of next.nodes) nodes.set(refKey(n), n.hash);
    roots.push(frontierRoot(frontier));
  });
  const ev = (plan: HashExpr[]) => plan.map((e) => evaluate(e, nodes));
  return { nodes, roots, ev };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const h = (s: string) => Buffer.from(s, "hex");

// RFC 6962's reference tests (certificate-transparency, merkle_tree_test): eight leaves and the roots of
// the trees of their first 1..8.
const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(h);
const ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

describe("Merkle tree (RFC 9162)", function () {
  it("gives the empty tree sha256 of the empty string", function () {
    assert.equal(hex(EMPTY_ROOT), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(rootExpr(0), null);
  });

  it("hashes a stored entry's JSON text as the leaf of its UTF-8 bytes (leafHashHex)", function () {
    for (const text of ["", '{"gameId":"F0000001"}', '{"name":"Zoë 名前 🃏"}']) {
      assert.equal(leafHashHex(text), sha(Buffer.of(0), Buffer.from(text, "utf8")).toString("hex"), text);
      assert.equal(leafHashHex(text), leafHash(Buffer.from(text, "utf8")).toString("hex"), text);
    }
  });

  it("reproduces the reference roots of the trees of 1..8 leaves", function () {
    const { roots } = grow(LEAVES);
    assert.deepEqual(roots.slice(1).map(hex), ROOTS);
    // The naive implementation agrees, so the vectors are the RFC's hashing, not the core's.
    assert.deepEqual(
      LEAVES.map((_, i) => hex(mth(LEAVES.slice(0, i + 1)))),
      ROOTS,
    );
  });

  it("matches the naive implementation's roots, audit paths and consistency proofs for every size up to 64", function () {
    const leaves = Array.from({ length: 64 }, (_, i) => Buffer.from(`leaf ${i}`));
    const { roots, ev, nodes } = grow(leaves);
    for (let n = 1; n <= 64; n++) {
      const d = leaves.slice(0, n);
      const root = mth(d);
      assert.equal(hex(roots[n]), hex(root), `root of ${n}`);
      assert.equal(hex(evaluate(rootExpr(n)!, nodes)), hex(root), `root expression of ${n}`);
      assert.equal(hex(frontierRoot(frontierRefs(n).map((r) => nodes.get(refKey(r))!))), hex(root), `frontier of ${n}`);
      for (let m = 0; m < n; m++) {
        const got = ev(inclusionPlan(m, n));
        assert.deepEqual(got.map(hex), path(m, d).map(hex), `path of ${m} in ${n}`);
        assert.ok(verifyInclusion(leafHash(d[m]), m, n, got, root), `verifies ${m} in ${n}`);
        // Any other leaf, index or size fails.
        assert.ok(!verifyInclusion(leafHash(Buffer.from("other")), m, n, got, root));
        if (n > 1) assert.ok(!verifyInclusion(leafHash(d[m]), (m + 1) % n, n, got, root), `wrong index ${m} in ${n}`);
      }
      for (let m = 0; m <= n; m++) {
        const got = ev(consistencyPlan(m, n));
        assert.deepEqual(got.map(hex), proof(m, d).map(hex), `consistency ${m}..${n}`);
        assert.ok(verifyConsistency(m, n, roots[m], root, got), `verifies consistency ${m}..${n}`);
        if (m > 0 && m < n) {
          assert.ok(!verifyConsistency(m, n, roots[m - 1], root, got), `a wrong old root ${m}..${n}`);
          assert.ok(!verifyConsistency(m, n, roots[m], roots[n - 1], got), `a wrong new root ${m}..${n}`);
          assert.ok(!verifyConsistency(m, n, roots[m], root, got.slice(1)), `a short proof ${m}..${n}`);
        }
      }
    }
  });

  it("rejects a consistency proof between trees that are not prefixes of one another", function () {
    const a = grow(Array.from({ length: 9 }, (_, i) => Buffer.from(`a${i}`)));
    const b = grow([...Array.from({ length: 4 }, (_, i) => Buffer.from(`a${i}`)), ...Array.from({ length: 5 }, (_, i) => Buffer.from(`b${i}`))]);
    // b agrees with a on its first 4 leaves only: 4..9 holds, 6..9 must not.
    assert.ok(verifyConsistency(4, 9, a.roots[4], b.roots[9], b.ev(consistencyPlan(4, 9))));
    assert.ok(!verifyConsistency(6, 9, a.roots[6], b.roots[9], b.ev(consistencyPlan(6, 9))));
  });

  it("plans a proof in a tree of a million leaves from about log2(n) stored nodes", function () {
    const refs = refsOf([...inclusionPlan(123_457, 1_000_000), ...consistencyPlan(654_321, 1_000_000)]);
    assert.ok(refs.length <= 2 * 40, `${refs.length} nodes`);
    for (const r of refs) assert.ok((r.index + 1) * 2 ** r.level <= 1_000_000, "only complete subtrees of the tree");
  });

  it("refuses an index outside the tree and sizes out of order", function () {
    assert.throws(() => inclusionPlan(5, 5), RangeError);
    assert.throws(() => consistencyPlan(6, 5), RangeError);
    assert.ok(!verifyInclusion(EMPTY_ROOT, 0, 0, [], EMPTY_ROOT));
  });
});
