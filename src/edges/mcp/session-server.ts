/**
 * One McpServer per MCP session: the tools of ./tools and the custom `events/*` JSON-RPC methods, which
 * take the same parameters as the REST subscribe and unsubscribe bodies.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { parse } from "../../shared/validation";
import { eventCatalog, type Events } from "../../services/events";
import type { Logger } from "../../shared/logger";
import { asAppError, RPC, RpcError, rpcError, toolError, toolResult } from "./results";
import { registerRules } from "./rules";
import { toolProblemSchema, TOOLS, type ToolDef, type ToolDeps } from "./tools";

export interface SessionDeps extends ToolDeps {
  events: Pick<Events, "subscriptions">;
  log: Logger;
  version: string;
}

const byName = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * The tools as tools/list describes them, built once. outputSchema is the tool's answer or, on an isError
 * result, the problem; a union the SDK would drop (it only publishes object schemas), so the list is ours.
 */
const TOOL_LIST: Tool[] = TOOLS.map((t) => {
  const schema = (s: z.ZodType, io: "input" | "output") => {
    const { $schema: _drop, ...out } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
    return out;
  };
  return {
    name: t.name,
    description: t.description,
    inputSchema: { ...schema(t.input, "input"), type: "object" },
    outputSchema: { type: "object", ...schema(z.union([t.output, toolProblemSchema]), "output") },
    annotations: { readOnlyHint: t.readOnly, openWorldHint: false },
  };
});

async function call(tool: ToolDef, args: unknown, deps: SessionDeps): Promise<CallToolResult> {
  const started = Date.now();
  try {
    const body = await tool.run(parse(tool.input, args, "arguments"), deps);
    deps.log.debug({ tool: tool.name, ms: Date.now() - started }, "mcp tool");
    return toolResult(body);
  } catch (err) {
    const e = asAppError(err, deps.log, tool.name);
    // Only the tool name and the code: arguments may hold a player token or a player secret.
    deps.log.info({ tool: tool.name, code: e.code, ms: Date.now() - started }, "mcp tool refused");
    return toolError(e);
  }
}

/** Params of a custom method (the SDK has already refused params that are not an object). */
const methodSchema = <M extends string>(method: M) => z.object({ method: z.literal(method), params: z.record(z.string(), z.unknown()).optional() });

/** `_meta` belongs to MCP, not to the REST body the params stand for. */
function bodyOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { _meta: _ignored, ...body } = params ?? {};
  return body;
}

async function rpc<T>(what: string, deps: SessionDeps, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const e = asAppError(err, deps.log, what);
    deps.log.info({ method: what, code: e.code, reason: e.extra.reason }, "mcp method refused");
    throw rpcError(e);
  }
}

export function createSessionServer(deps: SessionDeps): McpServer {
  const mcp = new McpServer(
    { name: "tile-arena", version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, experimental: { events: { methods: ["events/list", "events/subscribe", "events/unsubscribe"] } } },
      instructions:
        "Play the tile-and-card game: create_game (opponent house) or quick_match, then loop sync (with player_token, since = the last moveCount, timeout) and move one of its legalMoves until status is finished; `result` says win, loss or draw. The prompt play_tile_arena teaches the game; the resource tile-arena://rules holds the rules as data. events/subscribe delivers signed webhooks instead of polling.",
    },
  );
  for (const tool of TOOLS) {
    mcp.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly, openWorldHint: false } },
      (args) => call(tool, args, deps),
    );
  }
  // Replaces the SDK's tools/call dispatch (after registerTool installed it) so that arguments failing the
  // schema are answered like every other refusal, `isError` with code bad_request, not as SDK prose.
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new RpcError(RPC.invalidParams, `unknown tool ${req.params.name}`, { code: "bad_request" });
    return call(tool, req.params.arguments ?? {}, deps);
  });

  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  registerRules(mcp);

  mcp.server.setRequestHandler(methodSchema("events/list"), async () => ({ events: eventCatalog() }));
  mcp.server.setRequestHandler(methodSchema("events/subscribe"), (req) =>
    rpc("events/subscribe", deps, async () => ({ ...(await deps.events.subscriptions.subscribe(bodyOf(req.params))) })),
  );
  mcp.server.setRequestHandler(methodSchema("events/unsubscribe"), (req) =>
    rpc("events/unsubscribe", deps, async () => ({ ...(await deps.events.subscriptions.unsubscribe(bodyOf(req.params))) })),
  );
  return mcp;
}
