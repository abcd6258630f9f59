/**
 * A small Tile Arena client for bots: fetch only, no dependencies. It registers a bot, starts games as it,
 * plays through the long-poll sync (or the NDJSON streams) and waits out `Retry-After` on 429 and 503.
 * Copy this file into your bot, or import it from the repository.
 */

import type { components, operations } from "./api-types";

/** Types generated from the OpenAPI document (./api-types.ts, by scripts/client-types.ts). */
export type Schemas = components["schemas"];
/** An operation's JSON request body, by its operationId in the document. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
/** An operation's successful (200 or 201) JSON answer, by its operationId in the document. */
export type Answer<Op extends keyof operations> = operations[Op] extends { responses: infer R }
  ? R[Extract<keyof R, 200 | 201>] extends { content: { "application/json": infer J } }
    ? J
    : never
  : never;
export type LegalMove = Schemas["LegalMove"];
/** A seat's sync view (GET /games/{id}/sync with its token): the seat's members are always there. */
export type SeatSync = Schemas["Sync"] & { seat: "A" | "B"; yourTurn: boolean; legalMoves: LegalMove[] };
export interface Seated {
  game: { id: string };
  seat: "A" | "B";
  playerToken: string;
  code?: string;
}
/** Chooses a move from a seat's view; may be async (a search, a model call). */
export type Policy = (view: SeatSync) => LegalMove | Promise<LegalMove>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { code?: string; detail?: string; hint?: string },
  ) {
    super(`${status} ${problem.code ?? ""}: ${problem.detail ?? ""}`);
  }
}

export class TileArena {
  /** `baseUrl` like http://localhost:2567; `key` a bot key (bk_...) when the bot has one. */
  constructor(
    readonly baseUrl: string,
    public key?: string,
  ) {}

  /** One API call; a 429 or 503 is retried after its Retry-After (up to `retries` times). */
  async call<T>(method: string, path: string, body?: unknown, token?: string, retries = 5): Promise<T> {
    const auth = token ?? this.key;
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
        method,
        headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if ((res.status === 429 || res.status === 503) && attempt < retries) {
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        continue;
      }
      const json = (await res.json()) as T;
      if (!res.ok) throw new ApiError(res.status, json as ApiError["problem"]);
      return json;
    }
  }

  /** Registers a bot and keeps its key (shown once: store it). */
  async registerBot(name: string, owner?: string): Promise<Answer<"registerBot">> {
    const out = await this.call<Answer<"registerBot">>("POST", "/bots", { name, ...(owner ? { owner } : {}) } satisfies RequestBody<"registerBot">);
    this.key = out.key;
    return out;
  }

  /** A game with a seat for you, against the house or a friend (`hosted` answers two invite codes and no seat). With a key, leave out `player`: the bot plays as itself. */
  createGame(body: RequestBody<"createGame"> & { opponent: "house" | "friend" }) {
    return this.call<Extract<Answer<"createGame">, { playerToken: string }>>("POST", "/games", body);
  }
  join(code: string) {
    return this.call<Answer<"joinGame">>("POST", "/games/join", { code } satisfies RequestBody<"joinGame">);
  }
  challenge(botId: string, ruleset: RequestBody<"challengeBot">["ruleset"] = "classic") {
    return this.call<Answer<"challengeBot">>("POST", `/bots/${encodeURIComponent(botId)}/challenge`, { ruleset } satisfies RequestBody<"challengeBot">);
  }
  /** Declines a challenge (the `code` of a `challenge` event): its game is aborted and the challenger told. */
  decline(code: string) {
    return this.call<Answer<"declineBotChallenge">>("POST", `/bots/challenges/${encodeURIComponent(code)}/decline`);
  }
  sync(gameId: string, token: string, since = 0, timeout = 20) {
    return this.call<SeatSync>("GET", `/games/${gameId}/sync?since=${since}&timeout=${timeout}`, undefined, token);
  }
  move(gameId: string, token: string, move: string) {
    return this.call<Answer<"playMove">>("POST", `/games/${gameId}/moves`, { move } satisfies RequestBody<"playMove">, token);
  }
  rules() {
    return this.call<Answer<"getRules">>("GET", "/rules");
  }

  /** Plays a seat to the end with the long-poll sync: the policy picks a move whenever it is the seat's turn. */
  async play(seated: Seated, policy: Policy): Promise<SeatSync> {
    let since = 0;
    for (;;) {
      const view = await this.sync(seated.game.id, seated.playerToken, since);
      since = view.moveCount;
      if (view.status === "finished") return view;
      if (view.yourTurn) await this.move(seated.game.id, seated.playerToken, (await policy(view)).move);
    }
  }

  /** Reads an NDJSON stream (GET /stream/events with the key, /stream/games/{id} with a seat token). */
  async *stream<T>(path: string, token?: string, lastEventId?: string): AsyncGenerator<T> {
    const auth = token ?? this.key;
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    });
    if (!res.ok || !res.body) throw new ApiError(res.status, (await res.json()) as ApiError["problem"]);
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) yield JSON.parse(line) as T; // an empty line is a heartbeat
      }
    }
  }
}

/** Checks a webhook delivery's Standard Webhooks signature (v1, HMAC-SHA256) with the subscription's secret. */
export async function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): Promise<boolean> {
  const { createHmac, timingSafeEqual } = await import("node:crypto");
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
  return headers.signature.split(" ").some((s) => {
    const [version, sig] = s.split(",");
    const got = Buffer.from(sig ?? "", "base64");
    return version === "v1" && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The starter policy: any legal move. */
export const randomMove: Policy = (view) => view.legalMoves[Math.floor(Math.random() * view.legalMoves.length)];

const STEPS = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] } as const;
const OPPOSITE = { n: "s", e: "w", s: "n", w: "e" } as const;

/**
 * A greedy policy: the move whose card beats the most opponent cards it touches by the basic rule (edge
 * against facing edge; chess tiles, champions and mutators are left out), ties to the first listed.
 */
export const greedyMove: Policy = (view) => {
  const state = view.state!;
  const hand = state.hand ?? [];
  const at = new Map(state.board.map((c) => [c.square, c]));
  const flips = (m: LegalMove) => {
    const card = hand.find((h) => h.id === m.card)!;
    const [file, rank] = [m.square.charCodeAt(0) - 97, Number(m.square[1]) - 1];
    return (Object.keys(STEPS) as Array<keyof typeof STEPS>).filter((edge) => {
      const [df, dr] = STEPS[edge];
      const other = at.get(`${String.fromCharCode(97 + file + df)}${rank + dr + 1}`);
      return other !== undefined && other.owner !== view.seat && card.ranks[edge] > other.ranks[OPPOSITE[edge]];
    }).length;
  };
  return view.legalMoves.reduce((best, m) => (flips(m) > flips(best) ? m : best), view.legalMoves[0]);
};
