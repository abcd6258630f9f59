/**
 * The Merkle tree of the public game log, as RFC 9162 (Certificate Transparency 2.0) defines it: SHA-256,
 * a leaf hashed as H(0x00 || leaf), an interior node as H(0x01 || left || right), a tree of n leaves split at
 * the largest power of two below n. Pure: the proofs are planned as expressions over complete, aligned
 * subtrees (NodeRef), which the caller looks up in one batch wherever it keeps them (the store's log port, src/store/ports/log.ts, keeps
 * every complete subtree's hash as the log grows), so a proof in a log of any size costs O(log n) lookups.
 */
import { createHash } from "node:crypto";

export type Hash = Buffer;

/** sha256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT: Hash = createHash("sha256").digest();

/** RFC 9162's domain separation: 0x00 before a leaf. */
const LEAF_PREFIX = Buffer.of(0);

export function leafHash(leaf: Uint8Array): Hash {
  return createHash("sha256").update(LEAF_PREFIX).update(leaf).digest();
}

/** The leaf hash of an entry's stored JSON, as hex: no buffer is made for the leaf or the digest. */
export function leafHashHex(leaf: string): string {
  return createHash("sha256").update(LEAF_PREFIX).update(leaf, "utf8").digest("hex");
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  return createHash("sha256").update(Buffer.of(1)).update(left).update(right).digest();
}

/** The largest power of two strictly below n (n >= 2): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  if (!Number.isSafeInteger(n) || n < 2) throw new RangeError(`splitPoint: ${n} is not an integer >= 2`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** A complete subtree: the 2^level leaves from index * 2^level. Level 0 is a leaf's hash. */
export interface NodeRef {
  level: number;
  index: number;
}

/** A hash to compute: a stored complete subtree, or the node over two others. */
export type HashExpr = { kind: "node"; ref: NodeRef } | { kind: "pair"; left: HashExpr; right: HashExpr };

const isPow2 = (n: number): boolean => n >= 1 && 2 ** Math.round(Math.log2(n)) === n;

/** MTH of the leaves [start, start + n), n >= 1, as RFC 9162 recurses into it (start is aligned to its split). */
export function subtreeExpr(start: number, n: number): HashExpr {
  if (n < 1) throw new RangeError("subtreeExpr: an empty range has no node");
  if (isPow2(n) && start % n === 0) return { kind: "node", ref: { level: Math.log2(n), index: start / n } };
  const k = splitPoint(n);
  return { kind: "pair", left: subtreeExpr(start, k), right: subtreeExpr(start + k, n - k) };
}

/** The root of a tree of `size` leaves, or null for the empty tree (whose root is EMPTY_ROOT). */
export function rootExpr(size: number): HashExpr | null {
  return size === 0 ? null : subtreeExpr(0, size);
}

function checkSize(size: number, what: string): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`${what} must be a non-negative integer`);
}

/** RFC 9162 2.1.3.1 PATH(m, D[n]): the audit path of leaf `index` in a tree of `size` leaves, leaf side first. */
export function inclusionPlan(index: number, size: number): HashExpr[] {
  checkSize(size, "size");
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError("index must be below the tree size");
  const path: HashExpr[] = [];
  let start = 0;
  let n = size;
  let m = index;
  // Walks from the root down; the siblings are collected root first, then reversed to leaf first.
  while (n > 1) {
    const k = splitPoint(n);
    if (m < k) {
      path.push(subtreeExpr(start + k, n - k));
      n = k;
    } else {
      path.push(subtreeExpr(start, k));
      start += k;
      m -= k;
      n -= k;
    }
  }
  return path.reverse();
}

/** RFC 9162 2.1.4.1 PROOF(m, D[n]): the consistency proof from the tree of `m` leaves to that of `n`. */
export function consistencyPlan(m: number, n: number): HashExpr[] {
  checkSize(m, "the old size");
  checkSize(n, "the new size");
  if (m > n) throw new RangeError("the old size must not exceed the new size");
  if (m === 0 || m === n) return [];
  const proof: HashExpr[] = [];
  // SUBPROOF(m, D[start:start+size], b), iteratively; the nodes are collected deepest last, then reversed.
  let start = 0;
  let size = n;
  let b = true;
  for (;;) {
    if (m === size) {
      if (!b) proof.push(subtreeExpr(start, m));
      break;
    }
    const k = splitPoint(size);
    if (m <= k) {
      proof.push(subtreeExpr(start + k, size - k));
      size = k;
    } else {
      proof.push(subtreeExpr(start, k));
      start += k;
      m -= k;
      size -= k;
      b = false;
    }
  }
  return proof.reverse();
}

/** Every stored node an expression needs, each once. */
export function refsOf(exprs: readonly (HashExpr | null)[]): NodeRef[] {
  const seen = new Map<string, NodeRef>();
  const walk = (e: HashExpr | null): void => {
    if (!e) return;
    if (e.kind === "node") seen.set(refKey(e.ref), e.ref);
    else {
      walk(e.left);
      walk(e.right);
    }
  };
  exprs.forEach(walk);
  return [...seen.values()];
}

export const refKey = (r: NodeRef): string => `${r.level}:${r.index}`;

/** Computes an expression from the looked-up nodes; throws when one is missing (a store that lost a node). */
export function evaluate(e: HashExpr, nodes: ReadonlyMap<string, Hash>): Hash {
  if (e.kind === "pair") return nodeHash(evaluate(e.left, nodes), evaluate(e.right, nodes));
  const h = nodes.get(refKey(e.ref));
  if (!h) throw new Error(`the log has no node ${refKey(e.ref)}`);
  return h;
}

/**
 * The complete subtrees of a tree of `size` leaves, largest (leftmost) first: one per set bit of size. The
 * hashes of these alone let the tree grow (appendLeaf) and give its root (frontierRoot).
 */
export function frontierRefs(size: number): NodeRef[] {
  checkSize(size, "size");
  const refs: NodeRef[] = [];
  let start = 0;
  for (let level = 52; level >= 0; level--) {
    const width = 2 ** level;
    if (Math.floor(size / width) % 2 === 1) {
      refs.push({ level, index: start / width });
      start += width;
    }
  }
  return refs;
}

/** A stored node: a complete subtree's hash. */
export interface StoredNode extends NodeRef {
  hash: Hash;
}

/**
 * Appends a leaf hash to a tree of `size` leaves given its frontier (frontierRefs(size)'s hashes, in order):
 * the new frontier and every complete subtree the leaf completes (the leaf itself first), to be stored.
 */
export function appendLeaf(frontier: readonly Hash[], size: number, leaf: Hash): { frontier: Hash[]; nodes: StoredNode[] } {
  const next = [...frontier];
  const nodes: StoredNode[] = [{ level: 0, index: size, hash: leaf }];
  let hash = leaf;
  let index = size;
  let level = 0;
  // Each trailing one bit of size is a complete subtree on the left that the new one now pairs with.
  while (index % 2 === 1) {
    const left = next.pop();
    if (!left) throw new Error("appendLeaf: the frontier does not match the size");
    hash = nodeHash(left, hash);
    index = (index - 1) / 2;
    level++;
    nodes.push({ level, index, hash });
  }
  next.push(hash);
  return { frontier: next, nodes };
}

/** The root of the tree whose frontier this is. */
export function frontierRoot(frontier: readonly Hash[]): Hash {
  if (frontier.length === 0) return EMPTY_ROOT;
  let h = frontier[frontier.length - 1];
  for (let i = frontier.length - 2; i >= 0; i--) h = nodeHash(frontier[i], h);
  return h;
}

/** RFC 9162 2.1.3.2: whether `path` proves leaf `index` (hash `leaf`) in the tree of `size` leaves with `root`. */
export function verifyInclusion(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Hash = Buffer.from(leaf);
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 2.1.4.2: whether `proof` shows the tree (`m`, `oldRoot`) is a prefix of (`n`, `newRoot`). */
export function verifyConsistency(m: number, n: number, oldRoot: Uint8Array, newRoot: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 0 || m > n) return false;
  if (m === 0) return proof.length === 0;
  if (m === n) return proof.length === 0 && Buffer.from(oldRoot).equals(newRoot);
  if (proof.length === 0) return false;
  // When m is a power of two the old root itself is the first node of the path.
  const path = isPow2(m) ? [oldRoot, ...proof] : proof;
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Hash = Buffer.from(path[0]);
  let sr: Hash = Buffer.from(path[0]);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(oldRoot) && sr.equals(newRoot);
}
