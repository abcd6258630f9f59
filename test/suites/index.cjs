/**
 * The three test suites (CONTRIBUTING.md, "Tests"), each a mocha config: the browser flows and the slow tests
 * are listed here once, and the fast suite is every other test file. A slow test file joins `slow` here and
 * nowhere else. package.json's scripts run each suite with its config (`--config test/suites/<suite>.cjs`);
 * test/scripts/suites.test.ts checks that the three together run every test file once.
 */
const base = require("../../.mocharc.json");

/** The browser flows in Chromium: test/web, a hosted bot against a person, the API reference at /docs. */
const browser = ["test/{web/*,bots/hosted-browser,server/docs-reference}.test.ts"];

/**
 * Files that need more than about 20 seconds: strength matches between house levels, benchmark smoke runs,
 * the self-play CLI, the trials that start, kill and restart server processes, and the load trials whose bounds
 * need thousands of requests or games to mean anything (1,500 long-polls woken by one move, a restart over
 * 2,000 waiting games).
 */
const slow = [
  "test/{ai/strength,ai/selfplay-cli,loadtest/*-smoke,cluster/failover,cluster/tournament-failover,cluster/nginx,cluster/webhooks,cluster/registry,cluster/rematch,server/restart,server/waiting-restart,server/writer-thread-kill,server/wake-many,server/npm-start-signal,events/crash-recovery,log/crash}.test.ts",
];

const suites = {
  fast: { ...base, spec: ["test/**/*.test.ts"], ignore: [...browser, ...slow] },
  browser: { ...base, spec: browser },
  slow: { ...base, spec: slow },
};

module.exports = { suites };
