/**
 * Player profiles: guests made on first play (a friend code and a secret returned once), results applied
 * when a game finishes, and the public profile of spec 2.2.
 */
import type { ChampionId, Seat } from "../../engine";
import { AppError } from "../../shared/errors";
import { newFriendCode, newPlayerSecret, sameHash, sha256Hex } from "../../shared/secrets";
import { insertWithFreshId } from "../../store/duplicate";
import type { GameRecord, PlayerRecord, PlayerUpdate, RatingPoint, Store } from "../../store/port";
import { BEATEN_KEPT, unratedBecause, type Unrated } from "./integrity";
import { newProfile } from "./new-profile";
import { DEFAULT_RATING, houseRated, isProvisional, rankOf, rateSeat, scoreOf, type Rated } from "./rating";
import { otherSeat } from "../../engine";

export interface PlayerRef {
  id: string;
  secret: string;
}
/** A seat's profile as read for rating (none for the house), and the rating it plays at. */
interface Loaded {
  player: PlayerRecord | null;
  rated: Rated;
}
export interface Resolved {
  player: PlayerRecord;
  secret?: string;
}

const FORM_LENGTH = 10;
const RATED_GAMES_KEPT = 20;
/** Versioned writes that lose a race are retried from a fresh read; past this many something is wrong. */
const MAX_WRITE_ATTEMPTS = 20;

export class PlayerService {
  constructor(
    private readonly store: Pick<Store, "players" | "communities" | "ratings">,
    private readonly baseUrl: string,
    private readonly now: () => Date = () => new Date(),
    /** Draws a friend code; a repeat is retried with a new one (tests force repeats). */
    private readonly newId: () => string = newFriendCode,
    /** The hashed address of the request being served (origin.ts), kept on the profiles it makes. */
    private readonly origin: () => string | undefined = () => undefined,
  ) {}

  /** The profile named by `ref` (checked against its secret), or a new guest profile. */
  async resolve(ref: PlayerRef | undefined, name: string | undefined): Promise<Resolved> {
    return this.resolveAnd(ref, name, (p) => this.store.players.createPlayer(p));
  }

  /**
   * Like resolve, but a new guest profile is stored by `store` together with what it is made for (the game
   * its seat is in, GamesPort.createGame), in one durable write; `store` is called again with a fresh id
   * when the profile's id was taken.
   */
  async resolveWith(
    ref: PlayerRef | undefined,
    name: string | undefined,
    store: (guest: PlayerRecord | null, player: PlayerRecord) => Promise<void>,
  ): Promise<Resolved> {
    let stored = false;
    const resolved = await this.resolveAnd(ref, name, async (p) => {
      await store(p, p);
      stored = true;
    });
    if (!stored) await store(null, resolved.player);
    return resolved;
  }

  private async resolveAnd(ref: PlayerRef | undefined, name: string | undefined, insertGuest: (p: PlayerRecord) => Promise<void>): Promise<Resolved> {
    if (ref) {
      const p = await this.store.players.getPlayer(ref.id);
      if (!p || !sameHash(p.secretHash, sha256Hex(ref.secret))) throw new AppError("unauthorized", "unknown player id or wrong player secret");
      if (p.movedTo) return this.resolve({ id: p.movedTo, secret: ref.secret }, name);
      if (name && name !== p.name) await this.store.players.updatePlayer(p.id, { name });
      return { player: { ...p, name: name ?? p.name } };
    }
    const secret = newPlayerSecret();
    const at = this.now().toISOString();
    const createdFrom = this.origin();
    const guest = (id: string): PlayerRecord => newProfile({ id, name: name ?? "Guest", secretHash: sha256Hex(secret) }, at, createdFrom);
    const player = await insertWithFreshId(this.newId, guest, insertGuest);
    return { player, secret };
  }

  /**
   * Applies a finished game to both human profiles. Aborted games and private (casual) games are not rated. Each seat's profile is a
   * versioned read-modify-write: another process finishing a game of the same player at the same moment
   * makes that seat's write miss, and it is computed again from what the other process wrote, so no result
   * is lost. Both profiles are read once per attempt, for both seats' ratings, and both results are stored in
   * one write (one transaction with SQLite). `champions` are the ones the game was played with (the
   * engine's: a seat that chose none got one drawn by the seed), each counted towards its seat's favourite.
   */
  async recordResult(game: GameRecord, champions: Readonly<Record<Seat, ChampionId>>): Promise<void> {
    let pending: Seat[] = ["A", "B"];
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS && pending.length > 0; attempt++) {
      // Both seats' results in one write; a seat whose profile changed since it was read is read and retried.
      const writes = await this.resultWrites(game, champions, pending);
      const wrote = writes.length > 0 ? await this.store.players.updatePlayersIf(writes.map((w) => w.update)) : [];
      pending = writes.filter((_, i) => !wrote[i]).map((w) => w.seat);
    }
    if (pending.length > 0) throw new Error(`players of seats ${pending.join(", ")} in game ${game.id}: rating update kept conflicting`);
  }

  /**
   * The profile writes of a finished game's results, as recordResult makes them, for a caller that stores
   * them itself (with the game's own write: GameWrite.players); when that write is "stale", it asks again.
   */
  async resultUpdates(game: GameRecord, champions: Readonly<Record<Seat, ChampionId>>): Promise<PlayerUpdate[]> {
    return (await this.resultWrites(game, champions, ["A", "B"])).map((w) => w.update);
  }

  /** One read of both profiles and the conditional writes of `seats`' results (none for an unrated end). */
  private async resultWrites(
    game: GameRecord,
    champions: Readonly<Record<Seat, ChampionId>>,
    seats: Seat[],
  ): Promise<Array<{ seat: Seat; update: PlayerUpdate }>> {
    // A private game is casual: it leaves both profiles as they were (no rating, no point, no count), since
    // every rated step must be in the public log, which a private game never enters.
    if (game.status !== "finished" || game.decidedBy === "aborted" || game.public === false) return [];
    const [a, b] = await Promise.all([this.load(game, "A"), this.load(game, "B")]);
    const profiles = { A: a, B: b };
    const unrated = a.player && b.player ? unratedBecause({ A: a.player, B: b.player }, game.winner, this.now().getTime()) : null;
    return seats.flatMap((seat) => {
      const update = this.resultUpdate(game, seat, profiles, champions[seat], unrated);
      return update ? [{ seat, update }] : [];
    });
  }

  /**
   * The write of a game's result into one seat's profile as read, conditional on its version; null when
   * there is nothing to write (the house, or a game this profile already counts). An `unrated` game
   * (integrity.ts) counts in the record but leaves the rating as it was.
   */
  private resultUpdate(game: GameRecord, seat: Seat, profiles: Record<Seat, Loaded>, champion: ChampionId, unrated: Unrated | null): PlayerUpdate | null {
    const other: Seat = otherSeat(seat);
    const mine = profiles[seat];
    const theirs = profiles[other];
    const p = mine.player;
    // A game is applied once per profile, even when a restart replays the end of a game.
    if (!p || p.ratedGames?.includes(game.id)) return null;
    const score = scoreOf(game.winner, seat);
    const rated = unrated ? { rating: p.rating, rd: p.rd, volatility: p.volatility } : rateSeat(mine.rated, theirs.rated, score);
    const outcome = game.winner === "draw" ? "D" : game.winner === seat ? "W" : "L";
    const beaten = outcome === "W" && theirs.player ? { beaten: [...(p.beaten ?? []), theirs.player.id].slice(-BEATEN_KEPT) } : {};
    const champions = { ...p.champions };
    const c = champions[champion] ?? { games: 0, wins: 0 };
    champions[champion] = { games: c.games + 1, wins: c.wins + (outcome === "W" ? 1 : 0) };
    // The rating history's point for this game, stored with the profile (RatingsPort); an unrated game adds none.
    // The step is kept with the point so the public log's entry lets anyone recompute it (src/services/log/check.ts).
    const house = game.seats[other]?.kind === "house" || !game.seats[other] ? { house: game.level ?? "normal" } : {};
    const previous = p.lastRated ? { gameId: p.lastRated.gameId, n: p.lastRated.n } : neverRated(mine.rated) ? null : undefined;
    const step = { before: mine.rated, opponent: theirs.rated, ...house, score, volatility: rated.volatility, ...(previous !== undefined ? { previous } : {}) };
    const lastRated = unrated
      ? {}
      : { lastRated: { gameId: game.id, at: game.finishedAt ?? this.now().toISOString(), n: p.games + 1, rating: rated.rating, rd: rated.rd, step } };
    return {
      id: p.id,
      expected: { version: p.version },
      patch: {
        ...rated,
        ...beaten,
        ...lastRated,
        games: p.games + 1,
        wins: p.wins + (outcome === "W" ? 1 : 0),
        losses: p.losses + (outcome === "L" ? 1 : 0),
        draws: p.draws + (outcome === "D" ? 1 : 0),
        recentForm: (outcome + p.recentForm).slice(0, FORM_LENGTH),
        champions,
        ratedGames: [...(p.ratedGames ?? []), game.id].slice(-RATED_GAMES_KEPT),
        version: (p.version ?? 0) + 1,
      },
    };
  }

  private async load(game: GameRecord, seat: Seat): Promise<Loaded> {
    const s = game.seats[seat];
    if (!s || s.kind === "house") return { player: null, rated: houseRated(game.level ?? "normal") };
    const player = await this.store.players.getPlayer(s.playerId);
    if (!player) return { player, rated: { ...DEFAULT_RATING } };
    // A profile this game was applied to already (the other seat's write went in, this one is retried) is read
    // as it was before the game, so both seats are rated against the same pre-game values.
    const step = player.lastRated?.gameId === game.id ? player.lastRated.step : undefined;
    const { rating, rd, volatility } = step?.before ?? player;
    return { player, rated: { rating, rd, volatility } };
  }

  /** The public profile (spec 2.2). A guest that moved to an account answers with the account and `movedFrom`. */
  async profile(id: string) {
    let p = await this.store.players.getPlayer(id);
    let movedFrom: string | undefined;
    if (p?.movedTo) {
      movedFrom = p.id;
      p = await this.store.players.getPlayer(p.movedTo);
    }
    if (!p) throw new AppError("not_found", `no player with id ${id}`);
    const clubs = await this.clubsOf(p);
    return {
      player: this.publicPlayer(p),
      ...(movedFrom ? { movedFrom } : {}),
      clubs,
    };
  }

  /**
   * A player's rating history, a page of it: one point per rated game, oldest first, after the point numbered
   * `after` (0: from the first). A guest that moved to an account answers with the account's, as profile does.
   */
  async ratingHistory(id: string, after: number, limit: number) {
    let p = await this.store.players.getPlayer(id);
    if (p?.movedTo) p = await this.store.players.getPlayer(p.movedTo);
    if (!p) throw new AppError("not_found", `no player with id ${id}`);
    // One more than asked tells whether another page follows.
    const points = await this.store.ratings.ratingHistory(p.id, after, limit + 1);
    const page = points.slice(0, limit);
    return {
      playerId: p.id,
      ratings: page.map((x) => this.publicPoint(x)),
      nextAfter: points.length > limit ? page[page.length - 1].n : null,
    };
  }

  private publicPoint(x: RatingPoint) {
    return {
      n: x.n,
      gameId: x.gameId,
      at: x.at,
      rating: Math.round(x.rating),
      provisional: isProvisional(x.rd, x.n),
      url: `${this.baseUrl}/api/v1/games/${encodeURIComponent(x.gameId)}`,
    };
  }

  /**
   * Moves a guest profile to a new account: same rating, record and memberships under a new friend code
   * and a new secret (answered once; the guest's secret stops working). The guest id keeps answering
   * with the account and `movedFrom`.
   */
  async claim(guestId: string, body: { secret: string; name?: string }) {
    const guest = await this.store.players.getPlayer(guestId);
    if (!guest || !sameHash(guest.secretHash, sha256Hex(body.secret))) throw new AppError("unauthorized", "unknown player id or wrong player secret");
    if (guest.movedTo) throw new AppError("conflict", `this profile already moved to account ${guest.movedTo}`);
    if (guest.isAccount) throw new AppError("conflict", "this profile is already an account");
    const secret = newPlayerSecret();
    const at = this.now().toISOString();
    const { movedTo: _moved, version: _version, ...stats } = guest;
    const build = (id: string): PlayerRecord => ({
      ...stats,
      id,
      name: body.name ?? guest.name,
      secretHash: sha256Hex(secret),
      isAccount: true,
      createdAt: at,
      updatedAt: at,
    });
    // The move is claimed first, conditionally: of two concurrent claims (on any processes) one wins and the
    // other is refused, so a guest never becomes two accounts. The account's id is drawn before the claim;
    // should it be taken already (friend codes can repeat), the guest is pointed at a newly drawn one.
    let pointed = this.newId();
    let version = (guest.version ?? 0) + 1;
    const won = await this.store.players.updatePlayerIf(guest.id, { version: guest.version, movedTo: undefined }, { movedTo: pointed, version });
    if (!won)
      throw new AppError("conflict", "this profile changed while it was being claimed (claimed elsewhere or a game was rated); read it again and retry");
    const claimedId = [pointed];
    const account = await insertWithFreshId(
      () => claimedId.shift() ?? this.newId(),
      build,
      async (p) => {
        if (p.id !== pointed) {
          await this.store.players.updatePlayerIf(guest.id, { version, movedTo: pointed }, { movedTo: p.id, version: version + 1 });
          version += 1;
          pointed = p.id;
        }
        await this.store.players.createPlayer(p);
      },
    );
    for (const c of await this.store.communities.communitiesOf(guest.id)) {
      await this.store.communities.addMember(c.id, account.id);
      await this.store.communities.removeMember(c.id, guest.id);
    }
    return { account: { id: account.id, secret }, movedFrom: guest.id, player: this.publicPlayer(account) };
  }

  /** The profile as its owner is shown it on first play: public fields, plus a new guest's secret, once. */
  introduce({ player, secret }: Resolved) {
    return { ...this.publicPlayer(player), ...(secret ? { secret } : {}) };
  }

  publicPlayer(p: PlayerRecord) {
    return {
      id: p.id,
      name: p.name,
      rating: Math.round(p.rating),
      rank: rankOf(p.rating),
      provisional: isProvisional(p.rd, p.games),
      games: p.games,
      winRate: p.games ? Math.round((p.wins / p.games) * 1000) / 1000 : 0,
      favoriteChampion: favoriteChampion(p.champions),
      recentForm: p.recentForm,
      updatedAt: p.updatedAt,
      url: `${this.baseUrl}/api/v1/players/${encodeURIComponent(p.id)}`,
      ...(p.kind ? { kind: p.kind } : {}),
    };
  }

  private async clubsOf(p: PlayerRecord) {
    const communities = await this.store.communities.communitiesOf(p.id);
    return Promise.all(
      communities.map(async (c) => {
        const ranked = await this.store.players.rankPlayers(c.members, c.members.length, 0);
        return { id: c.id, kind: c.kind, name: c.name, members: c.members.length, place: ranked.findIndex((r) => r.id === p.id) + 1 };
      }),
    );
  }
}

/** At the rating every profile starts from: a profile without a previous point that is there was never rated. */
const neverRated = (r: Rated): boolean => r.rating === DEFAULT_RATING.rating && r.rd === DEFAULT_RATING.rd && r.volatility === DEFAULT_RATING.volatility;

/** The champion played most (ties: more wins, then name); null before any game. */
export function favoriteChampion(stats: PlayerRecord["champions"]) {
  const entries = Object.entries(stats) as Array<[ChampionId, { games: number; wins: number }]>;
  if (entries.length === 0) return null;
  entries.sort((a, b) => b[1].games - a[1].games || b[1].wins - a[1].wins || a[0].localeCompare(b[0]));
  const [name, s] = entries[0];
  return { name, games: s.games, wins: s.wins, winRate: Math.round((s.wins / s.games) * 1000) / 1000 };
}
