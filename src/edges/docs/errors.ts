/**
 * What each problem `code` means for a client: what causes it and what to do. The `satisfies` clause
 * makes a code added to src/shared/errors.ts without an entry here a type error, so every `docs` link a problem
 * document carries lands on a section.
 */
import type { ErrorCode } from "../../shared/errors";

export interface ErrorDoc {
  /** What the client did, or what state the service was in. */
  cause: string;
  /** What the client should do next. */
  action: string;
}

export const ERROR_DOCS = {
  bad_request: {
    cause:
      "The request does not match the operation's schema: a missing or misspelt member, a value out of range, a query parameter that is not a plain integer, a body that is not valid JSON or not sent as `Content-Type: application/json`, or a `since` beyond the last move. `detail` names each offending field.",
    action:
      "Fix the request as `detail` says; the OpenAPI document at `/api/v1/openapi.json` (rendered at `/docs`) gives every schema. Retrying unchanged fails again.",
  },
  unauthorized: {
    cause:
      "The operation needs a credential that was missing or wrong: a seat's player token (`Authorization: Bearer pt_...`) for moves, resignations and a seat's sync; a player's secret for `player` references and claims; the `player_token` argument of a `game.turn` subscription; the metrics token for `/metrics`. A token of another game's seat is wrong too.",
    action:
      "Send the token you were given when you created or joined the game (it is shown once). A spectator omits the Authorization header entirely rather than sending a wrong one.",
  },
  bad_signature: {
    cause:
      "Not sent by the service: it is the code a webhook receiver reports when a delivery's Standard Webhooks signature does not verify (wrong or rotated secret, altered body, or a timestamp more than five minutes old).",
    action:
      "On the receiving side: verify the raw body with the secret you subscribed with; subscribing again with the same name, arguments and URL replaces the secret.",
  },
  forbidden: {
    cause: "The caller is known but the action is not allowed for it (unsubscribing a webhook without its id or current secret is one).",
    action:
      "Do not retry; use the operation meant for this caller. Matchmaking answers 403 for `create`/`join` on game rooms: games are made over REST and entered with `joinById`.",
  },
  not_found: {
    cause:
      "No game, player, challenge, quick-match ticket, invite code or route has this identifier, or the route does not exist under `/api/v1`. A game aborted before its first move has no replay. Matchmaking (`POST /matchmake/...`) answers it for an unknown room id, room name or method; every matchmaking refusal is a problem document with a 4xx status.",
    action: "Check the identifier and the path. Quick-match tickets live ten minutes; ask for a new one.",
  },
  not_your_turn: {
    cause:
      "A move or action was sent for a seat whose turn it is not. A move the seat already played, sent again (the same card on the same square), is not refused: it is answered 200 as that move.",
    action:
      "Wait for your turn: long-poll `GET /games/{id}/sync?since=N&timeout=20` (it answers at once when it becomes your turn), or subscribe to `game.turn`.",
  },
  illegal_move: {
    cause:
      "The placement breaks a rule: the card is not in your hand, the square is taken or not on the board (a1..d4), or the notation cannot be read. `detail` says which. A move the seat already played, sent again (the same card on the same square), is not refused: it is answered 200 as that move.",
    action: 'Play a card id from `state.hand` onto an empty square, as `{"move": "E7@b3"}` or `{"card": "E7", "square": "b3"}`.',
  },
  game_over: {
    cause:
      "The game has finished (board full, resignation, timeout or abort), so it takes no more moves or resignations. The game's last move, sent again by its seat, is not refused: it is answered 200 as that move.",
    action: "Read the result from `GET /games/{id}` and the replay from `GET /games/{id}/replay`.",
  },
  game_not_finished: {
    cause:
      "The replay or review of a game was asked for while the game is still being played; both reveal the seed, so they exist only once it has finished. A league game's seed is also the seed of the other game of its deal (the same two bots, seats swapped): its replay and review, like its `reveal`, exist only once both games of the deal have finished.",
    action:
      "Ask again after the game ends; subscribe to `game.finished` to be told when. For a league game, once both games of its deal show an outcome in `GET /leagues/{id}/games`.",
  },
  already_joined: {
    cause: "The invite code, agent challenge or quick-match ticket has already been used to take its seat.",
    action: "Use the player token you got when you joined; a second seat needs a new invite or challenge.",
  },
  code_expired: {
    cause:
      "The invite code or agent challenge can no longer be used: the game is no longer waiting for players, or the challenge expired before it was accepted or played. Matchmaking answers it to a `reconnect` whose reconnection token is invalid or expired.",
    action: "Ask for a new invite or a new challenge; after a failed reconnect, join the game again with `joinById`.",
  },
  conflict: {
    cause:
      "The resource is in a state that refuses this change: an agent challenge's result was already reported, a guest profile was already claimed or is already an account, or a quick-match ticket is already queued.",
    action:
      "Read the resource again (`GET /agent/challenge/{token}`, `GET /players/{id}`) and act on its current state; repeating the same request gives the same answer.",
  },
  callback_refused: {
    cause:
      "A webhook subscription's callback failed verification. `reason` says why: `not_https`, `forbidden_address` (loopback, private, link-local or metadata addresses), `challenge_failed` (the answer did not echo the challenge), `timeout` (no answer within 5 seconds), `unreachable`, or `bad_status` (not a 2xx; redirects are not followed).",
    action:
      'Serve a public HTTPS endpoint that answers the signed `{type: "verification", challenge}` POST with `{"challenge": ...}` within 5 seconds. For local trials, see `npm run webhooks:listen` in docs/TOOLS.md.',
  },
  result_mismatch: {
    cause:
      "An agent challenge's result report does not match the service's record of the game: another game id, winner or score. `field` names the first member that differs.",
    action:
      "Report the result the game actually had (`GET /games/{id}` shows it), or read the verified result with `GET /agent/challenge/{token}` instead of reporting one.",
  },
  payload_too_large: {
    cause:
      "The request body is larger than 64 KiB (MAX_BODY_BYTES). A body whose Content-Length says so is answered at once, on every route, and a chunked one where it passes the limit; the server then discards up to 16 MB more of it (or for 10 seconds) before closing, so the client reads the 413 rather than a reset.",
    action: "Send a smaller body; no operation needs more.",
  },
  rate_limited: {
    cause:
      "This address spent its per-minute budget for the policy named in `RateLimit-Policy` (reads and other writes 120, agent challenges 30, result reports 60, MCP 120, Colyseus matchmaking 120), or its cap on tournament joins (TOURNAMENT_JOINS_PER_ADDRESS a minute per address, TOURNAMENT_JOINS_PER_PLAYER per player profile; only joins that succeed count).",
    action: "Wait for the number of seconds in `Retry-After`; the `RateLimit` field shows what is left. Long-poll with `timeout` instead of polling in a loop.",
  },
  unavailable: {
    cause:
      "The service could not reach or start the room that holds the game (another process did not answer), its store failed (a write refused, data files gone: `/healthz` then says so), or it is starting or shutting down. Nothing was changed, with one case that cannot be told at once: a move under way when its room's process stopped answering. The service then looks the move up in the store and answers 200 when it was kept; otherwise the room may still apply it before its game moves to a live process.",
    action:
      "Retry shortly (after the seconds in `Retry-After`, when given), with the same request. A move sent again is safe: when it was kept after all it is answered 200 as that move (the same seat, card and square), never played twice.",
  },
  internal: {
    cause: "An unexpected error; it has been logged with the request.",
    action: "Retry later. If it persists, report the time and the request.",
  },
} satisfies Record<ErrorCode, ErrorDoc>;
