// ESLint flat config: typescript-eslint's type-aware recommended rules over every TypeScript file the type
// check covers, and the server's layers (CONTRIBUTING.md, "Layers"). `npm run lint` runs it; scripts/test.sh
// runs it before mocha.
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * The server's layers, lowest first: a file may import its own layer and the ones below, never one above.
 * Every top-level folder and file of src/ and rooms/ is in exactly one (test/scripts/layers.test.ts checks it).
 */
export const LAYERS = [
  { name: "engine", paths: ["src/engine"] },
  { name: "shared", paths: ["src/shared"] },
  { name: "store", paths: ["src/store"] },
  { name: "services", paths: ["src/services"] },
  { name: "edges", paths: ["rooms", "src/edges"] },
  { name: "root", paths: ["src/cli", "src/main.ts", "src/server.ts", "src/wiring"] },
];

/**
 * The services, highest first: a service imports those after it, never one before it, and the last row's
 * import no other service. A service that must reach one above it does so through a port it defines (the bots'
 * revocation names the leagues' `withdrawBot` so).
 */
export const SERVICE_ORDER = [
  ["log"],
  ["agents"],
  ["leagues"],
  ["bots"],
  ["tournaments"],
  ["communities"],
  ["games"],
  ["metrics.ts"],
  ["players", "cluster", "ai", "events", "operator", "assets"],
].map((row) => row.map((name) => `src/services/${name}`));

const serviceZones = SERVICE_ORDER.flatMap((row, i) =>
  row.map((path) => ({
    target: [`./${path}`],
    from: [...SERVICE_ORDER.slice(0, i).flat(), ...(i === SERVICE_ORDER.length - 1 ? row.filter((p) => p !== path) : [])].map((p) => `./${p}`),
    message: `${path} imports only the services after it in SERVICE_ORDER (eslint.config.mjs; CONTRIBUTING.md, "Layers").`,
  })),
).filter((zone) => zone.from.length > 0);

/** Outside the server: tools and clients that use it, never used by it. */
const OUTSIDE = ["clients", "loadtest", "scripts", "test", "web"];

const above = (i) => LAYERS.slice(i + 1).flatMap((layer) => layer.paths);
const layerZones = LAYERS.flatMap((layer, i) => [
  ...(i < LAYERS.length - 1
    ? [
        {
          target: layer.paths.map((p) => `./${p}`),
          from: above(i).map((p) => `./${p}`),
          message: `the ${layer.name} layer imports only its own layer and those below it (CONTRIBUTING.md, "Layers").`,
        },
      ]
    : []),
  {
    target: layer.paths.map((p) => `./${p}`),
    from: OUTSIDE.map((p) => `./${p}`),
    message: "the server imports nothing of the tools, tests and clients built on it.",
  },
]);

/** The layers' rules over the tree at `root`, on their own too, so a test can hold a scratch tree to them. */
export const layerRulesAt = (root) => ({
  files: ["src/**/*.ts", "rooms/**/*.ts"],
  plugins: { "import-x": importX },
  settings: {
    "import-x/extensions": [".ts", ".d.ts", ".js", ".cjs"],
    "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".d.ts"] },
    "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".d.ts", ".js", ".cjs", ".json"] })],
  },
  rules: {
    "import-x/no-restricted-paths": ["error", { basePath: root, zones: [...layerZones, ...serviceZones] }],
    "import-x/no-cycle": ["error", { ignoreExternal: true }],
  },
});

/**
 * Frameworks stay in their layers. The store's drivers (better-sqlite3, mongoose, redis) are imported by their
 * adapters in src/store only; Express and Colyseus by the edges and the root, while the lower layers may name
 * their types (a service takes a Colyseus `Presence` or an Express handler's types as a port). Three services
 * reach Colyseus's matchmaker itself, each the one place its context does: listed here by name.
 */
const MATCHMAKER_USERS = ["src/services/games/room-access.ts", "src/services/games/matchmaking-guard.ts", "src/services/cluster/listing.ts"];
const drivers = {
  patterns: [{ group: ["better-sqlite3", "mongoose", "mongodb", "redis"], message: "a store driver is imported by its adapter in src/store only." }],
};
const driversAndFrameworks = {
  patterns: [
    ...drivers.patterns,
    {
      group: ["express", "@colyseus/*"],
      allowTypeImports: true,
      message: "Express and Colyseus are the edges' and the root's; a lower layer names their types only.",
    },
  ],
};
/**
 * The browser client (web/src) speaks to the server through the API: its types are the generated client types
 * (clients/typescript), and of the server it imports only what the browser runs itself, the rules engine and
 * the canonical JSON a log entry is hashed from.
 */
export const webRules = {
  files: ["web/src/**/*.ts"],
  plugins: { "import-x": importX },
  settings: {
    "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".d.ts", ".js", ".json"] })],
  },
  rules: {
    "import-x/no-restricted-paths": [
      "error",
      {
        zones: [
          {
            target: "./web",
            from: "./src",
            except: ["./engine", "./services/log/canonical.ts"],
            message: "the web client imports the server's engine and canonical JSON only; its API types come from clients/typescript.",
          },
          {
            target: "./web",
            from: "./rooms",
            except: ["./messages.ts", "./game-state.ts", "./tournament-state.ts"],
            message: "the web client imports the rooms' message and state types only.",
          },
        ],
      },
    ],
  },
};

export const frameworkRules = [
  {
    files: ["src/engine/**/*.ts", "src/shared/**/*.ts", "src/services/**/*.ts"],
    ignores: MATCHMAKER_USERS,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", driversAndFrameworks] },
  },
  {
    files: ["rooms/**/*.ts", "src/edges/**/*.ts", "src/cli/**/*.ts", "src/wiring/**/*.ts", "src/*.ts", ...MATCHMAKER_USERS],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", drivers] },
  },
  {
    // The store's own files outside its adapters: the ports, the factory and the scaled-out server's Redis.
    files: ["src/store/*.ts", "src/store/ports/**/*.ts"],
    ignores: ["src/store/scale.ts", "src/store/index.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", driversAndFrameworks] },
  },
];

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "dist/", "public/", "**/*.cjs", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names are deliberately unused (Express error handlers need four parameters).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", destructuredArrayIgnorePattern: "^_" },
      ],
      // A promise nobody awaits loses its rejection; `void` marks the ones left running on purpose.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "smart"],
      // Store adapters and other port implementations are async by contract even when their body is not.
      "@typescript-eslint/require-await": "off",
    },
  },
  // The layers: an import against them, or an import circle, fails lint.
  layerRulesAt(import.meta.dirname),
  ...frameworkRules,
  webRules,
  {
    // Tests and load generators read JSON answers as `any` on purpose: their assertions (or the server under
    // test) are the type checks there.
    files: ["test/**/*.ts", "loadtest/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
