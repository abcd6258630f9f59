/**
 * The parts every operation's declaration (../route.ts, ../routes/*.ts) is made of: its answers as JSON or
 * NDJSON content, the problem answers it may give, its path id and who may call it.
 */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ERROR_CODES } from "../../../shared/errors";
import * as R from "./responses";

type Responses = NonNullable<RouteConfig["responses"]>;

export const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });
export const ndjson = (schema: z.ZodType, description: string) => ({ description, content: { "application/x-ndjson": { schema } } });
export const text = (description: string) => ({ description, content: { "text/plain": { schema: z.string() } } });

/** The problem statuses an operation may answer, besides 429 (every operation is rate limited). */
export function problems(...statuses: number[]): Responses {
  const out: Responses = {};
  for (const s of [...statuses, 429]) {
    // bad_signature is what a webhook receiver reports, never an answer of this API.
    const codes = Object.entries(ERROR_CODES)
      .filter(([c, m]) => m.status === s && c !== "bad_signature")
      .map(([c]) => `\`${c}\``);
    out[s] = { description: codes.length ? `problem: ${codes.join(", ")}` : "problem", content: { "application/problem+json": { schema: R.Problem } } };
  }
  return out;
}

/** The `{id}` of a path, as the document describes it. */
export const id = (what: string) => z.object({ id: z.string().describe(`${what} id`) });

/** A seat's player token (or a director's, an entrant's: `pt_...`). */
export const bearer = [{ playerToken: [] }];
/** A seat's token or none: a seat's view with it, a spectator's without. */
export const bearerOrNone = [{}, ...bearer];
export const botKey = [{ botKey: [] }];
/** Operations a bot key may make: as the bot's profile; without it, as a guest or the `player` named. */
export const asBot = [{}, ...botKey];
