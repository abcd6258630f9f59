/** REST reads of the public game log under /api/v1/log: the signed head, the key, proofs and entries. */
import { Router, type Request } from "express";
import { z } from "zod";
import { reply } from "../reply";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import {
  ConsistencyProofAnswer,
  ConsistencyQuery,
  EntriesQuery,
  ExportLine,
  ExportQuery,
  InclusionProofAnswer,
  LogEntries,
  LogKeyAnswer,
  ProofQuery,
  TreeHead,
} from "../../../services/log/schemas";
import type { LogService } from "../../../services/log/service";
import type { ExportSlots } from "../export-slots";
import { json, ndjson, problems, text } from "../openapi/parts";
import { mountRoutes, route, type Route } from "../route";
import { pathId, GAME_ID } from "./path-id";

interface LogDeps {
  log: LogService;
  exportSlots: ExportSlots;
}

const gameId = (req: Request): string => pathId(req, GAME_ID, "game");

export const logRoutes: Route<LogDeps>[] = [
  route({
    method: "get",
    path: "/log/head",
    operationId: "getLogHead",
    tags: ["log"],
    summary: "The public log's newest signed tree head",
    description:
      "Size, root hash (RFC 9162) and time of the log of every finished game, its origin and the id of the Ed25519 key (GET /log/key) that signed its checkpoint note text (GET /log/checkpoint). A new head follows each batch, at most a second apart.",
    responses: { 200: json(TreeHead) },
    handler: async ({ res }, d) => {
      reply(res, 200, TreeHead, await d.log.head());
    },
  }),
  // A C2SP checkpoint (signed note), the format transparency-log tooling and witnesses read.
  route({
    method: "get",
    path: "/log/checkpoint",
    operationId: "getLogCheckpoint",
    tags: ["log"],
    summary: "The public log's newest head as a checkpoint",
    description:
      "The newest signed head as a C2SP checkpoint (c2sp.org/tlog-checkpoint): a signed note of the origin, the tree size, the base64 root hash and the time, a blank line, and the signature line `\u2014 <origin> <base64(key hash || signature)>` (docs/OPEN-DATA.md).",
    responses: { 200: text("the checkpoint") },
    handler: async ({ res }, d) => {
      const note = await d.log.checkpoint();
      res.status(200).setHeader("content-type", "text/plain; charset=utf-8");
      res.end(note);
    },
  }),
  route({
    method: "get",
    path: "/log/key",
    operationId: "getLogKey",
    tags: ["log"],
    summary: "The public log's signing key",
    description:
      "The Ed25519 public key tree heads are signed with now, as SPKI PEM and as a signed-note verifier key, its id (sha256 of its DER), the log's origin, and every key the log was signed with (a rotation keeps older heads verifiable).",
    responses: { 200: json(LogKeyAnswer) },
    handler: ({ res }, d) => {
      reply(res, 200, LogKeyAnswer, d.log.publicKey());
    },
  }),
  route({
    method: "get",
    path: "/log/games/:id/proof",
    operationId: "getLogInclusionProof",
    tags: ["log"],
    summary: "A finished game's inclusion proof",
    description:
      "The game's log index and the RFC 9162 audit path from its leaf to the root of the tree of `treeSize` entries (the newest head's by default). 404 while the game is not in the log yet.",
    request: { params: z.object({ id: z.string().describe("game id") }), query: ProofQuery },
    responses: { 200: json(InclusionProofAnswer), ...problems(400, 404) },
    handler: async ({ req, res, query }, d) => {
      const id = gameId(req);
      const { treeSize } = query();
      const token = bearerToken(req.headers.authorization);
      if (token === null) throw new AppError("unauthorized", "the Authorization header must be `Bearer pt_...` (a seat's token) or absent");
      reply(res, 200, InclusionProofAnswer, await d.log.inclusion(id, treeSize || undefined, token));
    },
  }),
  route({
    method: "get",
    path: "/log/consistency",
    operationId: "getLogConsistencyProof",
    tags: ["log"],
    summary: "A consistency proof between two tree sizes",
    description:
      "The RFC 9162 consistency proof that the tree of `first` entries is a prefix of the tree of `second` (the newest head's by default): the log only ever grew.",
    request: { query: ConsistencyQuery },
    responses: { 200: json(ConsistencyProofAnswer), ...problems(400) },
    handler: async ({ res, query }, d) => {
      const { first, second } = query();
      reply(res, 200, ConsistencyProofAnswer, await d.log.consistency(first, second || undefined));
    },
  }),
  route({
    method: "get",
    path: "/log/entries",
    operationId: "getLogEntries",
    tags: ["log"],
    summary: "Entries of the public log by index",
    description:
      "Up to `count` entries from index `from`, each with its leaf hash; a private game's entry is only a salted hash of its record (docs/OPEN-DATA.md).",
    request: { query: EntriesQuery },
    responses: { 200: json(LogEntries), ...problems(400) },
    handler: async ({ res, query }, d) => {
      const { from, count } = query();
      // The LogEntries schema's shape built from the stored leaves and written a page at a time as the client
      // reads it (LogService.entriesTo): a megabyte's answer is neither held whole, serialised again nor hashed
      // for an ETag on the event loop. A bad range is refused with a problem document before anything is written.
      res.status(200).setHeader("content-type", "application/json; charset=utf-8");
      try {
        await d.log.entriesTo(from, count, res);
      } catch (err) {
        // Too late for a problem document once a page is out: the reader sees the answer cut short, not a whole one.
        if (res.headersSent) res.destroy();
        throw err;
      }
      res.end();
    },
  }),
  // NDJSON, written as the client reads it (back-pressure), so not one answer for reply; the tree size it was cut from is in a header.
  route({
    method: "get",
    path: "/exports/games",
    operationId: "exportGames",
    tags: ["log"],
    summary: "Open export of the public log's games (NDJSON)",
    description:
      "Every public game's entry of an index range (`from`, `to`) or of a month of finish times (`month`, YYYY-MM), one `{index, leafHash, entry}` per line, streamed as the client reads it. Private games are left out. The `Log-Tree-Size` header names the tree the export was cut from; check it against a signed head (docs/OPEN-DATA.md).",
    request: { query: ExportQuery },
    responses: { 200: ndjson(ExportLine, "one entry per line"), ...problems(400) },
    handler: async ({ req, res, query }, d) => {
      const q = query();
      d.exportSlots.take(req, res);
      const size = await d.log.size();
      res.status(200).setHeader("content-type", "application/x-ndjson");
      res.setHeader("log-tree-size", String(size));
      await d.log.exportTo(q.month ? { kind: "month", month: q.month } : { kind: "index", from: q.from, to: q.to }, res, size);
      res.end();
    },
  }),
];

export const logRouter = (log: LogService, exportSlots: ExportSlots): Router => mountRoutes(Router(), logRoutes, { log, exportSlots });
