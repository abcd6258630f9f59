/** Boundary validation: zod schemas turn bad input into one `bad_request` with a readable detail. */
import type { z } from "zod";
import { AppError } from "./errors";

export function parse<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join(".") : where}: ${i.message}`);
  throw new AppError("bad_request", `invalid ${where}: ${issues.join("; ")}`);
}
