/**
 * Hosted agent challenges: an agent asks for a link, a human accepts it and plays the house opponent (the
 * hosted agent) at the challenge's level, and the agent reads the verified result. The service's own game
 * record is the only authority: a result report is checked against it, never trusted.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../../shared/errors";
import { KeyedQueue } from "../../shared/keyed-queue";
import type { EventData } from "../events/catalog";
import type { EmittedEvent } from "../events/types";
import { CreateGameBody } from "../games/schemas";
import type { Seat } from "../../engine";
import { newPlayerToken, sha256Hex } from "../../shared/secrets";
import type { GameCreation } from "../games/creation";
import type { GameReads } from "../games/reads";
import type { SeatClaim } from "../games/seats";
import { linksFor } from "../games/views";
import type { PlayerService } from "../players/service";
import type { ChallengeRecord, ChallengesPort, GameRecord, GamesPort } from "../../store/port";
import { seatKindOf } from "../games/record";
import { ChallengeToken, type AcceptChallengeBody, type CreateChallengeBody, type ResultBody } from "./schemas";
import { otherSeat } from "../../engine";

export interface ChallengeDeps {
  store: { challenges: ChallengesPort; games: Pick<GamesPort, "getGame"> };
  games: Pick<GameCreation, "create">;
  players: Pick<PlayerService, "profile">;
  /** What a challenge hosted by the agent's own bot needs; without it such challenges are refused. */
  hosting?: {
    games: Pick<GameCreation, "createMatched">;
    /** The new game's record, as the human's seat reads it. */
    reads: Pick<GameReads, "record">;
    players: Pick<PlayerService, "resolve" | "introduce">;
    /** Tells a bot, on its event stream, of the seat it holds in a challenge's game, with the seat's token. */
    seatBot(botId: string, gameId: string, seat: Seat, playerToken: string): void;
  };
  emit(event: EmittedEvent): void;
  baseUrl: string;
  now?: () => Date;
}

type Status = ChallengeRecord["status"];

const newChallengeToken = (): string => `ch_${randomBytes(18).toString("base64url")}`;

export class ChallengeService {
  private readonly now: () => Date;
  /**
   * Per-token queue: accept, report and settle of one challenge never interleave in this process. Across
   * processes each step is also a conditional store update, so exactly one of two racing steps wins.
   */
  private readonly perToken = new KeyedQueue();

  constructor(private readonly deps: ChallengeDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** A new challenge; `botId` is the bot of the request's key, which plays the human when `opponent` is `bot`. */
  async create(body: Omit<CreateChallengeBody, "opponent"> & { opponent?: CreateChallengeBody["opponent"] }, botId?: string) {
    if (body.opponent === "bot" && !this.deps.hosting) throw new AppError("forbidden", "this server does not let bots host challenges");
    if (body.opponent === "bot" && !botId) throw new AppError("unauthorized", "a challenge your bot plays needs the bot's key: `Authorization: Bearer bk_...`");
    const at = this.now();
    const record: ChallengeRecord = {
      token: newChallengeToken(),
      agent: { name: body.agent.name, ...(body.agent.url ? { url: body.agent.url } : {}) },
      level: body.level,
      ruleset: body.ruleset,
      status: "open",
      ...(body.opponent === "bot" ? { botId } : {}),
      expiresAt: new Date(at.getTime() + body.expiresInSeconds * 1000).toISOString(),
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
    await this.deps.store.challenges.createChallenge(record);
    return { token: record.token, url: this.humanUrl(record.token), expiresAt: record.expiresAt, status: "open" as const };
  }

  /** The human takes the challenge: a real house game at the challenge's level, once, before expiry. */
  async accept(token: string, body: AcceptChallengeBody) {
    return this.serial(token, async () => {
      const c = await this.load(token);
      if (c.status === "expired") throw new AppError("code_expired", "the challenge expired before it was accepted; ask the agent for a new one");
      const taken = new AppError("already_joined", "the challenge has already been accepted");
      if (c.status !== "open") throw taken;
      if (!(await this.deps.store.challenges.updateChallengeIf(token, { status: "open" }, { status: "playing" }))) throw taken;
      if (c.botId) return this.acceptAgainstBot(c, c.botId, body);
      let created: Awaited<ReturnType<ChallengeDeps["games"]["create"]>>;
      try {
        // The game record names its challenge from creation, so the finish hook can settle it from the record alone.
        created = await this.deps.games.create(
          CreateGameBody.parse({ opponent: "house", level: c.level, ruleset: c.ruleset, name: body.name, player: body.player, seat: "random" }),
          { challengeToken: token },
        );
      } catch (e) {
        // No game was made: the challenge is open again for the next try.
        await this.deps.store.challenges.updateChallengeIf(token, { status: "playing", gameId: undefined }, { status: "open" });
        throw e;
      }
      if (!("playerToken" in created) || !created.player || !created.urls) throw new Error("a house game always seats its creator");
      await this.deps.store.challenges.updateChallenge(token, { gameId: created.game.id, humanPlayerId: created.player.id });
      return {
        game: created.game,
        seat: created.seat,
        playerToken: created.playerToken,
        player: created.player,
        urls: created.urls,
        challenge: this.challengeUrl(token),
      };
    });
  }

  /**
   * The human takes a challenge the agent's own bot plays: a game between the human and the bot's profile,
   * seats drawn at random; the bot is told of its seat and token on its event stream. Callers hold the lock.
   */
  private async acceptAgainstBot(c: ChallengeRecord, botId: string, body: AcceptChallengeBody) {
    const hosting = this.deps.hosting;
    if (!hosting) throw new AppError("forbidden", "this server does not let bots host challenges");
    let gameId: string;
    const resolved = await hosting.players.resolve(body.player, body.name);
    const human: Seat = Math.random() < 0.5 ? "A" : "B";
    const bot: Seat = otherSeat(human);
    const tokens = { [human]: newPlayerToken(), [bot]: newPlayerToken() } as Record<Seat, string>;
    const botProfile = await this.deps.players.profile(botId).catch(() => null);
    try {
      gameId = await hosting.games.createMatched(
        c.ruleset,
        {
          [human]: { playerId: resolved.player.id, name: resolved.player.name, tokenHash: sha256Hex(tokens[human]), kind: seatKindOf(resolved.player) },
          [bot]: { playerId: botId, name: botProfile?.player.name ?? "Bot", tokenHash: sha256Hex(tokens[bot]), kind: "bot" },
        } as Record<Seat, SeatClaim>,
        { challengeToken: c.token, opponent: "hosted" },
      );
    } catch (e) {
      await this.deps.store.challenges.updateChallengeIf(c.token, { status: "playing", gameId: undefined }, { status: "open" });
      throw e;
    }
    await this.deps.store.challenges.updateChallenge(c.token, { gameId, humanPlayerId: resolved.player.id });
    hosting.seatBot(botId, gameId, bot, tokens[bot]);
    const links = linksFor(this.deps.baseUrl, gameId);
    return {
      game: await hosting.reads.record(gameId, tokens[human]),
      seat: human,
      playerToken: tokens[human],
      player: hosting.players.introduce(resolved),
      urls: { play: links.play, watch: links.watch },
      challenge: this.challengeUrl(c.token),
    };
  }

  /** A game client's result report: answered with the verified result, refused when it disagrees. */
  async report(body: ResultBody) {
    return this.serial(body.token, async () => {
      const c = await this.load(body.token);
      if (c.status === "expired") throw new AppError("code_expired", "the challenge expired without being played");
      if (!c.gameId || c.gameId !== body.gameId)
        throw new AppError("result_mismatch", "the report names a game that is not this challenge's game", { field: "gameId" });
      const game = await this.deps.store.games.getGame(c.gameId);
      if (!game || game.status !== "finished")
        throw new AppError("game_not_finished", "the challenge's game is still being played; report once it has finished");
      const settled = c.status === "played" ? c : await this.settleLocked(game);
      if (settled.reportedAt) throw new AppError("conflict", `a result for this challenge was already reported at ${settled.reportedAt}`);
      const wrong = body.winner !== game.winner ? "winner" : body.score.A !== game.score.A || body.score.B !== game.score.B ? "score" : null;
      if (wrong) throw new AppError("result_mismatch", `the reported ${wrong} does not match the game's record`, { field: wrong });
      if (!(await this.deps.store.challenges.updateChallengeIf(c.token, { reportedAt: undefined }, { reportedAt: this.now().toISOString() }))) {
        throw new AppError("conflict", "a result for this challenge was already reported");
      }
      return this.view(await this.load(c.token));
    });
  }

  async get(token: string) {
    return this.view(await this.load(token));
  }

  /**
   * An agent's challenges, newest first, public fields only. Anyone can name an agent, and a challenge's
   * token is its capability (whoever holds it can accept the game), so the list never shows a token, the
   * link that carries it, or the game of a challenge still being played.
   */
  async history(agent: string, limit: number) {
    const list = await this.deps.store.challenges.listChallenges(agent, limit);
    return { agent, challenges: await Promise.all(list.map((c) => this.summary(this.withExpiry(c)))) };
  }

  /**
   * The finish hook of every game, given the finished record as stored: settles the game's challenge, if it
   * has one. The record names its challenge from creation (`accept`), so nothing is read back.
   */
  async onGameFinished(record: GameRecord): Promise<void> {
    const token = record.challengeToken;
    if (!token || record.status !== "finished") return;
    await this.serial(token, () => this.settleLocked(record));
  }

  /** challenge.played for a subscription made after the challenge was played (it fires at once). */
  async eventsNow(token: string): Promise<Array<{ data: Record<string, unknown> }>> {
    const c = await this.load(token);
    return c.status === "played" ? [{ data: await this.playedData(c) }] : [];
  }

  // ---- internals --------------------------------------------------------------------------------

  /** Marks the challenge played and fires challenge.played, once; callers hold the token's lock. */
  private async settleLocked(game: GameRecord): Promise<ChallengeRecord> {
    const c = await this.load(game.challengeToken!);
    if (c.status === "played") return c;
    const humanSeat = game.seats.A?.kind === "human" ? "A" : "B";
    const result = { winner: game.winner, score: { ...game.score }, humanSeat, decidedBy: game.decidedBy ?? "aborted" } as const;
    // Settled by another process meanwhile: it fired challenge.played, so this one does not.
    if (!(await this.deps.store.challenges.updateChallengeIf(c.token, { status: "playing" }, { status: "played", result }))) return this.load(c.token);
    const played = { ...c, status: "played" as const, result };
    this.deps.emit({ name: "challenge.played", match: { token: c.token }, data: await this.playedData(played) });
    return played;
  }

  private async playedData(c: ChallengeRecord): Promise<EventData<"challenge.played">> {
    const { result: r, gameId } = c;
    // Only a played challenge is described, and playing one records its game and result.
    if (!r || !gameId) throw new Error(`challenge ${c.token} has no result yet`);
    const human = await this.human(c);
    return {
      token: c.token,
      game_id: gameId,
      winner: r.winner,
      human_seat: r.humanSeat,
      score: r.score,
      decided_by: r.decidedBy ?? "aborted",
      human: { id: human?.id ?? c.humanPlayerId ?? "", rating: human?.rating ?? 0 },
      replay_url: linksFor(this.deps.baseUrl, gameId).replay,
    };
  }

  /** The human's current profile; an account they later moved to answers for them. */
  private async human(c: ChallengeRecord) {
    if (!c.humanPlayerId) return null;
    return this.deps.players.profile(c.humanPlayerId).then(
      (p) => p.player,
      () => null,
    );
  }

  private async view(c: ChallengeRecord) {
    const human = await this.human(c);
    const links = c.gameId ? linksFor(this.deps.baseUrl, c.gameId) : null;
    return {
      token: c.token,
      status: c.status,
      agent: c.agent,
      level: c.level,
      ruleset: c.ruleset,
      url: this.humanUrl(c.token),
      expiresAt: c.expiresAt,
      createdAt: c.createdAt,
      gameId: c.gameId ?? null,
      result: c.result ? { ...c.result, verified: true, reported: Boolean(c.reportedAt), reportedAt: c.reportedAt ?? null } : null,
      human,
      replayUrl: c.status === "played" && links ? links.replay : null,
      urls: links ? { watch: links.watch, game: `${this.deps.baseUrl}/api/v1/games/${c.gameId}` } : null,
    };
  }

  private async summary(c: ChallengeRecord) {
    const { status, agent, level, ruleset, expiresAt, createdAt, result, replayUrl, human } = await this.view(c);
    return { status, agent, level, ruleset, createdAt, expiresAt, result, human, replayUrl };
  }

  /** Reads a challenge, moving an open one past its expiry to `expired` (stored lazily). */
  private async load(token: string): Promise<ChallengeRecord> {
    const c = ChallengeToken.test(token) ? await this.deps.store.challenges.getChallenge(token) : null;
    if (!c) throw new AppError("not_found", "no challenge has this token");
    const seen = this.withExpiry(c);
    if (seen.status === c.status) return seen;
    // Conditional, like every other step: an accept on another process may have won the race, and an
    // unconditional write would mark its played game's challenge expired.
    if (await this.deps.store.challenges.updateChallengeIf(token, { status: "open" }, { status: "expired" })) return seen;
    const now = await this.deps.store.challenges.getChallenge(token);
    if (!now) throw new AppError("not_found", "no challenge has this token");
    return this.withExpiry(now);
  }

  private withExpiry(c: ChallengeRecord): ChallengeRecord {
    const expired = c.status === "open" && Date.parse(c.expiresAt) <= this.now().getTime();
    return expired ? { ...c, status: "expired" satisfies Status } : c;
  }

  private humanUrl(token: string): string {
    return `${this.deps.baseUrl}/challenge/${token}`;
  }

  private challengeUrl(token: string): string {
    return `${this.deps.baseUrl}/api/v1/agent/challenge/${token}`;
  }

  private serial<T>(token: string, fn: () => Promise<T>): Promise<T> {
    return this.perToken.run(token, fn);
  }
}
