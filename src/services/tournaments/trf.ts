/**
 * FIDE Tournament Report File (TRF-16) export and a parser for it, so that standard pairing checkers
 * (JaVaFo, bbpPairings) can re-verify every round. Player ids go in the name field; start ranks follow
 * rating order, as FIDE numbers players.
 */

import { NAME_REFUSED } from "../../shared/validation";
import { records, standings, type SwissPlayer, type SwissRound } from "./swiss";

export interface TrfGame {
  /** Opponent's start rank; 0 for a bye. */
  opponent: number;
  colour: "w" | "b" | "-";
  /** "1", "0", "=" for played games; "U" for a pairing-allocated bye; "*" while running (not in TRF-16). */
  result: string;
}

export interface TrfPlayer {
  startRank: number;
  name: string;
  rating: number;
  points: number;
  rank: number;
  games: TrfGame[];
}

export interface TrfFile {
  name: string;
  rounds: number;
  players: TrfPlayer[];
}

const pad = (v: string | number, width: number): string => String(v).padStart(width).slice(-width);

const REFUSED = new RegExp(NAME_REFUSED.source, "gu");

/**
 * Text as one TRF field: a record is one line, so whatever names refuse now (line breaks, other control
 * characters: validation.ts) becomes a space. Names stored before they were refused are exported this way.
 */
export const trfField = (text: string): string => text.replace(REFUSED, " ").replace(/ {2,}/g, " ").trim();

/** Exports a swiss as TRF-16 text (`totalRounds` goes into the XXR line that pairing checkers read). */
export function exportTrf(name: string, totalRounds: number, players: readonly SwissPlayer[], rounds: readonly SwissRound[]): string {
  const start = [...players].sort((a, b) => b.rating - a.rating || (a.id < b.id ? -1 : 1));
  const startRank = new Map(start.map((p, i) => [p.id, i + 1]));
  const rank = new Map(standings(players, rounds).map((s) => [s.id, s.rank]));
  const recs = records(players, rounds);
  const lines = [`012 ${trfField(name)}`, `062 ${players.length}`, `XXR ${totalRounds}`];
  for (const p of start) {
    let line = `001 ${pad(startRank.get(p.id)!, 4)}      ${trfField(p.id).slice(0, 33).padEnd(33)} ${pad(Math.round(p.rating), 4)}`;
    line = line.padEnd(80) + `${pad(recs.get(p.id)!.score.toFixed(1), 4)} ${pad(rank.get(p.id)!, 4)}`;
    for (const round of rounds) {
      line += "  " + cell(p.id, round, startRank);
    }
    lines.push(line);
  }
  return lines.join("\n") + "\n";
}

function cell(id: string, round: SwissRound, startRank: Map<string, number>): string {
  if (round.bye === id) return "0000 - U";
  for (const g of round.pairings) {
    const first = g.first === id;
    if (!first && g.second !== id) continue;
    const opp = startRank.get(first ? g.second : g.first) ?? 0;
    const result = g.outcome === undefined ? "*" : g.outcome === "draw" ? "=" : (g.outcome === "first") === first ? "1" : "0";
    return `${pad(opp, 4)} ${first ? "w" : "b"} ${result}`;
  }
  return "0000 - Z"; // not paired (withdrawn): FIDE's zero-point bye
}

/** Parses the lines of a TRF-16 file this exporter understands (012, XXR and 001 records). */
export function parseTrf(text: string): TrfFile {
  const out: TrfFile = { name: "", rounds: 0, players: [] };
  for (const line of text.split(/\r?\n/)) {
    const code = line.slice(0, 3);
    if (code === "012") out.name = line.slice(4).trim();
    else if (code === "XXR") out.rounds = Number(line.slice(4).trim());
    else if (code === "001") {
      const games: TrfGame[] = [];
      for (let at = 91; at + 8 <= line.length; at += 10) {
        games.push({
          opponent: Number(line.slice(at, at + 4)),
          colour: line[at + 5] as TrfGame["colour"],
          result: line[at + 7],
        });
      }
      out.players.push({
        startRank: Number(line.slice(4, 8)),
        name: line.slice(14, 47).trim(),
        rating: Number(line.slice(48, 52)),
        points: Number(line.slice(80, 84)),
        rank: Number(line.slice(85, 89)),
        games,
      });
    }
  }
  return out;
}
