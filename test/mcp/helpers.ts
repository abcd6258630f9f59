/** An MCP client (the SDK's own) connected to a booted server, with helpers that unwrap tool results. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { SQUARES } from "../../src/engine/board";

export interface McpTestClient {
  client: Client;
  /** Calls a tool and returns its structured body, failing the test on an `isError` result. */
  ok(name: string, args: Record<string, unknown>): Promise<any>;
  /** Calls a tool and returns the raw result (for refusals). */
  raw(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: any; content: any[] }>;
  /** A custom JSON-RPC method (events/*). */
  method(method: string, params: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

export async function connect(baseUrl: string): Promise<McpTestClient> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`));
  await client.connect(transport);
  const raw = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as any;
  return {
    client,
    raw,
    async ok(name, args) {
      const r = await raw(name, args);
      if (r.isError) throw new Error(`${name} refused: ${r.content[0]?.text}`);
      return r.structuredContent;
    },
    method: (method, params) => client.request({ method, params }, z.looseObject({})),
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** Plays the seat's moves until the game ends: sync waits for the house, then a card onto an empty square. */
export async function playToTheEnd(mcp: McpTestClient, gameId: string, token: string, maxTurns = 40): Promise<any> {
  let since = 0;
  for (let turn = 0; turn < maxTurns; turn++) {
    const view = await mcp.ok("sync", { game_id: gameId, player_token: token, since, timeout: 5 });
    since = view.moveCount;
    if (view.status === "finished") return view;
    if (!view.yourTurn) continue;
    await playOneMove(mcp, gameId, token, view);
  }
  throw new Error(`game ${gameId} did not finish within ${maxTurns} syncs`);
}

/** A legal move from the seat view: the first card of the hand onto the first square that takes it. */
export async function playOneMove(mcp: McpTestClient, gameId: string, token: string, view: any): Promise<any> {
  const taken = new Set<string>(view.state.board.map((c: { square: string }) => c.square));
  const card = view.state.hand[0].id as string;
  for (const square of SQUARES.filter((s) => !taken.has(s))) {
    const r = await mcp.raw("move", { game_id: gameId, player_token: token, move: `${card}@${square}` });
    if (!r.isError) return r.structuredContent;
    if (r.structuredContent?.code !== "illegal_move") throw new Error(`move refused: ${r.content[0]?.text}`);
  }
  throw new Error("no square took the card");
}
