/**
 * What the public log answers (REST, MCP, the verifier): its newest signed head, a game's inclusion proof, a
 * consistency proof between two sizes, entries by index, and the key heads are signed with. Proofs are built
 * from the stored complete subtrees (src/services/log/merkle.ts plans which), one store read of nodes per proof. An
 * inclusion proof reads the game's index, the size and its nodes (the leaf hash is the stored level-0 node),
 * never the entry itself: three small reads, whatever the size of the log.
 */
import type { Writable } from "node:stream";
import { AppError } from "../../shared/errors";
import { entryJson, writeExport, writeTaken, type ExportRange, type ExportSummary } from "./export";
import { ReadTurns, SERVED_PAGE } from "./read-turns";
import type { LogEntryRecord, LogPort } from "../../store/port";
import type { LogEntry } from "./entry";
import { checkpointOf, signHead, verifierKey, type LogKey, type SignedHead } from "./heads";
import type { LogKeyRing } from "./keys";
import { consistencyPlan, EMPTY_ROOT, evaluate, inclusionPlan, leafHashHex, refKey, refsOf, rootExpr, type Hash, type HashExpr } from "./merkle";

/** Most entries one read returns. */
export const MAX_ENTRIES_PER_READ = 1000;

export interface InclusionProof {
  gameId: string;
  index: number;
  treeSize: number;
  rootHash: string;
  leafHash: string;
  /** Audit path, leaf side first (RFC 9162 2.1.3), hex. */
  path: string[];
}

export interface ConsistencyProof {
  first: number;
  second: number;
  firstRootHash: string;
  secondRootHash: string;
  /** RFC 9162 2.1.4, hex. */
  proof: string[];
}

/** An entry as served: its index and leaf hash with the entry itself (the leaf's JSON, parsed). */
export interface ServedEntry {
  index: number;
  leafHash: string;
  entry: LogEntry;
}

const hex = (h: Hash) => h.toString("hex");

/**
 * Whether a caller holding `token` (or none) may read the game (src/services/games/record.ts, readableBy): an entry of a
 * private game that reached the log before private games stopped entering it is proven to its seats only.
 */
export type GameReadable = (gameId: string, token: string | undefined) => Promise<boolean>;

/** GET /log/key's answer. */
export interface LogKeyInfo {
  algorithm: "Ed25519";
  keyId: string;
  publicKey: string;
  origin: string;
  verifierKey: string;
  keys: { keyId: string; publicKey: string; fromSize: number }[];
}

export class LogService {
  /** Entry reads for exports and entries answers: a page at a time, in turns (src/services/log/read-turns.ts). */
  private readonly reads: Pick<LogPort, "logEntries" | "logEntriesFinished">;

  private readonly key: LogKey;
  private readonly ring: LogKeyRing;

  /** `key`: the key heads are signed with now, or it with every key the log was signed with (src/services/log/keys.ts). */
  constructor(
    private readonly store: LogPort,
    key: LogKey | LogKeyRing,
    turns: ReadTurns = new ReadTurns(),
    private readonly readable: GameReadable = async () => true,
  ) {
    this.reads = turns.paced(store);
    this.ring = "current" in key ? key : { current: key, keys: [{ keyId: key.keyId, publicKey: key.publicPem, fromSize: 0, addedAt: "" }] };
    this.key = this.ring.current;
  }

  /** The current key, the log's origin, and every key the log was signed with (a head names its own by keyId). */
  publicKey(): LogKeyInfo {
    return {
      algorithm: "Ed25519",
      keyId: this.key.keyId,
      publicKey: this.key.publicPem,
      origin: this.key.origin,
      verifierKey: verifierKey(this.key.origin, this.key.publicKey),
      keys: this.ring.keys.map((k) => ({ keyId: k.keyId, publicKey: k.publicKey, fromSize: k.fromSize })),
    };
  }

  /**
   * The newest signed head; the empty log's is signed on the spot (nothing is appended yet), and so is one
   * stored before heads named their origin (the same size, root and time, signed as a checkpoint).
   */
  async head(): Promise<SignedHead> {
    const s = await this.store.logState();
    if (s.head?.origin !== undefined && s.head.keyId !== undefined) return s.head as SignedHead;
    if (s.head) return signHead(this.key, s.head);
    return signHead(this.key, { size: 0, rootHash: hex(EMPTY_ROOT), timestamp: new Date().toISOString() });
  }

  /** The newest head as a C2SP checkpoint (signed note), signed by the key the head names. */
  async checkpoint(): Promise<string> {
    const head = await this.head();
    const signer = this.ring.keys.find((k) => k.keyId === head.keyId)?.publicKey ?? this.key.publicKey;
    return checkpointOf(head, signer);
  }

  /** The game's entry, or not_found while it is not in the log (a finished game is, within a batch interval). */
  async entryOf(gameId: string): Promise<LogEntryRecord> {
    const e = await this.store.logEntryOfGame(gameId);
    if (!e) throw notLogged(gameId);
    return e;
  }

  /**
   * The game's inclusion proof in the tree of `treeSize` entries (the newest head's when absent), for a caller
   * holding `token` (or none): a game it may not read is answered as one not in the log.
   */
  async inclusion(gameId: string, treeSize?: number, token?: string): Promise<InclusionProof> {
    const [index, size] = await Promise.all([this.store.logIndexOfGame(gameId), this.sizeOrHead(treeSize)]);
    if (index === null || !(await this.readable(gameId, token))) throw notLogged(gameId);
    if (index >= size) throw new AppError("bad_request", `game ${gameId} is entry ${index}, not in the tree of ${size}`, { index });
    const plan = inclusionPlan(index, size);
    const [leaf, root, ...path] = await this.compute([{ kind: "node", ref: { level: 0, index } }, rootExpr(size)!, ...plan]);
    return { gameId, index, treeSize: size, rootHash: hex(root), leafHash: hex(leaf), path: path.map(hex) };
  }

  async consistency(first: number, second?: number): Promise<ConsistencyProof> {
    const n = await this.sizeOrHead(second);
    if (!Number.isSafeInteger(first) || first < 0 || first > n) throw new AppError("bad_request", `first must be an integer 0..${n}`);
    const plan = consistencyPlan(first, n);
    const roots = [rootExpr(first), rootExpr(n)];
    const nonNull = roots.filter((r): r is HashExpr => r !== null);
    const computed = await this.compute([...nonNull, ...plan]);
    const rootHashes = roots.map((r) => (r ? computed.shift()! : EMPTY_ROOT));
    return { first, second: n, firstRootHash: hex(rootHashes[0]), secondRootHash: hex(rootHashes[1]), proof: computed.map(hex) };
  }

  /**
   * Writes an export of the range's public entries (src/services/log/export.ts) within the stored tree of now, a page
   * read in each turn; a range past the tree is refused before anything is written.
   */
  async exportTo(range: ExportRange, out: Writable, treeSize?: number): Promise<ExportSummary> {
    return writeExport(this.reads, treeSize ?? (await this.size()), range, out, SERVED_PAGE);
  }

  /** The stored tree's size now. */
  async size(): Promise<number> {
    return (await this.store.logState()).size;
  }

  /** The log index of a game, or null while it is not in the log. */
  async indexOf(gameId: string): Promise<number | null> {
    return this.store.logIndexOfGame(gameId);
  }

  /** Up to `count` entries (at most MAX_ENTRIES_PER_READ) from index `from`, with the tree's size then. */
  async entries(from: number, count: number): Promise<{ treeSize: number; entries: ServedEntry[] }> {
    const { treeSize, items } = await this.readEntries(from, count, served);
    return { treeSize, entries: items };
  }

  /**
   * Writes the same read to `out` (not ended here) as one JSON answer (the LogEntries schema), built from the
   * stored leaves as they are (a thousand entries are not parsed and serialised again on the event loop) a
   * page at a time: each page is read in its turn once `out` has taken the one before, so no answer is held
   * whole and a reader that does not read has nothing more read for it. A bad range is refused before anything
   * is written.
   */
  async entriesTo(from: number, count: number, out: Writable): Promise<void> {
    const { treeSize, to } = await this.entryRange(from, count);
    let piece = `{"treeSize":${treeSize},"entries":[`;
    let first = true;
    for (let at = from; at < to; at += SERVED_PAGE) {
      if (out.destroyed) return;
      for (const row of await this.reads.logEntries(at, Math.min(to, at + SERVED_PAGE))) {
        piece += first ? entryJson(row) : `,${entryJson(row)}`;
        first = false;
      }
      await writeTaken(out, piece);
      piece = "";
    }
    out.write("]}");
  }

  /**
   * Entries [from, from + count) of the stored tree, each as `each` makes it, a page read and made in each
   * turn.
   */
  private async readEntries<T>(from: number, count: number, each: (row: LogEntryRecord) => T): Promise<{ treeSize: number; items: T[] }> {
    const { treeSize, to } = await this.entryRange(from, count);
    const items: T[] = [];
    for (let at = from; at < to; at += SERVED_PAGE) for (const row of await this.reads.logEntries(at, Math.min(to, at + SERVED_PAGE))) items.push(each(row));
    return { treeSize, items };
  }

  /**
   * The stored tree's size and the end of the read of `count` entries (at most MAX_ENTRIES_PER_READ) from `from`,
   * which must be inside the tree, as RFC 6962's get-entries asks: a read past the end is a client's mistake, not
   * an empty answer.
   */
  private async entryRange(from: number, count: number): Promise<{ treeSize: number; to: number }> {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(count) || from < 0 || count < 1)
      throw new AppError("bad_request", "from must be an integer >= 0 and count one >= 1");
    const treeSize = await this.size();
    if (from >= treeSize) throw new AppError("bad_request", `from (${from}) is past the log's last entry (the log has ${treeSize})`, { treeSize });
    return { treeSize, to: Math.min(treeSize, from + Math.min(count, MAX_ENTRIES_PER_READ)) };
  }

  private async sizeOrHead(size: number | undefined): Promise<number> {
    const { size: stored } = await this.store.logState();
    if (size === undefined) return stored;
    if (!Number.isSafeInteger(size) || size < 1 || size > stored) throw new AppError("bad_request", `the tree size must be an integer 1..${stored}`);
    return size;
  }

  private async compute(exprs: HashExpr[]): Promise<Hash[]> {
    const nodes = new Map((await this.store.logNodes(refsOf(exprs))).map((n) => [refKey(n), Buffer.from(n.hash, "hex")]));
    return exprs.map((e) => evaluate(e, nodes));
  }
}

const notLogged = (gameId: string) => new AppError("not_found", `game ${gameId} is not in the public log (a finished game is appended within a second or so)`);

export function served(e: LogEntryRecord): ServedEntry {
  return { index: e.index, leafHash: leafHashHex(e.leaf), entry: JSON.parse(e.leaf) as LogEntry };
}
