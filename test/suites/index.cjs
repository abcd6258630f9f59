/**
 * The three test suites (CONTRIBUTING.md, "Tests"), each a mocha config: the browser flows and the slow tests
 * are listed here once, and the fast suite is every other test file. A slow test file joins `slow` here and
 * nowhere else. package.json's scripts run each suite with its config (`--config test/suites/<suite>.cjs`);
 * test/scripts/suites.test.ts checks that the three together run every test file once.
 */
const { relative } = require("node:path");
const base = require("../../.mocharc.json");
// Mocha's file collector (what `mocha <spec> --ignore <pattern>` runs); not a documented export.
const collect = require("mocha/lib/cli/collect-files.cjs");

/** The browser flows in Chromium: test/web, a hosted bot against a person, the API reference at /docs. */
const browser = ["test/{web/*,bots/hosted-browser,server/docs-reference}.test.ts"];

/**
 * Files that need more than about 20 seconds: strength matches between house levels, benchmark smoke runs,
 * the self-play CLI, the trials that start, kill and restart server processes or run two of them, the load
 * trials whose bounds need thousands of requests or games to mean anything (1,500 long-polls woken by one move,
 * a restart over 2,000 waiting games), and end-to-end runs whose time goes to real processes, whole
 * competitions and real clocks: the production build run as `npm start`, the communities CLI run as a process
 * nine times against a server, leagues and tournaments played out and verified by the CLI, the WebSocket
 * heartbeat's three-second periods (each file's header says why it is here).
 */
const slow = [
  "test/{ai/strength,ai/selfplay-cli,loadtest/*-smoke,cluster/failover,cluster/tournament-failover,cluster/nginx,cluster/webhooks,cluster/registry,cluster/rematch,server/restart,server/waiting-restart,server/writer-thread-kill,server/group-commit-crash,server/wake-many,server/npm-start-signal,events/crash-recovery,log/crash,build/dist,communities/leaderboards,server/heartbeat,server/multi-process,bots/multi-process,leagues/league-e2e,log/tables}.test.ts",
];

/**
 * The fast suite's longest files (npx mocha --parallel with test/support/file-times.ts measures them), which it
 * starts first: mocha --parallel hands files to its workers in the order of its spec, so a long file started
 * last would run on alone after the others are done: the store contracts, the lint over the whole tree, the
 * public log's key and verifier runs, and the server tests that wait out real time or play whole games.
 */
const longest = [
  "test/store/sqlite-file.test.ts",
  "test/store/mongo.test.ts",
  "test/scripts/layers.test.ts",
  "test/store/sqlite.test.ts",
  "test/log/keys.test.ts",
  "test/server/edges.test.ts",
  "test/loadtest/wire-seat.test.ts",
  "test/tournaments/arena-e2e.test.ts",
  "test/log/verify.test.ts",
  "test/bots/clients.test.ts",
];

const files = (spec, ignore) =>
  collect({ spec, ignore, extension: ["ts"], file: [], recursive: true, sort: true }).files.map((f) => relative(process.cwd(), f));
const others = files(["test/**/*.test.ts"], [...browser, ...slow, ...longest]);

const suites = {
  fast: { ...base, spec: [...longest, ...others], ignore: [...browser, ...slow] },
  browser: { ...base, spec: browser },
  slow: { ...base, spec: slow },
};

module.exports = { suites, longest };
