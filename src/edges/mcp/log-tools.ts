/** The public game log's MCP tools: the REST reads under /log, with the same answers. */
import { z } from "zod";
import * as S from "../../services/log/schemas";
import { MAX_ENTRIES_PER_READ } from "../../services/log/service";
import { def, type ToolDef } from "./tool-def";

const size = z.number().int().min(1).optional();

export const LOG_TOOLS: ToolDef[] = [
  def(
    "log_head",
    true,
    "The public log of every finished game: its newest signed tree head (size, RFC 9162 root hash, time, Ed25519 signature).",
    z.object({}).strict(),
    S.TreeHead,
    (_a, d) => d.publicLog.head(),
  ),
  def("log_key", true, "The Ed25519 public key (SPKI PEM) the public log's tree heads are signed with.", z.object({}).strict(), S.LogKeyAnswer, async (_a, d) =>
    d.publicLog.publicKey(),
  ),
  def(
    "log_inclusion_proof",
    true,
    "A finished game's index in the public log and its RFC 9162 audit path to the root of the tree of tree_size entries (default: the newest head's). Private games do not enter the log; one logged before they stopped is proven only with one of its seats' player_token.",
    z
      .object({
        game_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a game id"),
        tree_size: size,
        player_token: z.string().min(1).max(200).optional().describe("a seat's player token, for a private game's entry"),
      })
      .strict(),
    S.InclusionProofAnswer,
    (a, d) => d.publicLog.inclusion(a.game_id, a.tree_size, a.player_token),
  ),
  def(
    "log_consistency_proof",
    true,
    "The RFC 9162 proof that the public log's tree of `first` entries is a prefix of the tree of `second` (default: the newest head's).",
    z.object({ first: z.number().int().min(0), second: size }).strict(),
    S.ConsistencyProofAnswer,
    (a, d) => d.publicLog.consistency(a.first, a.second),
  ),
  def(
    "log_entries",
    true,
    "Entries of the public log from index `from`, each with its leaf hash (private games do not enter the log; an entry of one logged before they stopped is a salted hash only).",
    z.object({ from: z.number().int().min(0).default(0), count: z.number().int().min(1).max(MAX_ENTRIES_PER_READ).default(100) }).strict(),
    S.LogEntries,
    (a, d) => d.publicLog.entries(a.from, a.count),
  ),
];
