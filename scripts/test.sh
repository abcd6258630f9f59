#!/usr/bin/env bash
# Sets up and runs the whole test suite on a fresh machine: the Debian packages some tests need
# (redis-server for the multi-process tests, chromium for the browser tests, nginx for the scale-out front,
# curl for the README's walk-through), the npm packages from the lock file (reused when the lock file and
# Node have not changed since this script last installed them), a type check, the linter, the formatter's check
# (Prettier over the code; prose, markup and data keep their own layout), then the three mocha
# suites: the fast one (`npm test`), the browser flows (`npm run test:browser`) and the slow one
# (`npm run test:slow`). Its last line sums them.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# The web client's browser tests drive Debian's Chromium through playwright-core (no browser download).
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# The scale-out test puts Debian's nginx in front of three processes (the recipe docs/DEPLOY.md gives).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
# The README's curl game is run as written (test/docs/readme-facts.test.ts).
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "missing ${need_apt[*]}: install them (apt-get install ${need_apt[*]}) for the full suite" >&2
  fi
fi

# Exactly the committed lock file. Install scripts run only for the packages package.json's `allowScripts`
# approves (better-sqlite3 and msgpackr-extract build native addons, esbuild checks its binary), and the
# project's own `prepare`, which compiles dist/ and, after `npm ci`, records the lock file and Node it
# installed from (scripts/lock-stamp.ts). A tree `npm ci` installed from the same lock file with the same
# Node, whether this script ran it or the README's run command did, is reused: only dist/ is rebuilt.
stamp="node_modules/.lock-hash"
want="$( (cat package-lock.json; node -v) | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "node_modules was installed from this package-lock.json on Node $(node -v): reusing it"
  npm run build
else
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
fi
# CongoDB, the MongoDB-wire-compatible server the MongoDB store's tests run against (.ci/congodb/package.json),
# installed from its own lock file (its postinstall applies .ci/congodb/patches/), and reused likewise while
# neither the lock file nor a patch has changed.
congo_stamp=".ci/congodb/node_modules/.lock-hash"
congo_want="$( (cat .ci/congodb/package-lock.json .ci/congodb/patches/*; node -v) | sha256sum | cut -d' ' -f1)"
if [ ! -f "$congo_stamp" ] || [ "$(cat "$congo_stamp")" != "$congo_want" ]; then
  (cd .ci/congodb && npm ci --no-audit --no-fund)
  echo "$congo_want" > "$congo_stamp"
fi
npx tsc --noEmit -p .
npm run lint
npm run format:check
# Runs one mocha suite, printing its output and its duration; adds its counts to the totals.
passed=0 failed=0 skipped=0 status=0
plain() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }
count() { plain "$1" | grep -Eo "^ +[0-9]+ $2" | tail -1 | grep -Eo '[0-9]+' || echo 0; }
suite() {
  local name="$1" log started code
  shift
  log="$(mktemp)"
  started=$SECONDS
  set +e
  "$@" 2>&1 | tee "$log"
  code=${PIPESTATUS[0]}
  set -e
  echo "$name suite: $((SECONDS - started)) s, exit code $code"
  passed=$((passed + $(count "$log" passing)))
  failed=$((failed + $(count "$log" failing)))
  skipped=$((skipped + $(count "$log" pending)))
  [ "$code" = 0 ] || status=$code
  rm -f "$log"
}
suite fast npm test
suite browser npm run test:browser
suite slow npm run test:slow
# One plain summary line for tools that read it: "N passed, N failed, N skipped", over the three suites.
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
