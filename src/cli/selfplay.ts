/**
 * Seeded self-play between two house-opponent levels.
 *   npm run selfplay -- --games N --ruleset classic|mutators --a LEVEL --b LEVEL [--seed S] [--rules V] [--json] [--save DIR]
 * LEVEL is random, easy, normal, hard, or hard-2026 (the hard level before it was strengthened, kept for
 * matches against the new one; the public API does not offer it).
 * Side a plays seat A in even games and B in odd ones (same deal per pair). --save writes each finished
 * game's replay as DIR/selfplay-<seed>-<i>.json. Besides the a/b record it reports the record by seat: the
 * seed chooses who moves first, and a fair game gives the first mover about half of the decided games.
 * The numeric seed keeps runs reproducible; under rules version 4 each deal's 128-bit seed is derived from it
 * (docs/RULES.md, "The deal"), and the saved replays carry that seed.
 * A progress bar is drawn on stderr when it is a terminal (never with --json or when piped).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildReplay, CURRENT_RULES_VERSION, isRulesVersion, RULES_VERSIONS } from "../engine";
import type { Ruleset } from "../engine/types";
import { AI_LEVELS, type AiLevel } from "../services/ai/decide";
import { runMatch } from "../services/ai/selfplay";
import { createProgress } from "./progress";

const RULESETS: readonly Ruleset[] = ["classic", "mutators"];

function fail(message: string): never {
  process.stderr.write(`selfplay: ${message}\n`);
  process.exit(2);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      games: { type: "string", default: "100" },
      ruleset: { type: "string", default: "classic" },
      a: { type: "string", default: "hard" },
      b: { type: "string", default: "normal" },
      seed: { type: "string", default: "1" },
      rules: { type: "string", default: String(CURRENT_RULES_VERSION) },
      json: { type: "boolean", default: false },
      save: { type: "string" },
    },
    allowPositionals: false,
  });
  const games = Number(values.games);
  const seed = Number(values.seed);
  if (!Number.isInteger(games) || games < 1) fail("--games must be a positive integer");
  if (!Number.isInteger(seed)) fail("--seed must be an integer");
  if (!RULESETS.includes(values.ruleset as Ruleset)) fail(`--ruleset must be one of ${RULESETS.join(", ")}`);
  for (const side of ["a", "b"] as const) {
    if (!AI_LEVELS.includes(values[side] as AiLevel)) fail(`--${side} must be one of ${AI_LEVELS.join(", ")}`);
  }
  const rulesVersion = Number(values.rules);
  if (!isRulesVersion(rulesVersion)) fail(`--rules must be one of ${RULES_VERSIONS.join(", ")}`);
  const opts = { games, ruleset: values.ruleset as Ruleset, a: values.a as AiLevel, b: values.b as AiLevel, seed, rulesVersion: rulesVersion };
  if (values.save) mkdirSync(values.save, { recursive: true });

  const progress = createProgress(`${opts.ruleset} ${opts.a}/${opts.b}`, games, { json: values.json });
  const summary = runMatch(opts, (g) => {
    progress.increment();
    if (!values.save) return;
    const id = `selfplay-${seed}-${g.index}`;
    const players = g.aSeat === "A" ? { A: `a:${opts.a}`, B: `b:${opts.b}` } : { A: `b:${opts.b}`, B: `a:${opts.a}` };
    const replay = buildReplay(g.state, { id, players, replayUrl: "" });
    writeFileSync(join(values.save, `${id}.json`), JSON.stringify(replay, null, 2));
  });

  progress.stop();

  const decided = summary.aWins + summary.bWins;
  const aShare = decided === 0 ? 0 : summary.aWins / decided;
  const firstShare = decided === 0 ? 0 : summary.firstWins / decided;
  if (values.json) {
    const shares = { aShareOfDecided: round(aShare, 4), firstShareOfDecided: round(firstShare, 4) };
    process.stdout.write(JSON.stringify({ ...opts, ...summary, ...shares }) + "\n");
    return;
  }
  process.stdout.write(
    [
      `${opts.ruleset} (rules version ${opts.rulesVersion}): a=${opts.a} vs b=${opts.b}, ${games} games, seed ${seed}`,
      `wins a ${summary.aWins}  wins b ${summary.bWins}  draws ${summary.draws}  (a took ${round(100 * aShare, 1)}% of decided games)`,
      `by seat: first mover ${summary.firstWins}  second mover ${summary.secondWins}  draws ${summary.draws}  (first mover took ${round(100 * firstShare, 1)}% of decided games)`,
      `average captures per game ${round(summary.avgCaptures, 2)}  games/s ${round(summary.gamesPerSecond, 2)}`,
    ].join("\n") + "\n",
  );
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

main();
