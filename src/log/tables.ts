/**
 * A league's or a swiss tournament's table checked against the public log (npm run log:verify -- <baseUrl>
 * --league ID | --tournament ID): every game it counted is in the log under the newest signed head (its entry's
 * leaf hash and inclusion proof), its entry names the league or tournament and the pairing's two players and
 * re-simulates to the result it states, and the published table is the one the logged results give
 * (src/standings/league-table.ts and src/tournaments/swiss.ts compute both).
 * Talks to the server only through its public REST reads.
 */
import { compareTables, type GetJson } from "../leagues/verify";
import { leagueTable, type LeagueOutcome, type TableDeal, type TableRow } from "../standings/league-table";
import { standings, type Outcome, type SwissRound } from "../tournaments/swiss";
import type { TreeHeadRecord } from "../store/port";
import { canonicalBytes } from "./canonical";
import { checkEntry } from "./check";
import type { GameEntry } from "./entry";
import { verifyHead } from "./heads";
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

/** How a league counts a logged game (as src/standings/league-table.ts's outcomeOf counts a record): an abort is void. */
const leagueOutcome = (e: GameEntry, first: string): LeagueOutcome =>
  e.decidedBy === "aborted" || e.winner === null ? "void" : e.winner === "draw" ? "draw" : winningSide(e, e.winner, first);

/** How a swiss counts a logged game (as the tournament service counts a record): no winner is a draw. */
const swissOutcome = (e: GameEntry, first: string): Outcome => (e.winner === null || e.winner === "draw" ? "draw" : winningSide(e, e.winner, first));

/** The newest signed head, its signature checked. */
async function signedHead(get: GetJson, problems: string[]): Promise<TreeHeadRecord> {
  const head = (await get("/api/v1/log/head")) as TreeHeadRecord;
  const key = (await get("/api/v1/log/key")) as { publicKey: string };
  if (!verifyHead(key.publicKey, head)) problems.push(`the head of size ${head.size} is not signed by the log's key`);
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

interface TournamentGames {
  rounds?: { round: number; bye: string | null; games: { gameId: string; first: string; second: string; outcome: Outcome | null }[] }[];
}
interface TournamentRow {
  rank: number;
  playerId: string;
  rating: number;
  score: number;
  buchholz: number;
  sonnebornBerger: number;
}

/** A swiss tournament's standings (score, Buchholz, Sonneborn-Berger, rank) recomputed from its logged games. */
export async function verifyTournamentInLog(get: GetJson, tournamentId: string): Promise<TableVerifyReport> {
  const problems: string[] = [];
  const head = await signedHead(get, problems);
  const base = `/api/v1/tournaments/${encodeURIComponent(tournamentId)}`;
  const { rounds } = (await get(`${base}/games`)) as TournamentGames;
  if (!rounds) throw new Error(`tournament ${tournamentId} is not a swiss: only a swiss's table is checked against the log`);
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
      const outcome = await loggedResult(get, head, g, `round ${r.round}`, { tournamentId }, problems, swissOutcome);
      pairings.push({ first: g.first, second: g.second, ...(outcome ? { outcome } : {}) });
    }
    derived.push({ pairings, ...(r.bye ? { bye: r.bye } : {}) });
  }
  const table = standings(
    published.map((p) => ({ id: p.playerId, rating: p.rating })),
    derived,
  );
  const byId = new Map(published.map((p) => [p.playerId, p]));
  for (const row of table) {
    const p = byId.get(row.id)!;
    for (const [k, mine] of [
      ["score", row.score],
      ["buchholz", row.buchholz],
      ["sonnebornBerger", row.sonnebornBerger],
      ["rank", row.rank],
    ] as const) {
      if (p[k] !== mine) problems.push(`table: ${row.id}: published ${k} ${p[k]}, the log gives ${mine}`);
    }
  }
  return { head, gamesChecked, problems };
}
