/**
 * A league's or a tournament's table checked against the public log (npm run log:verify -- <baseUrl>
 * --league ID | --tournament ID): every game it counted is in the log under the newest signed head (its entry's
 * leaf hash and inclusion proof), its entry names the league or tournament and the pairing's two players and
 * re-simulates to the result it states, and the published table is the one the logged results give
 * (src/shared/standings/league-table.ts, src/services/tournaments/swiss.ts and src/services/tournaments/arena.ts compute each).
 *
 * No table's figures come from the players' ratings the entries carry: a league's ratings are fitted to its own
 * results (Bradley-Terry), and a tournament's `rating` column is the entrant's rating when they joined, a tie-break
 * the server published before the games, taken here as given.
 * Talks to the server only through its public REST reads.
 */
import { compareTables, type GetJson } from "../leagues/verify";
import { leagueTable, type LeagueOutcome, type TableDeal, type TableRow } from "../../shared/standings/league-table";
import { standings, type PairingResult, type SwissRound } from "../tournaments/swiss";
import { arenaStandings, replayArena, type ArenaGameResult } from "../tournaments/arena";
import type { TreeHeadRecord } from "../../store/port";
import { canonicalBytes } from "./canonical";
import { checkEntry } from "./check";
import type { GameEntry } from "./entry";
import { signedByLog, type ServedKeys } from "./head-keys";
import { leafHash, verifyInclusion } from "./merkle";
import type { InclusionProof, ServedEntry } from "./service";

export interface TableVerifyReport {
  head: TreeHeadRecord;
  gamesChecked: number;
  problems: string[];
}

interface LeagueBody {
  id: string;
  entrants: { playerId: string }[];
}
interface GamesBody {
  deals: { index: number; games: { gameId: string; first: string; second: string; outcome: LeagueOutcome | null }[] }[];
}

const hex = (s: string) => Buffer.from(s, "hex");

/** The logged entry of a game, checked into the head; a string naming what is wrong otherwise. */
async function loggedEntry(get: GetJson, gameId: string, head: TreeHeadRecord): Promise<GameEntry | string> {
  const proof = (await get(`/api/v1/log/games/${encodeURIComponent(gameId)}/proof?treeSize=${head.size}`).catch((e: Error) => e)) as InclusionProof | Error;
  if (proof instanceof Error) return `game ${gameId} is not in the log of ${head.size} entries (${proof.message})`;
  const { entries } = (await get(`/api/v1/log/entries?from=${proof.index}&count=1`)) as { entries: ServedEntry[] };
  const served = entries[0] as ServedEntry | undefined;
  if (!served || served.index !== proof.index) return `game ${gameId}: entry ${proof.index} is missing`;
  const leaf = leafHash(canonicalBytes(served.entry));
  if (!verifyInclusion(leaf, proof.index, head.size, proof.path.map(hex), hex(head.rootHash)))
    return `game ${gameId}: entry ${proof.index} and its inclusion proof do not lead to the signed root`;
  if (served.entry.kind !== "game" || served.entry.gameId !== gameId) return `game ${gameId}: entry ${proof.index} is not its entry`;
  const own = checkEntry(served.entry);
  if (!own.ok) return `game ${gameId} (entry ${proof.index}): ${own.field} ${own.detail}`;
  return served.entry;
}

/** The pairing's side whose player sits in the seat that won. */
const winningSide = (e: GameEntry, seat: "A" | "B", first: string) => (e.seats[seat]?.playerId === first ? "first" : "second");

/** How a league counts a logged game (as src/shared/standings/league-table.ts's outcomeOf counts a record): an abort is void. */
const leagueOutcome = (e: GameEntry, first: string): LeagueOutcome =>
  e.decidedBy === "aborted" || e.winner === null ? "void" : e.winner === "draw" ? "draw" : winningSide(e, e.winner, first);

/** How a tournament (swiss or arena) counts a logged game (as its service counts a record): no winner is a draw. */
const tournamentOutcome = (e: GameEntry, first: string): PairingResult => (e.winner === null || e.winner === "draw" ? "draw" : winningSide(e, e.winner, first));

/** The newest signed head, its signature checked. */
async function signedHead(get: GetJson, problems: string[]): Promise<TreeHeadRecord> {
  const head = (await get("/api/v1/log/head")) as TreeHeadRecord;
  const key = (await get("/api/v1/log/key")) as ServedKeys;
  if (!signedByLog(key, head)) problems.push(`the head of size ${head.size} is not signed by the log's key`);
  return head;
}

/** A counted game against its logged entry: the entry's outcome, or null (each difference named in `problems`). */
async function loggedResult<O extends string>(
  get: GetJson,
  head: TreeHeadRecord,
  g: { gameId: string; first: string; second: string; outcome: string | null },
  where: string,
  owner: { leagueId?: string; tournamentId?: string },
  problems: string[],
  count: (e: GameEntry, first: string) => O,
): Promise<O | null> {
  const entry = await loggedEntry(get, g.gameId, head);
  if (typeof entry === "string") {
    problems.push(`${where}: ${entry}`);
    return null;
  }
  const at = `${where}, game ${g.gameId} (entry)`;
  if (owner.leagueId !== undefined && entry.leagueId !== owner.leagueId) problems.push(`${at}: logged under league ${entry.leagueId ?? "none"}`);
  if (owner.tournamentId !== undefined && entry.tournamentId !== owner.tournamentId)
    problems.push(`${at}: logged under tournament ${entry.tournamentId ?? "none"}`);
  const players = [entry.seats.A?.playerId, entry.seats.B?.playerId].sort().join(" ");
  if (players !== [g.first, g.second].sort().join(" ")) problems.push(`${at}: logged between ${players}, the pairing is ${g.first} and ${g.second}`);
  const outcome = count(entry, g.first);
  if (outcome !== g.outcome) problems.push(`${at}: counted ${g.outcome}, the log says ${outcome}`);
  return outcome;
}

export async function verifyLeagueInLog(get: GetJson, leagueId: string): Promise<TableVerifyReport> {
  const problems: string[] = [];
  const head = await signedHead(get, problems);
  const base = `/api/v1/leagues/${encodeURIComponent(leagueId)}`;
  const league = (await get(base)) as LeagueBody;
  const { deals } = (await get(`${base}/games`)) as GamesBody;
  const published = ((await get(`${base}/standings`)) as { standings: TableRow[] }).standings;
  let gamesChecked = 0;
  const derived: TableDeal[] = [];
  for (const deal of deals) {
    // A deal the league has not counted yet (a game still being played) is not in its table either.
    if (deal.games.some((g) => g.outcome === null)) {
      derived.push({ games: deal.games.map((g) => ({ first: g.first, second: g.second, outcome: null })) });
      continue;
    }
    const games: TableDeal["games"] = [];
    for (const g of deal.games) {
      gamesChecked++;
      games.push({
        first: g.first,
        second: g.second,
        outcome: await loggedResult(get, head, g, `deal ${deal.index}`, { leagueId: league.id }, problems, leagueOutcome),
      });
    }
    derived.push({ games });
  }
  const table = leagueTable(
    league.entrants.map((e) => e.playerId),
    derived,
    league.id,
  );
  problems.push(...compareTables(table, published).map((p) => `table: ${p}`));
  return { head, gamesChecked, problems };
}

type CountedGame = { gameId: string; first: string; second: string; outcome: PairingResult | null };
interface TournamentGames {
  rounds?: { round: number; bye: string | null; games: CountedGame[] }[];
  /** An arena's games, in the order paired. */
  games?: CountedGame[];
}
interface TournamentRow {
  rank: number;
  playerId: string;
  rating: number;
  score: number;
  buchholz: number;
  sonnebornBerger: number;
}

interface ArenaRow {
  rank: number;
  playerId: string;
  rating: number;
  score: number;
  streak: number;
  games: number;
}

/** Each figure of the published rows that differs from the recomputed one, named. */
function compareRows<R extends { playerId: string }>(
  published: readonly R[],
  derived: ReadonlyMap<string, Partial<R>>,
  keys: readonly (keyof R & string)[],
): string[] {
  const out: string[] = [];
  for (const p of published) {
    const mine = derived.get(p.playerId);
    if (!mine) {
      out.push(`table: ${p.playerId} is published but not an entrant the games give`);
      continue;
    }
    for (const k of keys) if (p[k] !== mine[k]) out.push(`table: ${p.playerId}: published ${k} ${String(p[k])}, the log gives ${String(mine[k])}`);
  }
  return out;
}

/** A tournament's standings recomputed from its logged games: a swiss's or an arena's, as its format is. */
export async function verifyTournamentInLog(get: GetJson, tournamentId: string): Promise<TableVerifyReport> {
  const base = `/api/v1/tournaments/${encodeURIComponent(tournamentId)}`;
  const { format } = (await get(base)) as { format: "swiss" | "arena" };
  return format === "arena" ? verifyArenaInLog(get, tournamentId, base) : verifySwissInLog(get, tournamentId, base);
}

/**
 * An arena's standings (score with its streak bonuses, streak, games, rank) recomputed from its logged games in
 * the order paired, by the arena's own replay (src/services/tournaments/arena.ts replayArena, arenaStandings).
 */
async function verifyArenaInLog(get: GetJson, tournamentId: string, base: string): Promise<TableVerifyReport> {
  const problems: string[] = [];
  const head = await signedHead(get, problems);
  const { games } = (await get(`${base}/games`)) as TournamentGames;
  if (!games) throw new Error(`tournament ${tournamentId}'s games name no arena games`);
  const published = ((await get(`${base}/standings`)) as { standings: ArenaRow[] }).standings;
  let gamesChecked = 0;
  const derived: ArenaGameResult[] = [];
  for (const [i, g] of games.entries()) {
    // A game still being played counts for nothing yet, in the published table as here.
    if (g.outcome === null) {
      derived.push({ first: g.first, second: g.second });
      continue;
    }
    gamesChecked++;
    const outcome = await loggedResult(get, head, g, `game ${i + 1}`, { tournamentId }, problems, tournamentOutcome);
    derived.push({ first: g.first, second: g.second, outcome });
  }
  const players = replayArena(
    published.map((p) => ({ playerId: p.playerId, rating: p.rating })),
    derived,
  );
  const table = new Map(
    arenaStandings([...players.values()]).map((p) => [p.id, { rank: p.rank, score: p.score, streak: p.streak, games: players.get(p.id)!.games }]),
  );
  problems.push(...compareRows(published, table, ["score", "streak", "games", "rank"]));
  return { head, gamesChecked, problems };
}

/** A swiss tournament's standings (score, Buchholz, Sonneborn-Berger, rank) recomputed from its logged games. */
async function verifySwissInLog(get: GetJson, tournamentId: string, base: string): Promise<TableVerifyReport> {
  const problems: string[] = [];
  const head = await signedHead(get, problems);
  const { rounds } = (await get(`${base}/games`)) as TournamentGames;
  if (!rounds) throw new Error(`tournament ${tournamentId}'s games name no rounds`);
  const published = ((await get(`${base}/standings`)) as { standings: TournamentRow[] }).standings;
  let gamesChecked = 0;
  const derived: SwissRound[] = [];
  for (const r of rounds) {
    const pairings: SwissRound["pairings"] = [];
    for (const g of r.games) {
      // A game still being played counts for nothing yet, in the published table as here.
      if (g.outcome === null) {
        pairings.push({ first: g.first, second: g.second });
        continue;
      }
      gamesChecked++;
      const outcome = await loggedResult(get, head, g, `round ${r.round}`, { tournamentId }, problems, tournamentOutcome);
      pairings.push({ first: g.first, second: g.second, ...(outcome ? { outcome } : {}) });
    }
    derived.push({ pairings, ...(r.bye ? { bye: r.bye } : {}) });
  }
  const table = standings(
    published.map((p) => ({ id: p.playerId, rating: p.rating })),
    derived,
  );
  problems.push(...compareRows(published, new Map(table.map((r) => [r.id, r])), ["score", "buchholz", "sonnebornBerger", "rank"]));
  return { head, gamesChecked, problems };
}
