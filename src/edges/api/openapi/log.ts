/** The public game log's operations of the OpenAPI document: request and answer schemas from src/services/log. */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
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

type Problems = (...statuses: number[]) => RouteConfig["responses"];

const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });

/** The operations under /log. */
export function logOps(problems: Problems): RouteConfig[] {
  const op = (path: string, operationId: string, summary: string, description: string, rest: Partial<RouteConfig>): RouteConfig => ({
    method: "get",
    path,
    tags: ["log"],
    operationId,
    summary,
    description,
    responses: {},
    ...rest,
  });
  return [
    op(
      "/log/head",
      "getLogHead",
      "The public log's newest signed tree head",
      "Size, root hash (RFC 9162) and time of the log of every finished game, its origin and the id of the Ed25519 key (GET /log/key) that signed its checkpoint note text (GET /log/checkpoint). A new head follows each batch, at most a second apart.",
      { responses: { 200: json(TreeHead) } },
    ),
    op(
      "/log/checkpoint",
      "getLogCheckpoint",
      "The public log's newest head as a checkpoint",
      "The newest signed head as a C2SP checkpoint (c2sp.org/tlog-checkpoint): a signed note of the origin, the tree size, the base64 root hash and the time, a blank line, and the signature line `\u2014 <origin> <base64(key hash || signature)>` (docs/OPEN-DATA.md).",
      { responses: { 200: { description: "the checkpoint", content: { "text/plain": { schema: z.string() } } } } },
    ),
    op(
      "/log/key",
      "getLogKey",
      "The public log's signing key",
      "The Ed25519 public key tree heads are signed with now, as SPKI PEM and as a signed-note verifier key, its id (sha256 of its DER), the log's origin, and every key the log was signed with (a rotation keeps older heads verifiable).",
      { responses: { 200: json(LogKeyAnswer) } },
    ),
    op(
      "/log/games/{id}/proof",
      "getLogInclusionProof",
      "A finished game's inclusion proof",
      "The game's log index and the RFC 9162 audit path from its leaf to the root of the tree of `treeSize` entries (the newest head's by default). 404 while the game is not in the log yet.",
      {
        request: { params: z.object({ id: z.string().describe("game id") }), query: ProofQuery },
        responses: { 200: json(InclusionProofAnswer), ...problems(400, 404) },
      },
    ),
    op(
      "/log/consistency",
      "getLogConsistencyProof",
      "A consistency proof between two tree sizes",
      "The RFC 9162 consistency proof that the tree of `first` entries is a prefix of the tree of `second` (the newest head's by default): the log only ever grew.",
      { request: { query: ConsistencyQuery }, responses: { 200: json(ConsistencyProofAnswer), ...problems(400) } },
    ),
    op(
      "/log/entries",
      "getLogEntries",
      "Entries of the public log by index",
      "Up to `count` entries from index `from`, each with its leaf hash; a private game's entry is only a salted hash of its record (docs/OPEN-DATA.md).",
      { request: { query: EntriesQuery }, responses: { 200: json(LogEntries), ...problems(400) } },
    ),
    op(
      "/exports/games",
      "exportGames",
      "Open export of the public log's games (NDJSON)",
      "Every public game's entry of an index range (`from`, `to`) or of a month of finish times (`month`, YYYY-MM), one `{index, leafHash, entry}` per line, streamed as the client reads it. Private games are left out. The `Log-Tree-Size` header names the tree the export was cut from; check it against a signed head (docs/OPEN-DATA.md).",
      {
        tags: ["log"],
        request: { query: ExportQuery },
        responses: { 200: { description: "one entry per line", content: { "application/x-ndjson": { schema: ExportLine } } }, ...problems(400) },
      },
    ),
  ];
}
