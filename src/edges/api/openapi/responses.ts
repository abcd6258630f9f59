/**
 * Response bodies of the REST operations as zod schemas: the OpenAPI document is generated from them
 * (see ./document.ts) and the routes type what they send with them, so the document describes the answers
 * the server gives. The public game vocabulary (seats, scores, board cells) is the event catalog's.
 */
import { z } from "zod";
import { ERROR_CODES } from "../../../shared/errors";
import {
  BoardCellSchema,
  DecidedBySchema,
  GameStatusSchema,
  PlayersSchema,
  RanksSchema,
  ScoreSchema,
  SeatResultSchema,
  SeatSchema,
  TieRuleSchema,
  WinnerSchema,
} from "../../../services/events/catalog";
import { RULES_VERSIONS } from "../../../engine/versions";
import { HEX_SEED, MAX_SEED } from "../../../engine/seed";

const url = z.string().describe("absolute URL on this service");
const time = z.string().describe("ISO 8601 time");
const int = z.number().int();
const champions = z.object({ A: z.string(), B: z.string() });
const CommunityKind = z.enum(["club", "community"]);

export const Problem = z
  .looseObject({
    type: url.describe("`/problems/{code}` on this service"),
    title: z.string(),
    status: int,
    detail: z.string().describe("what was wrong with this request"),
    error: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...Array<keyof typeof ERROR_CODES>]),
    hint: z.string(),
    docs: url.describe("`/docs/errors#{code}`: what causes the code and what to do"),
  })
  .describe("RFC 9457 problem document; some codes add members (`reason`, `field`)")
  .meta({ id: "Problem" });

const GameLinks = z
  .object({
    watch: url.describe("page: watch the game"),
    play: url.describe("page: play the game in a browser"),
    replay: url.describe("JSON: the replay, once finished"),
    review: url.describe("JSON: the move-by-move review, once finished"),
    replayPage: url.describe("page: the replay a person opens (`/replay/{id}`)"),
    reviewPage: url.describe("page: the review a person opens (`/review/{id}`)"),
  })
  .meta({ id: "GameLinks" });
const Decision = z
  .object({ by: DecidedBySchema, tiedBoard: z.boolean(), tieRule: TieRuleSchema, summary: z.string().describe("one sentence: how the game was decided") })
  .describe("how a finished game was decided; a tied full board names its tie rule (the first mover wins from rules version 2)")
  .meta({ id: "Decision" });
/**
 * A game's seed as revealed (docs/DECISIONS.md, "Seeds as hex strings"): an integer under rules versions 1-3, 32
 * lowercase hex digits (128 bits) from version 4, since a JSON number cannot carry 128 bits.
 */
const Seed = z
  .union([int.min(0).max(MAX_SEED), z.string().regex(HEX_SEED)])
  .describe("the seed the game was dealt from: an integer 0..2^31-1 under rules versions 1-3, 32 lowercase hex digits (128 bits) from version 4")
  .meta({ id: "Seed" });
const Reveal = z
  .object({ seed: Seed, salt: z.string(), commitment: z.string() })
  .describe("the seed and salt, once the game has finished (a league game: once both games of its deal have)");
const Ending = {
  winner: WinnerSchema.optional(),
  decidedBy: DecidedBySchema.optional(),
  decision: Decision.optional(),
  reveal: Reveal.optional(),
  replayUrl: url.optional().describe("the replay, once the reveal is shown"),
};
const LegalMove = z.object({ move: z.string().describe("notation to send, e.g. E7@b3"), card: z.string(), square: z.string() }).meta({ id: "LegalMove" });
const Element = z.enum(["ember", "tide", "gale", "stone"]);
const Card = z.object({ id: z.string(), name: z.string(), ranks: RanksSchema, element: Element, tier: int, champion: z.string().optional() });
const ChessTile = z.object({ square: z.string(), piece: z.enum(["knight", "bishop", "rook", "queen", "king"]) });
/** The rules version a game is played under (docs/RULES.md); every version stays playable for stored games. */
const RulesVersionSchema = z.union(RULES_VERSIONS.map((v) => z.literal(v))).describe("the rules version the game is played under");

const SquareElement = z.object({ square: z.string(), element: Element });

export const GameRecord = z
  .object({
    id: z.string(),
    status: GameStatusSchema,
    ruleset: z.enum(["classic", "mutators"]),
    opponent: z.enum(["house", "friend", "hosted", "quick"]),
    level: z.string().nullable(),
    public: z.boolean(),
    turnSeconds: int,
    players: PlayersSchema,
    firstPlayer: SeatSchema.nullable(),
    turn: SeatSchema.nullable(),
    moveCount: int,
    score: ScoreSchema,
    board: z.array(BoardCellSchema),
    chessTiles: z.array(ChessTile),
    mutators: z.array(z.string()),
    squareElements: z.array(SquareElement),
    champions: champions.nullable(),
    hands: ScoreSchema.describe("hand sizes").nullable(),
    pile: int.nullable(),
    moves: z.array(z.string()).describe("notations of the placements so far"),
    commitment: z.string().describe("sha256 commitment of the seed"),
    tournamentId: z.string().nullable().describe("the tournament this game is a pairing of (its results count there; no rematch is offered)"),
    leagueId: z.string().nullable().describe("the duplicate league this game is a deal of (no rematch is offered)"),
    createdAt: time,
    startedAt: time.nullable(),
    lastMoveAt: time.nullable(),
    finishedAt: time.nullable(),
    turnDeadline: time.nullable(),
    urls: GameLinks,
    ...Ending,
    logIndex: int.optional().describe("a finished game's index in the public log (GET /api/v1/log/games/{id}/proof); absent until its batch is appended"),
  })
  .meta({ id: "Game" });

export const PlayerSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    rating: int,
    rank: z.string(),
    provisional: z.boolean(),
    games: int,
    winRate: z.number().min(0).max(1),
    favoriteChampion: z.object({ name: z.string(), games: int, wins: int, winRate: z.number() }).nullable(),
    recentForm: z.string().regex(/^[WLD]*$/),
    updatedAt: time,
    url,
    secret: z.string().optional().describe("the player's secret, shown once, when the profile is made"),
    kind: z.literal("bot").optional().describe("present on a bot's profile (BOT MARK on boards and leaderboards)"),
  })
  .meta({ id: "Player" });

const SeatReservation = z
  .object({
    name: z.string(),
    sessionId: z.string(),
    roomId: z.string(),
    processId: z.string().optional(),
    publicAddress: z.string().optional(),
    devMode: z.boolean().optional(),
  })
  .describe(
    "present when the request set `reserveSeat`: pass it to a Colyseus SDK's `client.consumeSeatReservation(...)` within 15 s to join the room as this seat",
  )
  .meta({ id: "SeatReservation" });
const Seated = { game: GameRecord, seat: SeatSchema, playerToken: z.string().describe("the seat's token, shown once"), player: PlayerSummary };
/** A seat handed out by create or join, which may ask for its WebSocket seat reservation too. */
const SeatedHere = { ...Seated, seatReservation: SeatReservation.optional() };
const Invite = z.object({ code: z.string(), inviteUrl: url });

export const CreatedGame = z
  .union([
    z.object({ ...SeatedHere, urls: z.object({ play: url, watch: url }) }).describe("against the house"),
    z.object({ ...SeatedHere, ...Invite.shape }).describe("with a friend: the invite for the other seat"),
    z.object({ game: GameRecord, seats: z.object({ A: Invite, B: Invite }), urls: z.object({ watch: url }) }).describe("hosted: both seats' invites"),
  ])
  .meta({ id: "CreatedGame" });

export const JoinedGame = z.object(SeatedHere).meta({ id: "JoinedGame" });

export const QuickMatchQueued = z.object({ status: z.literal("queued"), ticket: z.string(), ruleset: z.enum(["classic", "mutators"]) });
export const QuickMatchMatched = z.object({ status: z.literal("matched"), ticket: z.string(), ...SeatedHere });
export const InviteStatus = z.object({
  code: z.string(),
  status: z.enum(["open", "used", "closed"]).describe("open: the seat can be claimed; used: someone has claimed it; closed: the game no longer waits"),
  game: z.object({ id: z.string(), ruleset: z.string(), host: z.string().nullable().describe("the name of the seat that sent the invite, once seated") }),
});

export const QuickMatchLeft = z.object({ status: z.literal("left"), removed: z.boolean() });

const ListedGame = z.object({
  id: z.string(),
  status: GameStatusSchema,
  ruleset: z.string(),
  opponent: z.string(),
  moveCount: int,
  score: ScoreSchema,
  players: z.object({ A: z.string().nullable(), B: z.string().nullable() }).describe("seat names"),
  winner: WinnerSchema,
  createdAt: time,
  urls: GameLinks,
});

export const PlayerGames = z.object({
  player: z.string(),
  games: z.array(
    ListedGame.extend({
      seat: SeatSchema.describe("the seat this player sat in"),
      result: z.enum(["win", "loss", "draw", "aborted"]).nullable().describe("this player's result; null until the game ends"),
      decidedBy: z.string().nullable(),
      finishedAt: time.nullable(),
    }),
  ),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last"),
});

const LeaderboardEntry = z.object({
  place: int,
  kind: z.enum(["person", "bot"]).describe("bot: a registered bot account, rated with people (its id starts with BOT-)"),
  player: z.object({ id: z.string(), name: z.string(), url }),
  rating: int,
  rank: z.string(),
  provisional: z.boolean().describe("true while the rating is still settling (few games or a wide deviation)"),
  games: int,
  wins: int,
  losses: int,
  draws: int,
  recentForm: z.string(),
});
export const PlayerLeaderboard = z.object({
  limit: int,
  offset: int,
  standings: z.array(LeaderboardEntry).describe("people and bot accounts (profiles with at least one rated game), by rating"),
  bots: z
    .array(z.object({ kind: z.literal("bot"), name: z.string(), level: z.string(), rating: int, rank: z.string(), provisional: z.literal(false) }))
    .describe("the house opponent's levels, each at its fixed rating (never updated)"),
});

export const GameList = z.object({
  games: z.array(ListedGame),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last"),
});

const View = z
  .object({
    ruleset: z.enum(["classic", "mutators"]),
    rulesVersion: RulesVersionSchema,
    status: z.enum(["active", "finished"]),
    turn: SeatSchema,
    firstPlayer: SeatSchema,
    moveCount: int,
    board: z.array(BoardCellSchema),
    chessTiles: z.array(ChessTile),
    mutators: z.array(z.string()),
    squareElements: z.array(SquareElement),
    champions,
    hands: ScoreSchema.describe("hand sizes"),
    pile: int,
    score: ScoreSchema,
    winner: WinnerSchema,
    decidedBy: DecidedBySchema.optional(),
    commitment: z.string(),
    history: z.array(z.string()).describe("notations so far"),
    seat: SeatSchema.optional().describe("seat view only"),
    hand: z.array(Card).optional().describe("seat view only: the seat's own cards"),
  })
  .describe("a seat's or a spectator's view; only a seat's view has a hand")
  .meta({ id: "View" });

const RematchView = z
  .object({
    offeredBy: SeatSchema.nullable().describe(
      "the seat whose offer waits for the other's answer; null when none does (an offer lapses 15 minutes after it was made)",
    ),
    gameId: z.string().optional().describe("the new game, once the rematch has started (seats swapped, same ruleset)"),
  })
  .meta({ id: "Rematch" });

export const Sync = z
  .object({
    gameId: z.string(),
    status: GameStatusSchema,
    view: z.enum(["seat", "spectator"]),
    seat: SeatSchema.nullable(),
    yourTurn: z.boolean().optional().describe("seat view only"),
    legalMoves: z.array(LegalMove).optional().describe("seat view only: every move the seat may make now; empty when it is not its turn"),
    result: SeatResultSchema.optional().describe("seat view of a finished game: the result from the seat's side"),
    turn: SeatSchema.nullable(),
    since: int.min(0),
    moveCount: int,
    players: PlayersSchema,
    ruleset: z.string(),
    commitment: z.string(),
    state: View.nullable(),
    moves: z.array(
      z.object({
        index: int.min(0),
        n: int.min(1),
        seat: SeatSchema,
        notation: z.string(),
        name: z.string(),
        card: z.string(),
        square: z.string(),
        captures: int,
        score: ScoreSchema,
        at: time,
        events: z.array(z.looseObject({ type: z.string() })),
        state: z.looseObject({}),
      }),
    ),
    lastMoveAt: time.nullable(),
    turnDeadline: time.nullable(),
    urls: GameLinks,
    rematch: RematchView.optional().describe("seat view of a finished game: its rematch, offered or started"),
    ...Ending,
  })
  .meta({ id: "Sync" });

/** A seat's rematch answer: the rematch as it is now and, once started, this seat's place in the new game. */
export const RematchAnswer = z
  .object({
    rematch: RematchView,
    game: z
      .object({
        id: z.string(),
        seat: SeatSchema.describe("this seat's seat in the new game (swapped)"),
        playerToken: z.string().describe("this seat's token in the new game: the token it played the finished game with"),
        urls: GameLinks,
      })
      .optional()
      .describe("present once the rematch has started"),
  })
  .meta({ id: "RematchAnswer" });

const PlacedMove = z.object({
  n: int.min(1),
  seat: SeatSchema,
  card: z.string(),
  square: z.string(),
  name: z.string(),
  notation: z.string(),
  captures: int,
  score: ScoreSchema,
  board: z.array(BoardCellSchema),
});

export const MovePlayed = z.object({ move: PlacedMove, view: View, status: GameStatusSchema });

export const Replay = z
  .object({
    id: z.string(),
    ruleset: z.string(),
    rulesVersion: RulesVersionSchema.optional().describe("absent on replays stored before rules were versioned (version 1)"),
    players: z.object({ A: z.string(), B: z.string() }).describe("seat names"),
    seed: Seed,
    salt: z.string(),
    commitment: z.string(),
    firstPlayer: SeatSchema,
    score: ScoreSchema,
    moveCount: int,
    moves: z.array(PlacedMove),
    winner: WinnerSchema,
    decidedBy: DecidedBySchema,
    chessTiles: z.array(ChessTile),
    champions,
    mutators: z.array(z.string()),
    squareElements: z.array(SquareElement),
    endings: z
      .array(z.object({ after: int, action: z.looseObject({ kind: z.string() }) }))
      .describe("resignations, timeouts and aborts, after the move count they followed"),
    finalHands: z
      .object({ A: z.array(z.string()), B: z.array(z.string()) })
      .optional()
      .describe("cards left in each hand at the end"),
    replayUrl: url,
    logIndex: int.optional().describe("a finished game's index in the public log (GET /api/v1/log/games/{id}/proof); absent until its batch is appended"),
  })
  .meta({ id: "Replay" });

const Accuracy = z.object({ accuracy: z.number(), mistakes: int, blunders: int });
export const Review = z.object({
  gameId: z.string(),
  moves: z.array(z.object({ n: int, seat: SeatSchema, played: z.string(), best: z.string(), swing: z.number(), mark: z.string() })),
  summary: z.object({ A: Accuracy, B: Accuracy }),
});

export const Profile = z.object({
  player: PlayerSummary,
  movedFrom: z.string().optional(),
  clubs: z
    .array(z.object({ id: z.string(), kind: CommunityKind, name: z.string(), members: int, place: int.describe("the player's place in it by rating, from 1") }))
    .describe("the clubs and communities the player is in"),
});

export const RatingHistory = z
  .object({
    playerId: z.string().describe("the profile the points belong to (an account, for a guest that moved to one)"),
    ratings: z
      .array(
        z.object({
          n: int.describe("the player's game count after this game: the point's place in the history"),
          gameId: z.string(),
          at: time.describe("when the game ended"),
          rating: int.describe("the rating the game left (Glicko-2, rounded)"),
          provisional: z.boolean().describe("whether the rating was still provisional after it"),
          url: url.describe("the game's record"),
        }),
      )
      .describe("one point per rated game, oldest first"),
    nextAfter: int.nullable().describe("send as `after` for the next page; null after the last"),
  })
  .meta({ id: "RatingHistory" });

export const Claimed = z.object({ account: z.object({ id: z.string(), secret: z.string() }), movedFrom: z.string(), player: PlayerSummary });

export const EventCatalog = z.object({
  events: z.array(z.object({ name: z.string(), description: z.string(), arguments: z.looseObject({}), data: z.looseObject({}) })),
});
export const Subscribed = z.object({ id: z.string(), refreshBefore: time, cursor: z.string().nullable(), truncated: z.boolean() });
export const Unsubscribed = z.object({ ok: z.literal(true), removed: z.boolean() });

export const ChallengeCreated = z.object({ token: z.string(), url, expiresAt: time, status: z.literal("open") });
export const Challenge = z
  .object({
    token: z.string(),
    status: z.enum(["open", "playing", "played", "expired"]),
    agent: z.object({ name: z.string(), url: z.string().optional() }),
    level: z.string(),
    ruleset: z.string(),
    url,
    expiresAt: time,
    createdAt: time,
    gameId: z.string().nullable(),
    result: z.looseObject({ winner: WinnerSchema, score: ScoreSchema, humanSeat: SeatSchema }).nullable(),
    human: z.looseObject({ id: z.string() }).nullable().describe("the human's public profile, rating included"),
    replayUrl: url.nullable(),
    urls: z.object({ watch: url, game: url }).nullable(),
  })
  .meta({ id: "Challenge" });
/** A challenge in an agent's public history: no token, no link, no game while it is played (the token is a capability). */
export const ChallengeSummary = Challenge.pick({
  status: true,
  agent: true,
  level: true,
  ruleset: true,
  createdAt: true,
  expiresAt: true,
  result: true,
  human: true,
  replayUrl: true,
})
  .strict()
  .meta({ id: "ChallengeSummary" });
export const ChallengeHistory = z.object({ agent: z.string(), challenges: z.array(ChallengeSummary) });

const page = { kind: CommunityKind, total: int, limit: int, offset: int };
const community = {
  id: z.string(),
  kind: CommunityKind,
  name: z.string(),
  members: int,
  createdAt: time,
  url: url.describe("its leaderboard (GET /clubs/{id} or /communities/{id})"),
};
const Listed = z.object({ ...community, leaders: z.array(LeaderboardEntry).describe("its first three members by rating") });
export const ClubList = z.object({ ...page, clubs: z.array(Listed) });
export const CommunityList = z.object({ ...page, communities: z.array(Listed) });
export const Leaderboard = z.object({
  ...community,
  total: int.describe("members in all, across pages"),
  limit: int,
  offset: int,
  standings: z.array(LeaderboardEntry).describe("this page of its members, by rating"),
});

export const Manifest = z.object({
  version: int,
  count: int,
  assets: z.array(z.object({ path: z.string(), type: z.string(), bytes: int, sha256: z.string(), url })),
});

export const ChallengeAccepted = z.object({ ...Seated, urls: z.object({ play: url, watch: url }), challenge: url });

const described = z.object({ rule: z.string() });
export const RulesVersion = z
  .object({
    version: RulesVersionSchema,
    current: z.boolean().describe("true for the version new games are created with"),
    board: z.object({
      size: int,
      squares: z.array(z.string()),
      files: z.string(),
      ranks: z.string(),
      edges: z.record(z.enum(["n", "e", "s", "w"]), z.object({ fileStep: int, rankStep: int })).describe("the board step each edge faces: n is rank + 1"),
      orientation: z.string(),
    }),
    moves: z.object({ notation: z.string(), legal: z.string(), placements: int, ranks: z.object({ min: int, max: int }) }),
    hands: z.record(z.enum(["classic", "mutators"]), z.object({ firstMover: int, secondMover: int })).describe("cards in hand at the start, champion included"),
    draw: z.string(),
    captureOrder: z.array(z.string()),
    captures: z.array(described.extend({ kind: z.string() })),
    chessTiles: z.object({ perGame: int, pieces: z.array(z.object({ piece: z.string(), reaches: z.string() })) }),
    mutators: z.object({
      ruleset: z.string(),
      perGame: int,
      kinds: z.array(described.extend({ mutator: z.string() })),
      lastPlacementWithout: z.array(z.string()),
    }),
    elements: z.array(Element),
    deal: z
      .object({ generator: z.enum(["xoroshiro128plus", "hmac-sha256"]), seed: z.string(), order: z.string() })
      .describe("how the deal is drawn from the seed: the generator (hmac-sha256 from version 4) and the seed's form"),
    champions: z.array(z.object({ champion: z.string(), card: z.string(), name: z.string(), element: Element, ranks: RanksSchema, ability: z.string() })),
    cards: z.array(Card.omit({ champion: true })),
    end: z.object({ boardFull: z.string(), tiedBoard: z.enum(["first_mover", "draw"]), other: z.array(z.string()) }),
  })
  .meta({ id: "Rules" });
export const Rules = z.object({ current: RulesVersionSchema, versions: z.array(RulesVersion) }).meta({ id: "RulesVersions" });

export const Bot = z
  .object({
    id: z.string().describe("the bot's id, also its profile's (BOT-...)"),
    name: z.string(),
    kind: z.literal("bot"),
    description: z.string().nullable().describe("what the bot is, in its owner's words"),
    createdAt: time,
    revoked: z.boolean(),
    player: PlayerSummary.nullable().describe("the bot's profile: rating, games"),
    url,
  })
  .meta({ id: "Bot" });
export const BotDirectory = z.object({
  bots: z
    .array(
      Bot.extend({
        lastSeen: time.describe("when the bot's profile last changed: its latest result, or its registration"),
        leagues: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })).describe("leagues it entered, among the newest 100"),
        tournaments: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })).describe("tournaments it entered, among the newest 100"),
      }),
    )
    .describe("newest first"),
  nextOffset: int.nullable().describe("send as `offset` for the next page; null after the last"),
});
export const BotRegistered = z.object({ bot: Bot, key: z.string().describe("the bot's key (bk_...), shown once: send it as `Authorization: Bearer bk_...`") });
export const BotRevoked = z.object({ id: z.string(), revokedAt: time });
export const BotChallenged = z.object({
  game: GameRecord,
  seat: SeatSchema,
  playerToken: z.string().describe("your seat's token, shown once"),
  code: z.string().describe("the invite code the challenged bot joins with (it receives it on its event stream)"),
  challenged: z.string(),
});
export const BotChallengeDeclined = z.object({ gameId: z.string().describe("the challenge's game, now aborted"), status: z.literal("declined") });
const BotEventBase = { id: z.string().describe("send as Last-Event-ID to resume after this event"), gameId: z.string() };
export const BotEvent = z
  .discriminatedUnion("type", [
    z.object({
      ...BotEventBase,
      type: z.literal("gameStart"),
      seat: SeatSchema,
      urls: z.object({ play: url, watch: url }),
      playerToken: z
        .string()
        .optional()
        .describe(
          "the seat's token, for a seat not answered to the bot's own request: an agent challenge it hosts, or its quick-match ticket paired while it waited",
        ),
    }),
    z.object({ ...BotEventBase, type: z.literal("yourTurn"), seat: SeatSchema, moveCount: int, lastMove: z.string().nullable() }),
    z.object({
      ...BotEventBase,
      type: z.literal("gameFinish"),
      seat: SeatSchema,
      result: SeatResultSchema,
      winner: WinnerSchema,
      decidedBy: DecidedBySchema.nullable(),
      score: ScoreSchema,
      replayPage: url,
    }),
    z.object({
      ...BotEventBase,
      type: z.literal("challenge"),
      from: z.object({ id: z.string(), name: z.string() }),
      code: z.string(),
      ruleset: z.string(),
      expiresAt: time.nullable(),
    }),
    z.object({
      ...BotEventBase,
      type: z.literal("challengeDeclined"),
      by: z.object({ id: z.string(), name: z.string() }).describe("the bot that declined your challenge"),
    }),
  ])
  .meta({ id: "BotEvent" });
export const GameStreamState = Sync.extend({ type: z.literal("state") }).meta({ id: "GameStreamState" });
