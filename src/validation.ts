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
