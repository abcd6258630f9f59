/** Requests and answers of the public log's REST reads (src/edges/api/routes/log.ts) and its MCP tools, as zod schemas. */
import { z } from "zod";
import { queryInt } from "../../shared/validation";
import { MAX_ENTRIES_PER_READ } from "./service";

const hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe("SHA-256, lowercase hex");

export const ProofQuery = z.object({ treeSize: queryInt(0, undefined, 0).describe("the tree size to prove against; 0 or absent: the newest head's") }).strict();
export const ConsistencyQuery = z
  .object({
    first: queryInt(0, undefined, 0).describe("the older tree size"),
    second: queryInt(0, undefined, 0).describe("the newer tree size; 0 or absent: the newest head's"),
  })
  .strict();
export const EntriesQuery = z
  .object({
    from: queryInt(0, undefined, 0).describe("the first entry's index"),
    count: queryInt(1, MAX_ENTRIES_PER_READ, 100).describe("how many entries at most"),
  })
  .strict();

export const TreeHead = z
  .object({
    size: z.number().int(),
    rootHash: hex,
    timestamp: z.string(),
    signature: z
      .string()
      .describe("base64 Ed25519 signature over the head's checkpoint note text: origin, size, base64 root hash and timestamp, one a line (docs/OPEN-DATA.md)"),
    origin: z.string().describe("the log's origin, the checkpoint's first line"),
    keyId: hex.describe("the id of the key that signed the head (GET /log/key)"),
  })
  .meta({ id: "TreeHead" });
export const LogKeyAnswer = z
  .object({
    algorithm: z.literal("Ed25519"),
    keyId: hex.describe("the current key's id: sha256 of its DER (SPKI)"),
    publicKey: z.string().describe("the current key, SPKI PEM"),
    origin: z.string().describe("the log's origin: the first line of its checkpoints and the name of its note key"),
    verifierKey: z.string().describe("the current key as a signed-note verifier key: <origin>+<hex key hash>+<base64(0x01 || key)>"),
    keys: z
      .array(
        z.object({ keyId: hex, publicKey: z.string().describe("SPKI PEM"), fromSize: z.number().int().describe("the tree size the key began signing at") }),
      )
      .describe("every key the log was signed with, oldest first: a head names its own by keyId"),
  })
  .meta({ id: "LogKey" });
export const InclusionProofAnswer = z
  .object({
    gameId: z.string(),
    index: z.number().int(),
    treeSize: z.number().int(),
    rootHash: hex,
    leafHash: hex,
    path: z.array(hex).describe("RFC 9162 audit path, leaf side first"),
  })
  .meta({ id: "InclusionProof" });
export const ConsistencyProofAnswer = z
  .object({
    first: z.number().int(),
    second: z.number().int(),
    firstRootHash: hex,
    secondRootHash: hex,
    proof: z.array(hex).describe("RFC 9162 consistency proof"),
  })
  .meta({ id: "ConsistencyProof" });
export const LogEntries = z
  .object({
    treeSize: z.number().int().describe("the stored tree's size when read"),
    entries: z.array(
      z.object({
        index: z.number().int(),
        leafHash: hex,
        entry: z.record(z.string(), z.unknown()).describe("the entry (docs/OPEN-DATA.md); its RFC 8785 canonical JSON is the leaf"),
      }),
    ),
  })
  .meta({ id: "LogEntries" });

export const ExportQuery = z
  .object({
    from: queryInt(0, undefined, 0).describe("the first entry's index (ignored with month)"),
    to: queryInt(0, undefined, 999_999_999).describe("the index after the last entry (ignored with month); at most the tree's size"),
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM")
      .optional()
      .describe("only games finished in this month (UTC), YYYY-MM"),
  })
  .strict();
export const ExportLine = z
  .object({ index: z.number().int(), leafHash: hex, entry: z.record(z.string(), z.unknown()).describe("a public game's entry (docs/log-entry.schema.json)") })
  .meta({ id: "ExportLine" });
