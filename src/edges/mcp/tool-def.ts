/** What an MCP tool is and what it may call: shared by the game tools and the tournament tools. */
import type { z } from "zod";
import type { LongPolls } from "../api/long-polls";
import type { QuickMatch } from "../../services/games/quick-match";
import type { GameCreation } from "../../services/games/creation";
import type { GamePlay } from "../../services/games/play";
import type { GameReads } from "../../services/games/reads";
import type { PlayerService } from "../../services/players/service";
import type { JoinCaps } from "../api/join-caps";
import type { TournamentService } from "../../services/tournaments";
import type { LeagueService } from "../../services/leagues";
import type { BotDirectory } from "../../services/bots/directory";
import type { LogService } from "../../services/log/service";

export interface ToolDeps {
  gameCreation: GameCreation;
  gamePlay: GamePlay;
  gameReads: GameReads;
  quick: QuickMatch;
  players: PlayerService;
  tournaments: TournamentService;
  /** The caps on tournament joins per minute, shared with REST (absent: no cap). */
  tournamentJoins?: JoinCaps;
  leagues: LeagueService;
  /** The bot directory (GET /bots). */
  bots: BotDirectory;
  /** The public game log's reads. */
  publicLog: LogService;
  /** Long-polls waiting per address, shared with REST. */
  longPolls: LongPolls;
  /** The client address of the session (the one that initialized it). */
  address: string;
}

export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodObject;
  /** What a call answers (`structuredContent`): the REST operation's response schema, published as outputSchema. */
  output: z.ZodType;
  /** Read-only tools are marked so agents may call them freely. */
  readOnly: boolean;
  run(args: unknown, deps: ToolDeps): Promise<unknown>;
}

export const def = <S extends z.ZodObject>(
  name: string,
  readOnly: boolean,
  description: string,
  input: S,
  output: z.ZodType,
  run: (args: z.output<S>, deps: ToolDeps) => Promise<unknown>,
): ToolDef => ({
  name,
  description,
  input,
  output,
  readOnly,
  run,
});
