/**
 * The summary and description of every operation, by operationId: what a client generator turns into a
 * method's doc comment and what a reader of /docs sees first. Kept apart from ./paths.ts so the registry
 * stays a list of schemas; the conformance test checks that every operation has both.
 */
export const OPERATION_TEXTS: Record<string, { summary: string; description: string }> = {
  getInvite: {
    summary: "Check an invite code",
    description: "What an invite code opens, without claiming it: whether its seat is still open (`open`, `used`, `closed`) and the game's public facts.",
  },
  getRatingHistory: {
    summary: "Read a player's rating history",
    description:
      "One point per rated game, oldest first: the game, when it ended, the rating it left and whether that rating was provisional; paged with `after` (the last answer's `nextAfter`). Games rated before the history was kept have no point.",
  },
  listBots: {
    summary: "List bots",
    description:
      "The bot directory: every bot account, newest first, with its description, profile (rating, games), when it was last seen and the leagues and tournaments it entered; paged with `limit` and `offset`. Never a key or an owner's contact.",
  },
  listPlayerGames: {
    summary: "List a player's games",
    description: "A player's public games, newest first, each with the seat they sat in and their result; paged with `cursor`.",
  },
  playerLeaderboard: {
    summary: "The player leaderboard",
    description:
      "Every player with a rated game by rating (Glicko-2), provisional ratings marked; people and bots told apart by `kind`. Paged with `limit` and `offset`, which count listed players: a page is full while more follow, and `place` runs on from one page to the next.",
  },
  createTournament: {
    summary: "Create a tournament",
    description:
      'A swiss tournament (`rounds`), open for entries until its director starts it, or an arena (`format: "arena"`, `minutes`), open for entries until its time is up. The `directorToken` is in this answer only.',
  },
  listTournaments: { summary: "List tournaments", description: "Tournaments, newest first." },
  getTournament: { summary: "Read a tournament", description: "Its status, rounds and entrants, with links to its standings, games and TRF report." },
  joinTournament: {
    summary: "Enter a tournament",
    description:
      "Enters an open tournament, or an arena until its time is up. The `playerToken` (shown once) is the entrant's seat token in every game the tournament pairs them in.",
  },
  startTournament: {
    summary: "Start a tournament",
    description: "Swiss: closes entries and pairs round 1. Arena: starts its clock and pairs the entrants (the director token).",
  },
  withdrawFromTournament: {
    summary: "Withdraw from a tournament",
    description: "The entrant's results stay; they are paired no more (their entrant token). An arena game under way still finishes and counts.",
  },
  getTournamentStandings: {
    summary: "Read a tournament's standings",
    description: "Swiss: score, then Buchholz and Sonneborn-Berger. Arena: score (with streak and fire), then rating.",
  },
  getTournamentGames: {
    summary: "Read a tournament's games",
    description:
      "Swiss: every round's games (first mover first) with their outcomes, and each round's bye. Arena: every game in the order paired (a null outcome is under way) and the waiting pool.",
  },
  getTournamentTrf: {
    summary: "Export a tournament as TRF",
    description: "The FIDE TRF-16 report of a swiss, which standard pairing checkers read; an arena has none (409).",
  },
  createLeague: {
    summary: "Create a duplicate league",
    description:
      "A round-robin league of bots in which every pair plays `deals` seeded deals, each from both seats. The `directorToken` is in this answer only.",
  },
  listLeagues: { summary: "List leagues", description: "Duplicate leagues, newest first." },
  getLeague: { summary: "Read a league", description: "Its status, entrants and progress, with links to its standings and games." },
  joinLeague: {
    summary: "Enter a bot in a league",
    description:
      "Enters the bot whose key the request carries (`Authorization: Bearer bk_...`) in an open league. The `playerToken` (shown once) is its seat token in every league game.",
  },
  startLeague: {
    summary: "Start a league",
    description: "Closes entries, stores the schedule (every game id and deal seed) and creates the first wave of games (the director token).",
  },
  getLeagueStandings: {
    summary: "Read a league's standings",
    description:
      "Bradley-Terry ratings (Elo scale, mean 0) with 95% bootstrap intervals over deals, and each entrant's games, wins, draws and losses; a deal counts once both its games are decided.",
  },
  getLeagueGames: {
    summary: "Read a league's games",
    description: "Every deal in schedule order with its two games (one from each seat) and their outcomes; seeds are revealed by the games' replays.",
  },
  createGame: {
    summary: "Create a game",
    description:
      "`house`: a game against the house AI, started at once. `friend`: your seat plus an invite code for the other. `hosted`: two invite codes. The answer holds your seat's `playerToken`, shown once. With a bot key (`Authorization: Bearer bk_...`) the seat is the bot's profile.",
  },
  listGames: { summary: "List public games", description: "Public games, newest first, paged with `cursor` (the last answer's `nextCursor`)." },
  joinGame: {
    summary: "Join a game by invite code",
    description:
      "Takes the seat an invite code names and answers its `playerToken`, shown once. With a bot key the seat is the bot's profile: a bot joins another bot's friend game this way.",
  },
  quickMatch: {
    summary: "Queue for a quick match",
    description:
      "Pairs you with another player of the same ruleset. Waits up to `wait` seconds: 200 `matched` with your seat, or 202 `queued` with a ticket to poll. With a bot key, a ticket paired later is also announced on the bot's event stream (`gameStart` with the seat's `playerToken`), so a bot may wait there instead of polling.",
  },
  pollQuickMatch: {
    summary: "Poll a quick-match ticket",
    description: "Waits up to `timeout` seconds for the ticket to be paired; same answers as the queue.",
  },
  leaveQuickMatch: { summary: "Leave the quick-match queue", description: "Removes a queued ticket; a ticket already matched is refused." },
  getGame: {
    summary: "Read a game",
    description:
      "The public record of a game: players, board, score, moves as notation. Never a hand; the seed only once the game has finished (a league game's once both games of its deal have, since they share it).",
  },
  syncGame: {
    summary: "Sync a seat's or a spectator's view",
    description:
      "With the seat's token: its view (hand, `yourTurn`, and `legalMoves` on its turn) plus every move from `since` on; without: a spectator's. Pass the last answer's `moveCount` as `since`; `timeout` (seconds) waits for a move past `since`, a status change, or your turn. A finished game says `result` from the seat's side and `decision`.",
  },
  playMove: {
    summary: "Play a move",
    description:
      'A card of your hand onto an empty square, as notation (`{"move": "E7@b3"}`) or parts (`{"card": "E7", "square": "b3"}`); any of the sync\'s `legalMoves` is accepted. Answers the move as recorded and your view after it.',
  },
  resign: { summary: "Resign", description: "Ends the game at once; the other seat wins." },
  offerRematch: {
    summary: "Offer or accept a rematch",
    description:
      "A seat of a finished friend or quick-match game offers a rematch to the same opponent; the other seat's offer accepts it. Started, the answer carries this seat's new game: same players and ruleset, seats swapped, with this seat's `playerToken` (the one it played the finished game with: its token plays the rematch too). Two acceptances at once, on any processes, start one game. The seat view of `/sync` shows `rematch`. Refused for spectators (401), house, hosted, tournament, league and aborted games (403) and unfinished games (409).",
  },
  declineRematch: {
    summary: "Decline a rematch",
    description: "Declines the other seat's rematch offer, or takes back your own; refused (409) once the rematch has started.",
  },
  getReplay: {
    summary: "Read a finished game's replay",
    description:
      "Every move with the board after it, the revealed seed and salt: enough to re-simulate the game and check it. Refused with game_not_finished before the end, and for a league game until the other game of its deal (same seed) has finished too.",
  },
  getReview: {
    summary: "Read a finished game's review",
    description: "Each move marked from best to blunder by the house engine, with each seat's accuracy. Refused like the replay while the replay is.",
  },
  getGameDeprecated: { summary: "Read a game (old path)", description: "Superseded by `/games/{id}`; see /docs/migration#game-path." },
  getPlayer: { summary: "Read a player's profile", description: "Rating (Glicko-2), rank, games, win rate, recent form and clubs." },
  claimPlayer: { summary: "Claim a guest profile", description: "Moves a guest profile to a new account; the account's secret is answered once." },
  listClubs: { summary: "List clubs", description: "Clubs and their sizes, paged with `limit` and `offset`." },
  getClub: { summary: "Read a club's leaderboard", description: "A club's standings by rating, paged with `limit` and `offset`." },
  listCommunities: { summary: "List communities", description: "Communities and their sizes, paged with `limit` and `offset`." },
  getCommunity: { summary: "Read a community's leaderboard", description: "A community's standings by rating, paged with `limit` and `offset`." },
  listEvents: { summary: "List webhook events", description: "The event catalog: each event's arguments and the JSON Schema of its `data`." },
  subscribe: {
    summary: "Subscribe a webhook",
    description: "Delivers an event to a public HTTPS callback, signed (Standard Webhooks). The callback must answer the verification challenge first.",
  },
  unsubscribe: {
    summary: "Unsubscribe a webhook",
    description:
      "Removes the subscription named by event name, arguments and callback URL (an id or secret may be sent; neither is needed); 200 whether or not it existed.",
  },
  createChallenge: {
    summary: "Create an agent challenge",
    description:
      "A link a person opens to play the house on the agent's behalf, or (`opponent: bot`, with the bot's key) the agent's own bot, which is told of the game and its seat token on its event stream. 30 per minute per IP, per key with a bot key.",
  },
  acceptChallenge: { summary: "Accept an agent challenge", description: "Takes the person's seat of a challenge and starts its game." },
  getChallenge: { summary: "Read an agent challenge", description: "Its status and, once played, the verified result." },
  listChallenges: { summary: "List an agent's challenges", description: "An agent's public challenge history, newest first." },
  reportResult: { summary: "Report a challenge's result", description: "Sent by game clients; checked against the service's record. 60 per minute per IP." },
  getClientManifest: { summary: "Read the client asset manifest", description: "Every client asset with its size, sha256 and URL." },
  getClientAsset: {
    summary: "Download a client asset",
    description: "Strong ETag (quoted sha256), immutable for a year; If-None-Match gives 304. `path` may contain slashes.",
  },
  getOpenApi: {
    summary: "Read this OpenAPI document",
    description: "The OpenAPI 3.1 document of this API, generated from the schemas that validate its requests.",
  },
  registerBot: {
    summary: "Register a bot",
    description:
      "Makes a bot account and its one profile (`kind: bot`, rated with everyone). The key (`bk_...`) is in this answer only and is stored hashed: send it as `Authorization: Bearer bk_...` to create, join or quick-match games as the bot, and to open its event stream. Keyed requests are rate limited per key, not per address. Registrations are bounded per address (BOT_REGISTRATIONS_PER_ADDRESS per BOT_REGISTRATION_WINDOW_S): past it, 429 with `Retry-After`.",
  },
  getMyBot: { summary: "Read the keyed bot", description: "The bot the key belongs to, with its profile (rating, games)." },
  revokeBotKey: {
    summary: "Revoke the bot's key",
    description:
      "The key stops working at once, everywhere: its open event streams end on every server process before this answers, with no event after. The bot, its profile and its games stay. Register again for a new key.",
  },
  getBot: { summary: "Read a bot", description: "A bot as anyone may see it, with its profile." },
  challengeBot: {
    summary: "Challenge another bot",
    description:
      "Creates a friend game with your bot seated and puts a `challenge` event, with the invite code, on the other bot's event stream. It accepts by joining with the code (POST /games/join with its key) or declines it (POST /bots/challenges/{code}/decline).",
  },
  declineBotChallenge: {
    summary: "Decline a bot challenge",
    description:
      "With the challenged bot's key only (another bot's key is refused with 403): aborts the challenge's waiting game, unrated, and puts a `challengeDeclined` event on the challenger's stream. An unknown code is 404, a challenge already accepted 409, one that lapsed or was declined 410.",
  },
  streamBotEvents: {
    summary: "Stream a bot's events (NDJSON)",
    description:
      "Push without a public HTTPS callback: one JSON object per line, `gameStart`, `yourTurn`, `gameFinish` (with `result` from the bot's side), `challenge` and `challengeDeclined`, for every game the bot's key seated it in. An empty line is a heartbeat. Resume after a dropped connection with `Last-Event-ID`: events of the resume window are replayed, the bot's games' events kept apart from the challenges other bots send (at most 5 kept per sender), so no flood of challenges evicts them. A key may hold a bounded number of streams, and an address a bounded number of streams of both kinds (429). Revoking the key ends the stream.",
  },
  streamGame: {
    summary: "Stream a game (NDJSON)",
    description:
      "The game's sync body (`type: state`) now and after every change, one JSON object per line, ending when the game ends. With the seat's token each line is the seat's view, with its hand and `legalMoves` on its turn; without, a spectator's. An empty line is a heartbeat.",
  },
  getRules: {
    summary: "Read the rules as data",
    description:
      "Every rules version: board orientation (which way `n/e/s/w` face), hand sizes, capture kinds, chess tiles, mutators, champions and cards. Derived from the engine, so it is the rules games are played by.",
  },
  getRulesVersion: { summary: "Read one rules version as data", description: "The rules of one version (games report theirs as `rulesVersion`)." },
};
