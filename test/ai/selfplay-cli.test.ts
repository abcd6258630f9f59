import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempDir } from "../support/temp-dir";

const run = (script: string, args: string[]) => spawnSync("npx", ["tsx", script, ...args], { encoding: "utf8", cwd: join(__dirname, "../..") });

describe("Unit: selfplay and verify-replay CLIs", function () {
  this.timeout(120_000);
  const dir = useTempDir("selfplay-");

  it("saves replays that all verify and refuses a tampered copy when asked to check it", () => {
    const play = run("src/cli/selfplay.ts", [
      "--games",
      "4",
      "--ruleset",
      "mutators",
      "--a",
      "easy",
      "--b",
      "random",
      "--seed",
      "9",
      "--json",
      "--save",
      dir(),
    ]);
    assert.equal(play.status, 0, play.stderr);
    const summary = JSON.parse(play.stdout.trim());
    assert.equal(summary.aWins + summary.bWins + summary.draws, 4);
    // The record by seat covers the same decided games, and its share matches the counts.
    assert.equal(summary.firstWins + summary.secondWins, summary.aWins + summary.bWins);
    const decided = summary.firstWins + summary.secondWins;
    assert.equal(summary.firstShareOfDecided, decided === 0 ? 0 : Math.round((10_000 * summary.firstWins) / decided) / 10_000);
    const files = readdirSync(dir())
      .filter((f) => f.endsWith(".json"))
      .sort();
    assert.deepEqual(
      files,
      [0, 1, 2, 3].map((i) => `selfplay-9-${i}.json`),
    );
    const replay = JSON.parse(readFileSync(join(dir(), files[0]), "utf8"));
    assert.equal(replay.id, "selfplay-9-0");
    assert.deepEqual(replay.players, { A: "a:easy", B: "b:random" });

    const ok = run(
      "src/cli/verify-replay.ts",
      files.map((f) => join(dir(), f)),
    );
    assert.equal(ok.status, 0, ok.stderr);

    // Claim one more capture on move 3 than the rules give.
    replay.moves[2].captures += 1;
    const tampered = join(dir(), "tampered.json");
    writeFileSync(tampered, JSON.stringify(replay));
    const bad = run("src/cli/verify-replay.ts", [join(dir(), files[1]), tampered]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /tampered\.json/);
    assert.match(bad.stderr, /move 3/);
  });

  it("exits non-zero with a message when a level is unknown", () => {
    const res = run("src/cli/selfplay.ts", ["--games", "1", "--a", "grandmaster"]);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /--a must be one of/);
  });
});
