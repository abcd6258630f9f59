/**
 * The public log's verifier, as anyone can run it against a server (npm run log:verify): the newest head's
 * signature; that the log only grew since a head saved earlier (a consistency proof); and every entry of a
 * range (or a sample) against its leaf hash, its inclusion proof, its own re-simulation and the game's replay.
 * Checking the whole log also recomputes the root from the entries, so a changed, missing or reordered entry
 * cannot go unnoticed. Every format 3 entry's rating steps are recomputed (src/services/log/check.ts), and checking the
 * whole log also follows each player's chain of steps (src/services/log/chains.ts). An entry's seats, opponent kind,
 * house level and finish time are compared with the game's record. Talks to the server only through its
 * public REST reads.
 */
import { verifyReplay } from "../../engine/replay";
import type { Replay } from "../../engine/types";
import type { GetJson } from "../leagues/verify";
import { isBotId } from "../../shared/secrets";
import type { TreeHeadRecord } from "../../store/port";
import { canonicalBytes } from "./canonical";
import { checkRatingChains } from "./chains";
import { checkEntry } from "./check";
import type { GameEntry, LogEntry } from "./entry";
import { signedByLog, type ServedKeys } from "./head-keys";
import { appendLeaf, frontierRoot, leafHash, verifyConsistency, verifyInclusion, type Hash } from "./merkle";
import type { ConsistencyProof, InclusionProof, ServedEntry } from "./service";

export interface VerifyOptions {
  /** A head saved earlier: the log must have only grown since. */
  since?: TreeHeadRecord;
  /** Entries [from, from + count) are checked; default: all of them. */
  from?: number;
  count?: number;
  /** Check this many entries picked at random instead of a range. */
  sample?: number;
}

export interface LogVerifyReport {
  head: TreeHeadRecord;
  entriesChecked: number;
  /** With `since`: whether the newest head extends the saved one (signed, no shorter, consistent). */
  consistentWithSince?: boolean;
  problems: string[];
}

const PAGE = 1000;
const hex = (s: string) => Buffer.from(s, "hex");

export async function verifyLog(get: GetJson, opts: VerifyOptions = {}): Promise<LogVerifyReport> {
  const problems: string[] = [];
  const head = (await get("/api/v1/log/head")) as TreeHeadRecord;
  const key = (await get("/api/v1/log/key")) as ServedKeys;
  if (!signedByLog(key, head)) problems.push(`the head of size ${head.size} is not signed by the log's key`);

  let consistentWithSince: boolean | undefined;
  if (opts.since) {
    const s = opts.since;
    const before = problems.length;
    if (!signedByLog(key, s)) problems.push(`the saved head of size ${s.size} is not signed by the log's key`);
    if (s.size > head.size) problems.push(`the log shrank: the saved head has ${s.size} entries, the newest ${head.size}`);
    else if (s.size > 0) {
      const c = (await get(`/api/v1/log/consistency?first=${s.size}&second=${head.size}`)) as ConsistencyProof;
      if (!verifyConsistency(s.size, head.size, hex(s.rootHash), hex(head.rootHash), c.proof.map(hex))) {
        problems.push(`the log of ${head.size} entries is not an extension of the saved one of ${s.size}: its history was changed`);
      }
    }
    consistentWithSince = problems.length === before;
  }

  const indexes = pick(head.size, opts);
  const whole = indexes.length === head.size && !opts.sample;
  let frontier: Hash[] = [];
  let checked = 0;
  const read: Array<{ index: number; entry: LogEntry }> = [];
  for (let at = 0; at < indexes.length;) {
    // Consecutive indexes are read a page at a time.
    const start = indexes[at];
    let end = at;
    while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1 && end + 1 - at < PAGE) end++;
    const count = end - at + 1;
    const { entries } = (await get(`/api/v1/log/entries?from=${start}&count=${count}`)) as { entries: ServedEntry[] };
    for (let k = 0; k < count; k++) {
      const index = start + k;
      const served = entries[k] as ServedEntry | undefined;
      if (!served || served.index !== index) {
        problems.push(`entry ${index} is missing`);
        continue;
      }
      const leaf = leafHash(canonicalBytes(served.entry));
      if (leaf.toString("hex") !== served.leafHash) problems.push(`entry ${index}: its content does not hash to its leaf hash`);
      if (whole) {
        frontier = appendLeaf(frontier, index, leaf).frontier;
        read.push({ index, entry: served.entry });
      } else await checkInclusion(get, served.entry, index, leaf, head, problems);
      problems.push(...(await checkGame(get, served.entry, index)));
      checked++;
    }
    at = end + 1;
  }
  if (whole && frontierRoot(frontier).toString("hex") !== head.rootHash) {
    problems.push(`the entries do not make the signed root of ${head.size}: an entry was changed, removed or moved`);
  }
  // The chains need every step, so only a check of the whole log follows them.
  if (whole)
    problems.push(
      ...(await checkRatingChains(read, (id) =>
        get(`/api/v1/games/${encodeURIComponent(id)}`).then(
          (g) => g as GameBody,
          () => null,
        ),
      )),
    );
  return { head, entriesChecked: checked, problems, ...(consistentWithSince === undefined ? {} : { consistentWithSince }) };
}

function pick(size: number, opts: VerifyOptions): number[] {
  if (opts.sample) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(opts.sample, size)) chosen.add(Math.floor(Math.random() * size));
    return [...chosen].sort((a, b) => a - b);
  }
  const from = Math.min(opts.from ?? 0, size);
  const to = Math.min(size, from + (opts.count ?? size));
  return Array.from({ length: to - from }, (_, i) => from + i);
}

async function checkInclusion(get: GetJson, entry: LogEntry, index: number, leaf: Hash, head: TreeHeadRecord, problems: string[]): Promise<void> {
  if (entry.kind !== "game") {
    // A private entry names no game to ask a proof for: its proof is checked against the range's root instead.
    return;
  }
  const p = (await get(`/api/v1/log/games/${encodeURIComponent(entry.gameId)}/proof?treeSize=${head.size}`)) as InclusionProof;
  if (p.index !== index) problems.push(`entry ${index}: the log places game ${entry.gameId} at ${p.index}`);
  if (!verifyInclusion(leaf, index, head.size, p.path.map(hex), hex(head.rootHash)))
    problems.push(`entry ${index}: its inclusion proof does not lead to the signed root`);
}

/** A public entry re-simulated on its own, then compared with the game's replay as the server serves it now. */
async function checkGame(get: GetJson, entry: LogEntry, index: number): Promise<string[]> {
  if (entry.kind !== "game") return [];
  const own = checkEntry(entry);
  if (!own.ok) return [`entry ${index} (game ${entry.gameId}): ${own.field} ${own.detail}`];
  const game = (await get(`/api/v1/games/${encodeURIComponent(entry.gameId)}`).catch((e: Error) => e)) as GameBody | Error;
  if (game instanceof Error) return [`entry ${index}: game ${entry.gameId} cannot be read (${game.message})`];
  if (game.logIndex !== undefined && game.logIndex !== index) return [`entry ${index}: game ${entry.gameId} names log index ${game.logIndex}`];
  const record = recordDifferences(entry, game);
  if (record.length) return record.map((d) => `entry ${index}: game ${entry.gameId}'s record differs from the log in ${d}`);
  // A game aborted before it began has no replay: its entry was checked on its own.
  if (entry.actions.length === 0) return [];
  const replay = (await get(`/api/v1/games/${encodeURIComponent(entry.gameId)}/replay`).catch((e: Error) => e)) as Replay | Error;
  if (replay instanceof Error) {
    // A league game stays sealed (409) until the other game of its deal has finished.
    return / 409 /.test(replay.message) ? [] : [`entry ${index}: the replay of game ${entry.gameId} cannot be read (${replay.message})`];
  }
  const v = verifyReplay(replay);
  if (!v.ok) return [`entry ${index}: the replay of game ${entry.gameId} does not verify (${v.field}: ${v.detail})`];
  return differences(entry, replay).map((d) => `entry ${index}: game ${entry.gameId}'s replay differs from the log in ${d}`);
}

/** What the verifier reads of GET /games/{id}. */
interface GameBody {
  status?: string;
  logIndex?: number;
  opponent?: string;
  level?: string | null;
  finishedAt?: string | null;
  players?: Partial<Record<"A" | "B", { id: string; kind: string } | null>>;
}

/** The entry against the game's record: who sat where and as what, the kind of game, the house level, the finish. */
function recordDifferences(e: GameEntry, g: GameBody): string[] {
  const out: string[] = [];
  if (g.status !== "finished") out.push(`status (${String(g.status)})`);
  if (g.opponent !== e.opponent) out.push(`opponent (${String(g.opponent)})`);
  if (g.finishedAt !== e.finishedAt) out.push(`finishedAt (${String(g.finishedAt)})`);
  for (const seat of ["A", "B"] as const) {
    const logged = e.seats[seat];
    const served = g.players?.[seat] ?? undefined;
    // The record shows a seat nobody joined (no token yet) as null: nothing of it to compare.
    if (!served) continue;
    if (!logged || served.id !== logged.playerId) out.push(`seat ${seat}'s player (${served.id})`);
    // The record shows a BOT- id as a bot whatever its stored seat says (views.ts, publicSeat).
    else if (served.kind !== logged.kind && !(served.kind === "bot" && isBotId(logged.playerId) && logged.kind !== "house"))
      out.push(`seat ${seat}'s kind (${served.kind})`);
    if (logged?.houseLevel !== undefined && logged.houseLevel !== (g.level ?? "normal")) out.push(`seat ${seat}'s house level (${String(g.level)})`);
  }
  return out;
}

function differences(e: GameEntry, r: Replay): string[] {
  const out: string[] = [];
  if (r.seed !== e.seed) out.push("seed");
  if (r.salt !== e.salt) out.push("salt");
  if (r.commitment !== e.commitment) out.push("commitment");
  if (r.ruleset !== e.ruleset || (r.rulesVersion ?? 1) !== e.rulesVersion) out.push("rules");
  if (r.winner !== e.winner || r.decidedBy !== e.decidedBy || r.score.A !== e.score.A || r.score.B !== e.score.B) out.push("result");
  const placed = e.actions.filter((a) => a.kind === "place");
  if (r.moves.length !== placed.length || r.moves.some((m, i) => m.card !== placed[i].card || m.square !== placed[i].square)) out.push("moves");
  if (r.endings.length !== e.actions.length - placed.length) out.push("endings");
  return out;
}
