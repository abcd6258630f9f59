/**
 * Sends a JSON answer typed by the response schema the OpenAPI document publishes for it, so a route whose
 * service starts returning another shape fails the type check instead of silently drifting from the
 * document. Nothing is parsed at run time: the conformance test holds real answers against the document.
 */
import type { Response } from "express";
import type { z } from "zod";

export function reply<S extends z.ZodType>(res: Response, status: number, _schema: S, body: z.input<S>): void {
  res.status(status).json(body);
}
