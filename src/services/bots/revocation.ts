/**
 * What revoking a bot's key withdraws, beyond the key itself (BotService.revoke): everything pending that would
 * seat the bot later. Its queued quick-match tickets (the queue room also checks each bot at pairing, so a ticket
 * it misses never seats the bot either); its league entries (a league not started drops it, a running one voids
 * its deals not yet played); its tournament entries (withdrawn, as its token would withdraw them); and its games
 * not yet played (aborted; a tournament's forfeited). Run after the revocation is stored: anything that reads
 * the bot from then on sees it revoked.
 */
import type { Logger } from "../../shared/logger";
import type { QuickMatch } from "../games/quick-match";
import type { GameCreation } from "../games/creation";
import type { TournamentService } from "../tournaments/service";

export interface RevocationDeps {
  quick: Pick<QuickMatch, "withdrawBot">;
  /** The leagues (LeagueService), through this port: they sit above the bots (they read a bot's key). */
  leagues: { withdrawBot(botId: string): Promise<unknown> };
  tournaments: Pick<TournamentService, "withdrawPlayer">;
  games: Pick<GameCreation, "withdrawPlayer">;
  log: Logger;
}

export class BotRevocation {
  constructor(private readonly deps: RevocationDeps) {}

  /**
   * Withdraws the bot everywhere. Tickets and entries go first, so that nothing makes a new game for it while
   * its games are aborted. A step that fails is logged and the others still run: the key is revoked whatever
   * happens here, and a request to retry would be refused with it.
   */
  async withdraw(botId: string): Promise<void> {
    const steps: [string, () => Promise<unknown>][] = [
      ["quick-match tickets", () => this.deps.quick.withdrawBot(botId)],
      ["league entries", () => this.deps.leagues.withdrawBot(botId)],
      ["tournament entries", () => this.deps.tournaments.withdrawPlayer(botId)],
      ["games not yet played", () => this.deps.games.withdrawPlayer(botId)],
    ];
    for (const [what, step] of steps) {
      await step().catch((err: unknown) => this.deps.log.error({ err, botId }, `a revoked bot's ${what} were not all withdrawn`));
    }
  }
}
