/** Boundary validation: zod schemas turn bad input into one `bad_request` with a readable detail. */
import { z } from "zod";
import { AppError } from "./errors";

export function parse<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join(".") : where}: ${i.message}`);
  throw new AppError("bad_request", `invalid ${where}: ${issues.join("; ")}`);
}

/**
 * A query integer from `min` to `max` (`max` absent: up to 999999999), `fallback` when absent. Query values
 * arrive as strings, so only plain decimal digits are accepted (no sign, exponent or hex); the OpenAPI
 * document still types the parameter as an integer with its range (the 999999999 cap included), which is what
 * a client generator needs.
 */
export function queryInt(min: number, max: number | undefined, fallback: number) {
  const top = max ?? 999_999_999;
  const range = max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, "must be a non-negative integer")
    .transform(Number)
    .refine((n) => n >= min && n <= top, { message: max === undefined ? `must be at least ${min}` : `must be ${min}..${max}` })
    .meta({ type: "integer", minimum: min, maximum: top, default: fallback, description: range })
    .default(fallback);
}

/**
 * Characters no name may hold: control characters (line breaks and tabs among them, C0, DEL and C1), the
 * Unicode line and paragraph separators, and the bidirectional controls that make text display other than it
 * reads. Names are shown on boards and leaderboards, in events and in line-based exports (TRF), where a line
 * break in a name would start a record of its own.
 */
export const NAME_REFUSED = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * A name as every name is taken (players, bots, tournaments, leagues, clubs): trimmed, 1 to `max` characters,
 * none of them refused (NAME_REFUSED).
 */
export const nameSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !NAME_REFUSED.test(s), { message: "must not contain control characters (line breaks, tabs) or bidirectional controls" });
