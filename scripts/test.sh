#!/usr/bin/env bash
# Sets up and runs the whole test suite on a fresh machine: the Debian packages some tests need
# (redis-server for the multi-process tests, chromium for the browser tests, nginx for the scale-out front), the npm packages from the lock file,
# a type check, the linter, then mocha.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# The web client's browser tests drive Debian's Chromium through playwright-core (no browser download).
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# The scale-out test puts Debian's nginx in front of three processes (the recipe docs/DEPLOY.md gives).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
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
# approves (better-sqlite3 and msgpackr-extract build native addons, esbuild checks its binary).
npm ci --no-audit --no-fund
# CongoDB, the MongoDB-wire-compatible server the MongoDB store's tests run against (.ci/congodb/package.json).
(cd .ci/congodb && npm ci --no-audit --no-fund)
npx tsc --noEmit -p .
npm run lint
log="$(mktemp)"
set +e
npm test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One plain summary line for tools that read it: "N passed, N failed, N skipped".
plain() { sed 's/\x1b\[[0-9;]*m//g' "$log"; }
passed=$(plain | grep -Eo '^ +[0-9]+ passing' | tail -1 | grep -Eo '[0-9]+' || echo 0)
failed=$(plain | grep -Eo '^ +[0-9]+ failing' | tail -1 | grep -Eo '[0-9]+' || echo 0)
skipped=$(plain | grep -Eo '^ +[0-9]+ pending' | tail -1 | grep -Eo '[0-9]+' || echo 0)
rm -f "$log"
echo "${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped"
exit "$status"
