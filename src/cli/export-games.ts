/**
 * Writes an open export of the public game log from the configured store (DATABASE or MONGODB_URL):
 *   npm run export:games -- --month 2026-11 --out games-2026-11.ndjson.gz
 *   npm run export:games -- --from 0 --to 100000 --out first.ndjson.gz
 * The file is gzip'd NDJSON (one {index, leafHash, entry} per line, private games left out); beside it,
 * FILE.manifest.json names the entry range, the count, the file's sha256 and the signed tree head the export
 * was cut from, which every line's entry can be proven against (docs/OPEN-DATA.md).
 * Exit 0 when written; 2 on bad usage or a store that cannot be opened.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import "../shared/env-file";
import { loadConfig } from "../shared/config";
import { writeExport, type ExportRange } from "../services/log/export";
import { openStore } from "../store";

const USAGE = "usage: export:games (--month YYYY-MM | --from N --to N) --out FILE\n";

// Said in --help because the natural guess is that the tool asks a running server: it opens the store itself,
// so beside a server it must be given the same DATABASE (or MONGODB_URL), or it exports an empty local file.
const HELP = `${USAGE}
Writes an open export of the public game log as gzip'd NDJSON, with FILE.manifest.json beside it.
It reads the local store named by DATABASE (or MONGODB_URL), not a server over HTTP: run it beside the
server with the same DATABASE setting (or .env). --from is inclusive and --to is exclusive
(--from 0 --to 100 exports entries 0..99); --month takes the entries of games finished that month (UTC).
`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: { month: { type: "string" }, from: { type: "string" }, to: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const int = (v: string | undefined, fallback: number) => (v === undefined ? fallback : /^\d+$/.test(v) ? Number(v) : NaN);
  const range: ExportRange = values.month
    ? { kind: "month", month: values.month }
    : { kind: "index", from: int(values.from, 0), to: int(values.to, Number.MAX_SAFE_INTEGER) };
  if (
    !values.out ||
    (range.kind === "index" && (Number.isNaN(range.from) || Number.isNaN(range.to))) ||
    (range.kind === "month" && !/^\d{4}-(0[1-9]|1[0-2])$/.test(range.month))
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const store = await openStore({ database: config.database, mongodbUrl: config.mongodbUrl }).catch((e: unknown) => e as Error);
  if (store instanceof Error) {
    process.stderr.write(`cannot open the store: ${store.message}\n`);
    return 2;
  }
  try {
    const state = await store.log.logState();
    const head = state.head;
    const lines = new PassThrough();
    const written = pipeline(lines, createGzip(), createWriteStream(values.out));
    const summary = await writeExport(store.log, state.size, range, lines);
    lines.end();
    await written;
    const sha256 = createHash("sha256");
    await pipeline(createReadStream(values.out), sha256);
    const manifest = {
      file: values.out.split("/").at(-1),
      ...(range.kind === "month" ? { month: range.month } : { from: range.from, to: Math.min(range.to, state.size) }),
      firstIndex: summary.first,
      lastIndex: summary.last,
      count: summary.count,
      sha256: sha256.digest("hex"),
      treeHead: head,
    };
    writeFileSync(`${values.out}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    process.stdout.write(`${summary.count} entries written to ${values.out} (tree of ${state.size})\n`);
    if (summary.count === 0) {
      // The usual cause is a store other than the server's, which the command cannot tell from an empty range.
      process.stderr.write(
        `warning: the export holds no entries (the log in this store has ${state.size}); check the range (--to is exclusive) ` +
          `and that DATABASE (or MONGODB_URL) names the server's store\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
