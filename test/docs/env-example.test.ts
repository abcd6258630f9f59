/**
 * .env.example is generated from src/shared/config.ts (`npm run env:example`): the committed file must be what
 * the generator writes now, its defaults must be values the config accepts, and the operator's table in
 * docs/DEPLOY.md must name every variable.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { EnvSchema, loadConfig } from "../../src/shared/config";
import { ENV_EXAMPLE, envExample } from "../../scripts/env-example";

describe(".env.example", () => {
  it("is up to date with src/shared/config.ts (regenerate it with npm run env:example)", () => {
    assert.equal(readFileSync(ENV_EXAMPLE, "utf8"), envExample());
  });

  it("lists every variable once, with defaults the config accepts and reads as its defaults", () => {
    const lines = readFileSync(ENV_EXAMPLE, "utf8")
      .split("\n")
      .filter((l) => /^# [A-Z0-9_]+=/.test(l));
    const entries = lines.map((l) => l.slice(2).split(/=(.*)/s).slice(0, 2) as [string, string]);
    assert.deepEqual(
      entries.map(([k]) => k),
      Object.keys(EnvSchema.shape),
    );
    const env = Object.fromEntries(entries.filter(([, v]) => v !== ""));
    assert.deepEqual(loadConfig(env), loadConfig({}));
  });

  it("every variable is in the configuration table of docs/DEPLOY.md", () => {
    const deploy = readFileSync("docs/DEPLOY.md", "utf8");
    for (const name of Object.keys(EnvSchema.shape)) assert.match(deploy, new RegExp(`^\\| \`${name}\` \\|`, "m"), name);
  });
});
