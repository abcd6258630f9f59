/**
 * The bot directory: every bot account, newest first, with its public face (name, description, profile) and
 * where it has played: the leagues and tournaments it entered among the newest ones. Public fields only: a
 * bot's key hash and its owner's contact are never part of it.
 */
import type { BotsPort, LeaguesPort, TournamentsPort } from "../../store/port";
import type { BotService } from "./service";

/** Leagues and tournaments read (the newest of each) to name those a bot entered: one read each per page. */
export const ENTRIES_SCANNED = 100;

export class BotDirectory {
  constructor(
    private readonly store: {
      bots: Pick<BotsPort, "listBots">;
      leagues: Pick<LeaguesPort, "listLeagues">;
      tournaments: Pick<TournamentsPort, "listTournaments">;
    },
    private readonly bots: Pick<BotService, "publicBot">,
  ) {}

  /** A page of bots, newest first; `nextOffset` is the next page's offset, null after the last. */
  async list(limit: number, offset: number) {
    const [page, leagues, tournaments] = await Promise.all([
      // One more than asked tells whether another page follows.
      this.store.bots.listBots(limit + 1, offset),
      this.store.leagues.listLeagues(ENTRIES_SCANNED),
      this.store.tournaments.listTournaments(ENTRIES_SCANNED),
    ]);
    const entered = <T extends { id: string; name: string; status: string; entrants: readonly { playerId: string }[] }>(list: readonly T[], botId: string) =>
      list.filter((x) => x.entrants.some((e) => e.playerId === botId)).map((x) => ({ id: x.id, name: x.name, status: x.status }));
    const bots = await Promise.all(
      page.slice(0, limit).map(async (b) => {
        const view = await this.bots.publicBot(b);
        return {
          ...view,
          // A bot's profile changes when it registers and with each result: its latest sign of life on record.
          lastSeen: view.player?.updatedAt ?? b.createdAt,
          leagues: entered(leagues, b.id),
          tournaments: entered(tournaments, b.id),
        };
      }),
    );
    return { bots, nextOffset: page.length > limit ? offset + limit : null };
  }
}
