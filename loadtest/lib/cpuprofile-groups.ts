/**
 * Where a V8 CPU profile's self time went, by module: the samples of one or more `.cpuprofile` files (the
 * room benchmark's `--profile` or `--cpu-profile DIR`, or `node --cpu-prof`) summed per group of code, and
 * the functions with the most self time. The grouping rules are the GROUPS table below, read in order: a
 * frame belongs to the first group whose rule matches its script's URL (node_modules packages by name, the
 * project's files by their path under the repository, Node's own modules by their `node:` name) or its
 * function name (V8's pseudo-frames). A frame without a script (a native or builtin function, such as
 * JSON.stringify or a socket's writev), and a frame of Node's library that no rule names (node:fs,
 * node:buffer, node:events, node:crypto ...), is charged to the group of the code that called it, so a call
 * into the runtime counts where it was made (a stat of the store's files is the store's, an event emitted by
 * ws is the socket's). What runs with no caller but the event loop's (a promise's continuation, a callback)
 * starts in the last group. Only the main thread is sampled: the SQLite writer and checkpointer threads
 * and the thread pool's fsyncs are not in a profile.
 */
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { table } from "./common";

/** The parts of a `.cpuprofile` (Chrome DevTools' format, as V8's Profiler.stop returns it) read here. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** What a group's rule is matched against: the frame's package, its path in the repository, or its name. */
interface Frame {
  /** The node_modules package the script is in ("@colyseus/core", "ws"), or null. */
  pkg: string | null;
  /** The script's path in the repository ("src/store/sqlite/writer.ts"), or null outside it. */
  path: string | null;
  /** A Node built-in module's name without its scheme ("internal/timers", "net"), or null. */
  builtin: string | null;
  functionName: string;
}

interface Group {
  name: string;
  matches(f: Frame): boolean;
}

const pkgIn =
  (...names: string[]) =>
  (f: Frame) =>
    f.pkg !== null && names.includes(f.pkg);
const pathUnder =
  (...prefixes: string[]) =>
  (f: Frame) =>
    f.path !== null && prefixes.some((p) => f.path!.startsWith(p));
const builtinIn =
  (...prefixes: string[]) =>
  (f: Frame) =>
    f.builtin !== null && prefixes.some((p) => f.builtin!.startsWith(p));
const any =
  (...rules: Array<(f: Frame) => boolean>) =>
  (f: Frame) =>
    rules.some((r) => r(f));

/** The groups, first match wins. "idle" is the thread waiting for work: left out of the busy time. */
export const GROUPS: Group[] = [
  { name: "idle", matches: (f) => f.functionName === "(idle)" },
  { name: "garbage collector", matches: (f) => f.functionName === "(garbage collector)" },
  { name: "(program): native, unattributed", matches: (f) => f.functionName === "(program)" },
  { name: "engine (src/engine/)", matches: pathUnder("src/engine/") },
  { name: "schema encode (@colyseus/schema)", matches: pkgIn("@colyseus/schema") },
  {
    name: "socket/ws (ws, the transport, node:net and streams)",
    matches: any(
      pkgIn("ws", "@colyseus/ws-transport"),
      pathUnder("src/edges/transport/"),
      builtinIn("net", "stream", "internal/stream_base_commons", "internal/streams", "internal/net"),
    ),
  },
  { name: "store (src/store/, better-sqlite3)", matches: any(pathUnder("src/store/"), pkgIn("better-sqlite3")) },
  { name: "timers (node:timers)", matches: builtinIn("timers", "internal/timers") },
  {
    name: "logging (pino, debug, src/shared/logger.ts)",
    matches: any(pkgIn("pino", "pino-std-serializers", "sonic-boom", "debug"), pathUnder("src/shared/logger.ts", "src/shared/redaction.ts")),
  },
  {
    name: "metrics and tracing (prom-client, src/services/metrics.ts, src/shared/tracing/)",
    matches: any(pkgIn("prom-client"), pathUnder("src/services/metrics.ts", "src/shared/tracing/"), (f) => f.pkg?.startsWith("@opentelemetry/") === true),
  },
  { name: "colyseus core (@colyseus/core, msgpackr)", matches: any((f) => f.pkg?.startsWith("@colyseus/") === true, pkgIn("msgpackr", "nanoid")) },
  {
    name: "express and node:http (REST set-ups)",
    matches: any(
      pkgIn(
        "express",
        "router",
        "body-parser",
        "raw-body",
        "finalhandler",
        "on-finished",
        "send",
        "serve-static",
        "cors",
        "helmet",
        "express-rate-limit",
        "path-to-regexp",
        "qs",
        "cookie",
        "content-type",
        "type-is",
        "accepts",
        "negotiator",
        "mime-types",
        "statuses",
        "http-errors",
        "depd",
        "iconv-lite",
        "safe-buffer",
        "vary",
        "etag",
        "fresh",
        "proxy-addr",
        "forwarded",
        "parseurl",
        "encodeurl",
        "escape-html",
      ),
      builtinIn("_http_", "http", "internal/http"),
      pathUnder("src/edges/api/", "src/edges/web/", "src/edges/docs/"),
    ),
  },
  { name: "validation (zod)", matches: pkgIn("zod") },
  { name: "game room and service (rooms/, the rest of src/)", matches: pathUnder("rooms/", "src/") },
  {
    name: "promises/other (async hooks, microtasks, other modules)",
    matches: any((f) => f.builtin === null, builtinIn("internal/process/task_queues", "internal/process/promises", "internal/async_hooks", "async_hooks")),
  },
];

/** The repository: the folder above loadtest/. */
const ROOT = resolve(__dirname, "../..");

function frameOf(callFrame: { functionName: string; url: string }): Frame | null {
  const { url, functionName } = callFrame;
  if (!url) return functionName.startsWith("(") ? { pkg: null, path: null, builtin: null, functionName } : null;
  if (url.startsWith("node:")) return { pkg: null, path: null, builtin: url.slice(5), functionName };
  let file = url;
  try {
    if (url.startsWith("file:")) file = fileURLToPath(url);
  } catch {
    // Not a file URL V8 could give: matched by the other rules only.
  }
  const modules = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0) {
    const parts = file.slice(modules + 14).split(sep);
    return { pkg: parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0], path: null, builtin: null, functionName };
  }
  const inRepo = relative(ROOT, file);
  const path = inRepo.startsWith("..") ? null : inRepo.split(sep).join("/");
  return { pkg: null, path, builtin: null, functionName };
}

/** The frame's group; null for a frame of Node's library that no rule names (charged to its caller's). */
const groupOf = (f: Frame): string | null => GROUPS.find((g) => g.matches(f))?.name ?? null;

export interface GroupTime {
  group: string;
  ms: number;
  /** Share of the busy (not idle) time. */
  pct: number;
  /** Busy µs per unit of work (a move), when the number of units was given. */
  usPerUnit: number | null;
}
export interface FunctionTime {
  functionName: string;
  /** Its script, shortened to the repository's path or the package's, and its line. */
  where: string;
  group: string;
  ms: number;
  pct: number;
}
export interface ProfileBreakdown {
  files: number;
  busyMs: number;
  idleMs: number;
  groups: GroupTime[];
  top: FunctionTime[];
}

/** Self time per profile node: each sample lasts until the next one (Chrome DevTools' reading). */
function selfTimes(p: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length - 1; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + p.timeDeltas[i + 1]);
  return self;
}

/** Each node's group: its own frame's, or for a frame without a script its caller's. */
function groupsOf(p: CpuProfile): Map<number, string> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const childIds = new Set(p.nodes.flatMap((n) => n.children ?? []));
  const groups = new Map<number, string>();
  const stack: Array<[number, string]> = p.nodes.filter((n) => !childIds.has(n.id)).map((n) => [n.id, GROUPS.at(-1)!.name]);
  while (stack.length) {
    const [id, inherited] = stack.pop()!;
    const node = byId.get(id)!;
    const frame = node.callFrame.functionName === "(root)" ? null : frameOf(node.callFrame);
    const group = (frame && groupOf(frame)) ?? inherited;
    groups.set(id, group);
    for (const c of node.children ?? []) stack.push([c, group]);
  }
  return groups;
}

function whereOf(callFrame: { url: string; lineNumber: number }): string {
  const f = frameOf({ ...callFrame, functionName: "" });
  const name = f?.path ?? f?.pkg ?? (f?.builtin ? `node:${f.builtin}` : "(native)");
  // The project's TypeScript runs as tsx compiled it, one line a module: its line numbers say nothing.
  return callFrame.url && !f?.path?.endsWith(".ts") ? `${name}:${callFrame.lineNumber + 1}` : name;
}

/** The self time of `profiles` by group and the `topN` functions with the most of it; `units` (moves) for µs per unit. */
export function breakdown(profiles: CpuProfile[], units: number | null = null, topN = 10): ProfileBreakdown {
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, FunctionTime>();
  for (const p of profiles) {
    const groups = groupsOf(p);
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    for (const [id, us] of selfTimes(p)) {
      const group = groups.get(id) ?? GROUPS.at(-1)!.name;
      byGroup.set(group, (byGroup.get(group) ?? 0) + us);
      const { callFrame } = byId.get(id)!;
      const where = whereOf(callFrame);
      // A native function is charged to its callers' groups: one entry per group it was called from.
      const key = `${callFrame.functionName}@${where}@${group}`;
      const entry = byFunction.get(key) ?? { functionName: callFrame.functionName || "(anonymous)", where, group, ms: 0, pct: 0 };
      entry.ms += us / 1000;
      byFunction.set(key, entry);
    }
  }
  const idleUs = byGroup.get("idle") ?? 0;
  byGroup.delete("idle");
  const busyUs = [...byGroup.values()].reduce((a, v) => a + v, 0);
  const pct = (us: number) => Math.round((us / Math.max(1, busyUs)) * 1000) / 10;
  const groups = [...byGroup]
    .sort((a, b) => b[1] - a[1])
    .map(([group, us]) => ({ group, ms: Math.round(us / 100) / 10, pct: pct(us), usPerUnit: units ? Math.round((us / units) * 10) / 10 : null }));
  const top = [...byFunction.values()]
    .filter((f) => f.group !== "idle")
    .sort((a, b) => b.ms - a.ms)
    .slice(0, topN)
    .map((f) => ({ ...f, ms: Math.round(f.ms * 10) / 10, pct: pct(f.ms * 1000) }));
  return { files: profiles.length, busyMs: Math.round(busyUs / 1000), idleMs: Math.round(idleUs / 1000), groups, top };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
}

/** The breakdown as two tables: self time by group (busy time only), then the functions with the most of it. */
export function breakdownTables(b: ProfileBreakdown, title: string, unit = "move"): string {
  const groups = table(
    `${title}: main-thread self time by module, ${b.busyMs} ms busy (${b.idleMs} ms idle left out), ${b.files} profile(s)`,
    ["module", "ms", "% of busy", `us per ${unit}`],
    b.groups.map((g) => [g.group, g.ms, g.pct, g.usPerUnit ?? "-"]),
  );
  const top = table(
    `The ${b.top.length} functions with the most self time`,
    ["function", "where", "module", "ms", "% of busy"],
    b.top.map((f) => [f.functionName, f.where, f.group, f.ms, f.pct]),
  );
  return `${groups}\n\n${top}`;
}
