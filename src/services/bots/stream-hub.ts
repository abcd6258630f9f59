/**
 * The bot event hub behind GET /stream/events: push without a public HTTPS callback. A keyed request that
 * seats a bot in a game (create, join, quick match) or challenges one announces it on presence, so every
 * process hears it; each process then follows the game's change channel and turns changes into the bot's
 * events: gameStart, yourTurn, gameFinish (with the result from the bot's side), challenge, challengeDeclined.
 *
 * Event ids are made of the game and its move count (`g_x/5/yourTurn`), so every process names an event the
 * same way and a stream resumed with Last-Event-ID on another process skips what was already seen. Each bot
 * keeps its last events for the resume window; nothing is kept for a bot with no live game and no recent
 * stream, so idle streams cost a timer each and no growth.
 *
 * What is kept is split by who causes it. Game events come from games the bot's own key seated it in; challenges
 * are sent by other bots, as many as they like. The two are kept apart, so no number of challenges evicts a game
 * event, and challenges are kept at most CHALLENGES_KEPT_PER_SENDER per sender (its latest), so one sender cannot
 * crowd out the others' either. Live streams get every event as it happens; the bounds are on what is kept.
 *
 * Revoking a key is announced on the same channel: every process ends the bot's streams at once, forgets what it
 * kept and followed for it, and refuses it a stream for the resume window (a request authenticated just before
 * the revocation may reach the stream route just after it).
 */
import type { Presence } from "@colyseus/core";
import { resultFor, type Seat, otherSeat } from "../../engine";
import { changeChannel } from "../games/ports";
import type { GameReads } from "../games/reads";
import type { Logger } from "../../shared/logger";

export const ANNOUNCE_CHANNEL = "bot-announce";
/** Game events (gameStart, yourTurn, gameFinish of the bot's own games) kept per bot for resuming. */
export const GAME_EVENTS_KEPT = 500;
/** Challenge events (challenge, challengeDeclined: sent by other bots) kept per bot for resuming. */
export const CHALLENGES_KEPT = 100;
/** Of those, kept per sending bot (its latest): one sender's flood coalesces to its latest few. */
export const CHALLENGES_KEPT_PER_SENDER = 5;

export type BotEvent =
  | { id: string; type: "gameStart"; gameId: string; seat: Seat; urls: { play: string; watch: string }; playerToken?: string }
  | { id: string; type: "yourTurn"; gameId: string; seat: Seat; moveCount: number; lastMove: string | null }
  | {
      id: string;
      type: "gameFinish";
      gameId: string;
      seat: Seat;
      result: "win" | "loss" | "draw" | null;
      winner: string | null;
      decidedBy: string | null;
      score: Record<Seat, number>;
      replayPage: string;
    }
  | { id: string; type: "challenge"; from: { id: string; name: string }; gameId: string; code: string; ruleset: string; expiresAt: string | null }
  | { id: string; type: "challengeDeclined"; gameId: string; by: { id: string; name: string } };

/** What is announced: a bot seated in a game, a challenge for a bot or its challenge declined, or its key revoked. */
export type Announcement =
  /** `playerToken` only for a seat not answered to the bot's own request (a challenge's game it hosts, a queued ticket paired later). */
  | { kind: "seat"; botId: string; gameId: string; seat: Seat; playerToken?: string }
  | { kind: "challenge"; botId: string; event: Extract<BotEvent, { type: "challenge" | "challengeDeclined" }> }
  | { kind: "revoked"; botId: string };

type Listener = (e: BotEvent) => void;
/** A stream following a bot: each event, and the end of the stream when the bot's key is revoked. */
export interface Subscriber {
  event: Listener;
  revoked: () => void;
}
type ChallengeEvent = Extract<BotEvent, { type: "challenge" | "challengeDeclined" }>;
/** A kept event and its place among the bot's events in this process (`seq`), to replay both kinds in order. */
interface Kept<E extends BotEvent = BotEvent> {
  seq: number;
  e: E;
}
interface BotState {
  game: Kept[];
  challenges: Array<Kept<ChallengeEvent>>;
  seq: number;
  listeners: Set<Subscriber>;
  games: Set<string>;
  touched: number;
}

const isChallenge = (e: BotEvent): e is ChallengeEvent => e.type === "challenge" || e.type === "challengeDeclined";
/** The bot that caused a challenge event: the challenger, or the bot that declined. */
const senderOf = (e: ChallengeEvent): string => (e.type === "challenge" ? e.from.id : e.by.id);
/** Per bot of a game: its seat, the token it was given, and how many move counts were looked at for turns. */
interface Watched {
  seats: Map<string, { seat: Seat; playerToken?: string; turnsSeen: number }>;
  cancel: () => void;
}

export class BotStreamHub {
  private readonly bots = new Map<string, BotState>();
  private readonly games = new Map<string, Watched>();
  /** Bots whose key was revoked, and when: no stream, event or seat is taken for them within the resume window. */
  private readonly revokedAt = new Map<string, number>();
  private readonly onAnnounce = (a: Announcement) => void this.heard(a);
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly presence: Presence,
    private readonly gameService: Pick<GameReads, "record">,
    private readonly log: Logger,
    /** How long a bot's events are kept after its last stream closed and its games ended (resume window). */
    private readonly resumeMs = 5 * 60_000,
  ) {}

  async start(): Promise<void> {
    await this.presence.subscribe(ANNOUNCE_CHANNEL, this.onAnnounce);
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, this.resumeMs / 5));
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.presence.unsubscribe(ANNOUNCE_CHANNEL, this.onAnnounce);
    for (const g of this.games.values()) g.cancel();
    this.games.clear();
    this.bots.clear();
  }

  /** Tells every process that a bot holds a seat, or is challenged. */
  announce(a: Announcement): void {
    void this.presence.publish(ANNOUNCE_CHANNEL, a);
  }

  /**
   * After a bot's key was revoked: ends its streams in this process now, and on every other process once the
   * announcement is published (awaited, so that anything published after, a game's change included, reaches
   * each process after it).
   */
  async revoke(botId: string): Promise<void> {
    this.forget(botId);
    await this.presence.publish(ANNOUNCE_CHANNEL, { kind: "revoked", botId } satisfies Announcement);
  }

  /** True when the bot's key was revoked within the resume window: its key must not open a stream. */
  isRevoked(botId: string): boolean {
    return this.revokedAt.has(botId);
  }

  /**
   * Follows a bot's events: first those after `lastEventId` still kept (all kept ones with no id), then
   * new ones as they happen. Returns the unsubscribe.
   */
  listen(botId: string, lastEventId: string | undefined, subscriber: Subscriber): () => void {
    if (this.isRevoked(botId)) {
      subscriber.revoked();
      return () => {};
    }
    const bot = this.bot(botId);
    const kept = [...bot.game, ...bot.challenges].sort((x, y) => x.seq - y.seq);
    const from = lastEventId === undefined ? 0 : kept.findIndex((k) => k.e.id === lastEventId) + 1;
    for (const k of kept.slice(from)) subscriber.event(k.e);
    bot.listeners.add(subscriber);
    return () => {
      bot.listeners.delete(subscriber);
      bot.touched = Date.now();
    };
  }

  /** Bots and games held in memory (for the idle-stream test and the metrics). */
  size(): { bots: number; games: number; events: number } {
    let events = 0;
    for (const b of this.bots.values()) events += b.game.length + b.challenges.length;
    return { bots: this.bots.size, games: this.games.size, events };
  }

  private bot(id: string): BotState {
    let b = this.bots.get(id);
    if (!b) this.bots.set(id, (b = { game: [], challenges: [], seq: 0, listeners: new Set(), games: new Set(), touched: Date.now() }));
    return b;
  }

  private push(botId: string, e: BotEvent): void {
    if (this.isRevoked(botId)) return;
    const bot = this.bot(botId);
    if (bot.game.some((k) => k.e.id === e.id) || bot.challenges.some((k) => k.e.id === e.id)) return;
    const seq = ++bot.seq;
    if (isChallenge(e)) {
      const sender = senderOf(e);
      bot.challenges.push({ seq, e });
      const fromSender = bot.challenges.filter((k) => senderOf(k.e) === sender);
      if (fromSender.length > CHALLENGES_KEPT_PER_SENDER) bot.challenges.splice(bot.challenges.indexOf(fromSender[0]), 1);
      if (bot.challenges.length > CHALLENGES_KEPT) bot.challenges.shift();
    } else {
      bot.game.push({ seq, e });
      if (bot.game.length > GAME_EVENTS_KEPT) bot.game.shift();
    }
    bot.touched = Date.now();
    for (const l of bot.listeners) l.event(e);
  }

  /** Ends a revoked bot's streams here, and drops its kept events and its seats in followed games. */
  private forget(botId: string): void {
    this.revokedAt.set(botId, Date.now());
    const bot = this.bots.get(botId);
    this.bots.delete(botId);
    for (const l of bot?.listeners ?? []) l.revoked();
    // A game left with no bot to tell is still followed until it finishes (check ends it then): cancelling it
    // here could race a subscription still being made for it.
    for (const w of this.games.values()) w.seats.delete(botId);
  }

  private async heard(a: Announcement): Promise<void> {
    if (a.kind === "revoked") return this.forget(a.botId);
    if (this.isRevoked(a.botId)) return;
    if (a.kind === "challenge") return this.push(a.botId, a.event);
    this.bot(a.botId).games.add(a.gameId);
    let w = this.games.get(a.gameId);
    let subscribed: Promise<unknown> | undefined;
    if (!w) {
      // Kept before the subscription is awaited: the other seat's announcement of the same game (a game of two
      // bots) arrives meanwhile, and must add its seat to this watch, not make a second one that replaces it.
      const changed = () => void this.check(a.gameId);
      w = { seats: new Map(), cancel: () => void this.presence.unsubscribe(changeChannel(a.gameId), changed) };
      this.games.set(a.gameId, w);
      subscribed = this.presence.subscribe(changeChannel(a.gameId), changed);
    }
    w.seats.set(a.botId, { seat: a.seat, turnsSeen: 0, ...(a.playerToken ? { playerToken: a.playerToken } : {}) });
    await subscribed;
    await this.check(a.gameId);
  }

  /** Reads the game after a change and pushes the events it implies to each of its bots. */
  private async check(gameId: string): Promise<void> {
    const w = this.games.get(gameId);
    if (!w) return;
    let g;
    try {
      // Read for the bots seated here, whose seats the service gave them: a private game's too.
      g = await this.gameService.record(gameId, undefined, "service");
    } catch (err) {
      this.log.warn({ err, gameId }, "bot stream could not read a game");
      return;
    }
    if (g.status === "waiting") return;
    for (const [botId, entry] of w.seats) {
      const { seat, playerToken } = entry;
      // A game aborted before it began (an invite declined or never answered) only finishes.
      if (entry.turnsSeen === 0 && g.firstPlayer)
        this.push(botId, {
          id: `${gameId}/0/gameStart`,
          type: "gameStart",
          gameId,
          seat,
          urls: { play: g.urls.play, watch: g.urls.watch },
          ...(playerToken ? { playerToken } : {}),
        });
      // Every turn of the bot since the game began, from the moves rather than the turn now: a bot that moves
      // before this read would otherwise have a turn that no read ever saw. Ids make repeats no-ops.
      const first = g.firstPlayer;
      const turns = g.status === "active" ? g.moveCount + 1 : g.moveCount;
      for (let m = entry.turnsSeen; first && m < turns; m++) {
        if ((m % 2 === 0 ? first : otherSeat(first)) !== seat) continue;
        this.push(botId, { id: `${gameId}/${m}/yourTurn`, type: "yourTurn", gameId, seat, moveCount: m, lastMove: g.moves[m - 1] ?? null });
      }
      if (first) entry.turnsSeen = Math.max(entry.turnsSeen, turns);
      if (g.status === "finished") {
        const winner = g.winner ?? null;
        this.push(botId, {
          id: `${gameId}/${g.moveCount}/gameFinish`,
          type: "gameFinish",
          gameId,
          seat,
          result: resultFor(winner, seat),
          winner,
          decidedBy: g.decidedBy ?? null,
          score: g.score,
          replayPage: g.urls.replayPage,
        });
        this.bot(botId).games.delete(gameId);
      }
    }
    if (g.status === "finished") {
      w.cancel();
      this.games.delete(gameId);
    }
  }

  /** Forgets bots with no listener, no live game and nothing new within the resume window. */
  private sweep(): void {
    const cutoff = Date.now() - this.resumeMs;
    for (const [id, at] of this.revokedAt) if (at < cutoff) this.revokedAt.delete(id);
    for (const [id, b] of this.bots) if (b.listeners.size === 0 && b.games.size === 0 && b.touched < cutoff) this.bots.delete(id);
  }
}
