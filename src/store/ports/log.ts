/** The log port: the public game log's entries, tree, heads and sequencer lease (src/services/log). */

/** One entry of the public game log (src/services/log), at its index: its leaf is `leaf`, the entry's canonical JSON. */
export interface LogEntryRecord {
  index: number;
  gameId: string;
  /** RFC 8785 canonical JSON of the entry (src/services/log/entry.ts); its UTF-8 bytes are the Merkle leaf. */
  leaf: string;
  finishedAt: string;
  /** A private game's: the salt of the digest its entry holds. Never served; lets the server prove the entry later. */
  privateSalt?: string;
}

/** A complete subtree of the log's Merkle tree: 2^level leaves from index * 2^level; hash in hex. */
export interface LogNodeRecord {
  level: number;
  index: number;
  hash: string;
}

/** A signed tree head: the log's size and root at a time, signed by the log's key (src/services/log/heads.ts). */
export interface TreeHeadRecord {
  size: number;
  /** Hex. */
  rootHash: string;
  timestamp: string;
  /** Base64 Ed25519 signature over the head's checkpoint text (src/services/log/heads.ts; a head without origin: over its canonical JSON). */
  signature: string;
  /** The log's origin, the checkpoint's first line; absent on heads signed before checkpoints. */
  origin?: string;
  /** The id of the key that signed it (a LogPublicKeyRecord's); absent on heads signed before checkpoints. */
  keyId?: string;
}

/** A public key the log's heads are or were signed with; the private key is never stored (src/services/log/keys.ts). */
export interface LogPublicKeyRecord {
  /** sha256 hex of the key's SPKI DER. */
  keyId: string;
  /** SPKI PEM. */
  publicKey: string;
  /** The tree size when the key began signing: heads of this size on are its (until a later key's). */
  fromSize: number;
  addedAt: string;
}

/** The log's one state: its size, its newest head and the sequencer lease (who appends, fenced by epoch). */
export interface LogStateRecord {
  size: number;
  head: TreeHeadRecord | null;
  /** Bumped by every change of holder: an append carries the epoch it claimed, so a fenced-out one cannot write. */
  epoch: number;
  holder: string | null;
  leaseUntil: string | null;
}

/** One batch of the sequencer: written only while the stored epoch and size are still the ones it read. */
export interface LogAppend {
  epoch: number;
  fromSize: number;
  /** Indexes fromSize, fromSize + 1, ... in order. */
  entries: LogEntryRecord[];
  /** Every complete subtree the entries complete (their leaves included). */
  nodes: LogNodeRecord[];
  head: TreeHeadRecord;
}

/**
 * The public game log (src/services/log): its entries, the hashes of its tree's complete subtrees, its signed heads, the
 * games waiting to be appended and the sequencer's lease. Only the lease holder appends (appendLog's fence), so
 * the tree is one whatever the number of processes; readers see entries and nodes below the stored size only.
 */
export interface LogPort {
  logState(): Promise<LogStateRecord>;
  /**
   * Takes or renews the sequencer lease for `holder` until `until` when it holds it or the lease ended by `now`
   * (a new holder bumps the epoch); null, changing nothing, while another holder's lease runs. Atomic across
   * processes.
   */
  claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null>;
  /**
   * Stores a batch and its head when the stored epoch and size are `epoch` and `fromSize`, and takes its games
   * off the pending list; false, storing nothing readers see, otherwise (SQLite: one transaction; MongoDB: the
   * state's compare-and-set comes last, and what a refused or cut-off batch left beyond the size is replaced by
   * the next batch of a later epoch).
   */
  appendLog(batch: LogAppend): Promise<boolean>;
  /** The stored nodes among `refs` that lie inside the stored tree. */
  logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]>;
  /** Entries with index in [from, to) and below the stored size, in index order. */
  logEntries(from: number, to: number): Promise<LogEntryRecord[]>;
  /** Up to `limit` entries below the stored size finished in [start, end), by (finishedAt, index), after the `after` one. */
  logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]>;
  logEntryOfGame(gameId: string): Promise<LogEntryRecord | null>;
  /** The game's index below the stored size, or null; reads no entry (an inclusion proof needs only this and nodes). */
  logIndexOfGame(gameId: string): Promise<number | null>;
  /** Marks finished games to be appended (idempotent). */
  addLogPending(gameIds: readonly string[]): Promise<void>;
  /** Up to `limit` pending games, oldest first. */
  logPending(limit: number): Promise<string[]>;
  dropLogPending(gameIds: readonly string[]): Promise<void>;
  /**
   * Finished games with no entry, after the opaque cursor (all from the start when null), a page at a time:
   * what a crash between a game's finish and its pending mark left out, found again at start.
   */
  unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }>;
  /** Every public key the log was signed with, oldest first (by fromSize, then addedAt). */
  logKeys(): Promise<LogPublicKeyRecord[]>;
  /** Records a public key unless one with its id is recorded (idempotent). */
  addLogKey(key: LogPublicKeyRecord): Promise<void>;
  /** The private key an older version kept in the log's state (PKCS#8 PEM), or null: read once, to move it out. */
  legacyLogKey(): Promise<string | null>;
  /** Erases that stored private key, leaving no copy of it in the store's files (SQLite: free pages, WAL). */
  dropLegacyLogKey(): Promise<void>;
}
