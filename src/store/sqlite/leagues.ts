/**
 * The league tables of the SQLite adapter: a league's head per row, replaced by compare-and-set on its version;
 * its schedule in a row of its own, written once; a row per counted game in league_results.
 */
import type Database from "better-sqlite3";
import type { LeagueDeal, LeagueRecord, LeagueResult, LeaguesPort } from "../port";
import { isWholeLeague, splitWholeLeague } from "../league-shape";
import { pageSize } from "../shared";
import { DocumentTable, type TableWrite } from "./document-table";

export const LEAGUES_SCHEMA = `
CREATE TABLE IF NOT EXISTS leagues (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS leagues_by_time ON leagues (created_at, id);
CREATE TABLE IF NOT EXISTS league_schedules (
  league_id TEXT PRIMARY KEY,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS league_results (
  game_id TEXT PRIMARY KEY,
  league_id TEXT NOT NULL,
  deal INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS league_results_by_deal ON league_results (league_id, deal);
`;

type Row = { doc: string } | undefined;
type ResultRow = { game_id: string; league_id: string; deal: number; outcome: LeagueResult["outcome"]; at: string };

const resultOf = (r: ResultRow): LeagueResult => ({ leagueId: r.league_id, gameId: r.game_id, deal: r.deal, outcome: r.outcome, at: r.at });

export class SqliteLeagues implements LeaguesPort {
  /** The leagues' heads. */
  private readonly heads: DocumentTable<LeagueRecord>;
  private readonly insertSchedule: Database.Statement;
  private readonly schedule: Database.Statement;
  private readonly insertResult: Database.Statement;
  private readonly results: Database.Statement;
  private readonly resultsOfDeals: Database.Statement;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(
    private readonly db: Database.Database,
    private readonly write: TableWrite,
  ) {
    this.heads = new DocumentTable<LeagueRecord>(db, write, {
      table: "leagues",
      key: { column: "id", member: "id" },
      columns: { created_at: (l) => l.createdAt },
      fixed: ["created_at"],
      versioned: true,
    });
    this.insertSchedule = db.prepare("INSERT INTO league_schedules (league_id, doc) VALUES (?, ?) ON CONFLICT (league_id) DO NOTHING");
    this.schedule = db.prepare("SELECT doc FROM league_schedules WHERE league_id = ?");
    this.insertResult = db.prepare(
      "INSERT INTO league_results (game_id, league_id, deal, outcome, at) VALUES (@gameId, @leagueId, @deal, @outcome, @at) ON CONFLICT (game_id) DO NOTHING",
    );
    this.results = db.prepare("SELECT * FROM league_results WHERE league_id = ?");
    this.resultsOfDeals = db.prepare("SELECT * FROM league_results WHERE league_id = ? AND deal IN (SELECT value FROM json_each(?))");
    this.splitWhole();
  }

  /** Leagues stored whole (their schedule and results inside the document) are split once, at start-up. */
  private splitWhole(): void {
    const whole = (this.db.prepare("SELECT doc FROM leagues WHERE json_type(doc, '$.schedule') IS NOT NULL").all() as { doc: string }[])
      .map((r) => JSON.parse(r.doc) as object)
      .filter(isWholeLeague);
    if (whole.length === 0) return;
    const rewrite = this.db.prepare("UPDATE leagues SET doc = ? WHERE id = ?");
    this.db
      .transaction(() => {
        for (const doc of whole) {
          const { head, schedule, results } = splitWholeLeague(doc);
          if (schedule) this.insertSchedule.run(head.id, JSON.stringify(schedule));
          for (const r of results) this.insertResult.run(r);
          rewrite.run(JSON.stringify(head), head.id);
        }
      })
      .immediate();
  }

  async createLeague(l: LeagueRecord): Promise<void> {
    await this.heads.create(l);
  }
  async getLeague(id: string): Promise<LeagueRecord | null> {
    return this.heads.get(id);
  }
  async listLeagues(limit: number): Promise<LeagueRecord[]> {
    return this.heads.list("ORDER BY created_at DESC, id DESC LIMIT ?", pageSize(limit));
  }
  async replaceLeagueIf(l: LeagueRecord): Promise<boolean> {
    return this.heads.replaceIf(l);
  }
  async putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]> {
    await this.write(() => this.insertSchedule.run(leagueId, JSON.stringify(schedule)));
    return (await this.getLeagueSchedule(leagueId))!;
  }
  async getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null> {
    const row = this.schedule.get(leagueId) as Row;
    return row ? (JSON.parse(row.doc) as LeagueDeal[]) : null;
  }
  async addLeagueResult(r: LeagueResult): Promise<boolean> {
    return this.write(() => this.insertResult.run({ gameId: r.gameId, leagueId: r.leagueId, deal: r.deal, outcome: r.outcome, at: r.at }).changes === 1);
  }
  async listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]> {
    const rows = (deals ? this.resultsOfDeals.all(leagueId, JSON.stringify(deals)) : this.results.all(leagueId)) as ResultRow[];
    return rows.map(resultOf);
  }
}
