/**
 * The layers of CONTRIBUTING.md are held by lint (eslint.config.mjs: `import-x/no-restricted-paths` over its
 * LAYERS, and `import-x/no-cycle`). Here the same rules run alone, without the type-aware ones: on a scratch
 * tree they fail an added circle and an added upward import, and on the real tree they find nothing; and every
 * folder and file at the top of src/ and rooms/ is in one layer and on the map.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";

interface Layer {
  name: string;
  paths: string[];
}
interface LayerConfig {
  LAYERS: Layer[];
  layerRulesAt: (root: string) => Linter.Config;
  frameworkRules: Linter.Config[];
  SERVICE_ORDER: string[][];
  webRules: Linter.Config;
}

const ROOT = resolve(__dirname, "../..");

async function lintWithLayers(root: string, files: string[]): Promise<{ file: string; rule: string | null }[]> {
  const { layerRulesAt } = (await import(join(ROOT, "eslint.config.mjs"))) as LayerConfig;
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    // Comments that turn off rules of the full config name rules not loaded here.
    allowInlineConfig: false,
    overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, layerRulesAt(root)],
  });
  const results = await eslint.lintFiles(files);
  return results.flatMap((r) => r.messages.map((m) => ({ file: r.filePath.slice(root.length + 1), rule: m.ruleId })));
}

describe("Layers held by lint (CONTRIBUTING.md, eslint.config.mjs)", function () {
  this.timeout(120_000);

  it("fails an import circle and an import against the layers in a scratch tree", async () => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
      write("src/engine/rules.ts", "export const rule = 1;\n");
      // The engine reaching up into a service: against the layers.
      write("src/engine/up.ts", 'import { service } from "../services/games/service";\nexport const up = service;\n');
      write("src/services/games/service.ts", 'import { rule } from "../../engine/rules";\nexport const service = rule;\n');
      // Two services importing each other: a circle inside one layer.
      write("src/services/players/a.ts", 'import { b } from "./b";\nexport const a = (): number => b();\n');
      write("src/services/players/b.ts", 'import { a } from "./a";\nexport const b = (): number => a();\n');
      // A room importing a service, and the root importing a room: with the layers.
      write("rooms/room.ts", 'import { service } from "../src/services/games/service";\nexport const room = service;\n');
      write("src/server.ts", 'import { room } from "../rooms/room";\nexport const server = room;\n');
      const found = await lintWithLayers(root, ["src", "rooms"]);
      assert.deepEqual(
        found.sort((x, y) => x.file.localeCompare(y.file)),
        [
          { file: "src/engine/up.ts", rule: "import-x/no-restricted-paths" },
          { file: "src/services/players/a.ts", rule: "import-x/no-cycle" },
          { file: "src/services/players/b.ts", rule: "import-x/no-cycle" },
        ],
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("finds no circle and no import against the layers in the real tree", async () => {
    assert.deepEqual(await lintWithLayers(ROOT, ["src", "rooms"]), []);
  });

  it("keeps the store's drivers in their adapters and Express and Colyseus values at the edges", async () => {
    const { frameworkRules } = (await import(join(ROOT, "eslint.config.mjs"))) as LayerConfig;
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      allowInlineConfig: false,
      overrideConfig: [
        { files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, plugins: { "@typescript-eslint": tseslint.plugin } },
        ...frameworkRules,
      ],
    });
    const source = 'import express from "express";\nimport type { Request } from "express";\nimport Database from "better-sqlite3";\n';
    const refused = async (filePath: string) =>
      (await eslint.lintText(source, { filePath: join(ROOT, filePath) }))[0].messages.map((m) => `${m.line}:${m.ruleId}`);
    const rule = "@typescript-eslint/no-restricted-imports";
    // A service: the Express value and the driver refused, the Express type allowed.
    assert.deepEqual(await refused("src/services/games/new.ts"), [`1:${rule}`, `3:${rule}`]);
    // An edge: Express allowed, the driver still refused.
    assert.deepEqual(await refused("src/edges/api/new.ts"), [`3:${rule}`]);
    // The SQLite adapter: its driver allowed.
    assert.deepEqual(await refused("src/store/sqlite/new.ts"), []);
  });

  it("lets the web client import the server's engine and canonical JSON, and no service", async () => {
    const { webRules } = (await import(join(ROOT, "eslint.config.mjs"))) as LayerConfig;
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      allowInlineConfig: false,
      overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, webRules],
    });
    const source = [
      'import type { GamePlay } from "../../../src/services/games/play";',
      'import { canonicalJson } from "../../../src/services/log/canonical";',
      'import { CURRENT_RULES_VERSION } from "../../../src/engine/versions";',
      "export type G = GamePlay;",
      "export const used = [canonicalJson, CURRENT_RULES_VERSION];",
      "",
    ].join("\n");
    const [result] = await eslint.lintText(source, { filePath: join(ROOT, "web/src/lib/new.ts") });
    assert.deepEqual(
      result.messages.map((m) => `${m.line}:${m.ruleId}`),
      ["1:import-x/no-restricted-paths"],
    );
  });

  it("places every folder and file at the top of src/ and rooms/ in one layer and every service in the order, and the map names them all", async () => {
    const { LAYERS } = (await import(join(ROOT, "eslint.config.mjs"))) as LayerConfig;
    const placed = LAYERS.flatMap((l) => l.paths);
    assert.equal(new Set(placed).size, placed.length, "a path in two layers");
    const top = ["rooms", ...readdirSync(join(ROOT, "src")).map((name) => `src/${name}`)];
    assert.deepEqual(
      top.filter((p) => !placed.includes(p)),
      [],
      "not in a layer of eslint.config.mjs",
    );
    const { SERVICE_ORDER } = (await import(join(ROOT, "eslint.config.mjs"))) as LayerConfig;
    const services = readdirSync(join(ROOT, "src/services")).map((name) => `src/services/${name}`);
    assert.deepEqual(
      services.filter((p) => !SERVICE_ORDER.flat().includes(p)),
      [],
      "a service not in SERVICE_ORDER",
    );
    const map = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8").split("## Layers")[1]?.split("\n## ")[0] ?? "";
    for (const p of placed) assert.ok(map.includes(p), `CONTRIBUTING.md's map does not name ${p}`);
    const order = SERVICE_ORDER.map((row) => row.map((p) => p.replace("src/services/", "").replace(/\.ts$/, "")).join(", ")).join(" > ");
    assert.ok(map.replace(/\s+/g, " ").includes(order), `CONTRIBUTING.md does not give the services' order: ${order}`);
  });
});
