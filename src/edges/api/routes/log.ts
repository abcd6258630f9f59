/** REST reads of the public game log under /api/v1/log: the signed head, the key, proofs and entries. */
import { Router, type Request } from "express";
import { reply } from "../reply";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import { parse } from "../../../shared/validation";
import {
  ConsistencyProofAnswer,
  ConsistencyQuery,
  EntriesQuery,
  ExportQuery,
  InclusionProofAnswer,
  LogKeyAnswer,
  ProofQuery,
  TreeHead,
} from "../../../services/log/schemas";
import type { LogService } from "../../../services/log/service";
import type { ExportSlots } from "../export-slots";
import { pathId, GAME_ID } from "./path-id";

const gameId = (req: Request): string => pathId(req, GAME_ID, "game");

export function logRouter(log: LogService, exportSlots: ExportSlots): Router {
  const r = Router();
  r.get("/log/head", async (_req, res) => {
    reply(res, 200, TreeHead, await log.head());
  });
  // A C2SP checkpoint (signed note), the format transparency-log tooling and witnesses read.
  r.get("/log/checkpoint", async (_req, res) => {
    const note = await log.checkpoint();
    res.status(200).setHeader("content-type", "text/plain; charset=utf-8");
    res.end(note);
  });
  r.get("/log/key", (_req, res) => {
    reply(res, 200, LogKeyAnswer, log.publicKey());
  });
  r.get("/log/games/:id/proof", async (req, res) => {
    const id = gameId(req);
    const { treeSize } = parse(ProofQuery, req.query, "query");
    const token = bearerToken(req.headers.authorization);
    if (token === null) throw new AppError("unauthorized", "the Authorization header must be `Bearer pt_...` (a seat's token) or absent");
    reply(res, 200, InclusionProofAnswer, await log.inclusion(id, treeSize || undefined, token));
  });
  r.get("/log/consistency", async (req, res) => {
    const { first, second } = parse(ConsistencyQuery, req.query, "query");
    reply(res, 200, ConsistencyProofAnswer, await log.consistency(first, second || undefined));
  });
  r.get("/log/entries", async (req, res) => {
    const { from, count } = parse(EntriesQuery, req.query, "query");
    // The LogEntries schema's shape built from the stored leaves and written a page at a time as the client
    // reads it (LogService.entriesTo): a megabyte's answer is neither held whole, serialised again nor hashed
    // for an ETag on the event loop. A bad range is refused with a problem document before anything is written.
    res.status(200).setHeader("content-type", "application/json; charset=utf-8");
    try {
      await log.entriesTo(from, count, res);
    } catch (err) {
      // Too late for a problem document once a page is out: the reader sees the answer cut short, not a whole one.
      if (res.headersSent) res.destroy();
      throw err;
    }
    res.end();
  });
  // NDJSON, written as the client reads it (back-pressure), so not one answer for reply; the tree size it was cut from is in a header.
  r.get("/exports/games", async (req, res) => {
    const q = parse(ExportQuery, req.query, "query");
    exportSlots.take(req, res);
    const size = await log.size();
    res.status(200).setHeader("content-type", "application/x-ndjson");
    res.setHeader("log-tree-size", String(size));
    await log.exportTo(q.month ? { kind: "month", month: q.month } : { kind: "index", from: q.from, to: q.to }, res, size);
    res.end();
  });
  return r;
}
