/**
 * What an LLM agent needs before its first move: the rules as data (resources, the same JSON as GET
 * /api/v1/rules) and a prompt that teaches it to play with the tools. The prompt names the tools and the
 * fields they answer, and embeds the current rules, so a model can play from the prompt alone.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { allRulesData, CURRENT_RULES_VERSION, rulesData, RULES_VERSIONS } from "../../engine";

export const RULES_URI = "tile-arena://rules";
export const PLAY_PROMPT = "play_tile_arena";

const json = (uri: string, body: unknown) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body) }] });

/** The teaching prompt: how a turn goes, which fields to read, and the rules of the current version. */
export function playPrompt(opponent: "house" | "quick"): string {
  const rules = rulesData(CURRENT_RULES_VERSION);
  const start =
    opponent === "house"
      ? 'Call create_game with opponent "house" (level easy, normal or hard).'
      : "Call quick_match (wait up to 20 s, then quick_match_poll with its ticket) to meet another player.";
  return [
    "You are playing Tile Arena, a two-seat card game on a 4x4 board, through MCP tools.",
    "",
    "How to play:",
    `1. ${start} Keep game.id and playerToken from the answer: the token is shown once.`,
    "2. Loop: call sync with game_id, player_token, since (the last answer's moveCount, 0 at first) and timeout 20.",
    '   - When yourTurn is true, pick one entry of legalMoves and call move with its `move` string (e.g. "E7@b3").',
    '   - When status is "finished", read `result` (win, loss or draw, from your side) and `decision.summary`; stop.',
    "3. A refused move answers isError with a code (illegal_move, not_your_turn) and a hint: sync again and choose from legalMoves.",
    "   A move sent again after its answer was lost is safe: the one you already played is answered as that move, never played twice.",
    "",
    "Rules in short:",
    `- Squares a1..d4: files a-d left to right, ranks 1-4 bottom to top. ${rules.board.orientation}.`,
    "- A placed card compares each edge with the facing edge of each orthogonal neighbour; strictly greater flips an opponent's card to you.",
    "- Chess tiles, champions and (ruleset mutators) mutators add captures; the rules resource lists them all.",
    `- The board is full after ${rules.moves.placements} placements; the seat owning more cards wins. A tied full board goes to ${rules.end.tiedBoard === "first_mover" ? "the first mover" : "nobody (a draw)"}.`,
    "- Good play: capture now, and avoid leaving a weak edge facing an empty square the opponent can fill.",
    "",
    `The complete rules as JSON are the resource ${RULES_URI}/${CURRENT_RULES_VERSION}:`,
    JSON.stringify(rules),
  ].join("\n");
}

/** Registers the rules resources (all versions, and each one) and the teaching prompt on one session's server. */
export function registerRules(mcp: McpServer): void {
  mcp.registerResource(
    "rules",
    RULES_URI,
    {
      title: "Tile Arena rules, every version",
      description:
        "The rules as data: board orientation (n faces rank 4), hand sizes, capture kinds, chess tiles, mutators, champions, cards. Same JSON as GET /api/v1/rules.",
      mimeType: "application/json",
    },
    (uri) => json(uri.href, allRulesData()),
  );
  for (const v of RULES_VERSIONS) {
    mcp.registerResource(
      `rules-v${v}`,
      `${RULES_URI}/${v}`,
      {
        title: `Tile Arena rules, version ${v}${v === CURRENT_RULES_VERSION ? " (current)" : ""}`,
        description: `The rules of version ${v} as data; a game reports its version as rulesVersion.`,
        mimeType: "application/json",
      },
      (uri) => json(uri.href, rulesData(v)),
    );
  }
  mcp.registerPrompt(
    PLAY_PROMPT,
    {
      title: "Play Tile Arena",
      description: "Teaches a model the game and the tool loop (sync, legalMoves, move) with the current rules embedded.",
      argsSchema: { opponent: z.enum(["house", "quick"]).optional().describe("house (default) or quick: another player from the queue") },
    },
    ({ opponent }) => ({
      messages: [{ role: "user", content: { type: "text", text: playPrompt(opponent ?? "house") } }],
    }),
  );
}
