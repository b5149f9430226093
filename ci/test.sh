#!/usr/bin/env bash
# `npm test`: every check and every tier of nestwright's own tests (tests/tiers.ts), no check
# dropped. What mostly waits runs beside what uses the CPU, on a 2-core machine:
#   1. the static checks (tsc, typed ESLint, Prettier, dependency-cruiser)  ‖  the example suite
#      under `hostile` faults (it waits on injected delays: ~20 s of CPU in ~2 min), 3 workers (the
#      simulator has 4 process slots, and the chat spec holds two instances at once)
#   2. the fast tier
#   3. the integration tier (child runs), then the example suite on `instant`, with and without
#      the device-side actions
#   4. the end-to-end tier (Chromium, Java, Appium, adb, npm pack, the docs builds)
# Every stage runs even when an earlier one failed, so one run shows every failure; the script
# fails when any did. Each stage's wall time is printed at the end (test-reports/stages.txt).
# NESTWRIGHT_TEST_STAGES=static,fast,… runs only the named stages.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports
: >test-reports/stages.txt
[[ -n "${NESTWRIGHT_TEST_STAGES:-}" ]] || rm -f test-reports/*.json # a whole run: no report of an earlier one is counted
only="${NESTWRIGHT_TEST_STAGES:-}"

wanted() { [[ -z "$only" || ",$only," == *",$1,"* ]]; }

# The CPU seconds (user + system) used so far by this shell's finished children, into $cpu_now.
# (`times` in a command substitution would count the subshell's children, not this shell's.)
children_cpu() {
  times >test-reports/.times
  cpu_now=$(tail -1 test-reports/.times | tr -d s | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }')
}

# stage NAME COMMAND...: run it, record its wall time, its CPU time and status.
stage() {
  local name="$1"
  shift
  wanted "$name" || return 0
  local start=$SECONDS cpu_now cpu0
  children_cpu
  cpu0=$cpu_now
  echo "== $name: $*"
  local status=ok
  "$@" || status=FAILED
  children_cpu
  local wall=$((SECONDS - start)) cpu=$((cpu_now - cpu0))
  echo "$name $status ${wall}s cpu ${cpu}s" >>test-reports/stages.txt
}

static() {
  local rc=0
  npm run --silent typecheck || rc=1
  npm run --silent lint || rc=1
  npm run --silent format:check || rc=1
  npm run --silent lint:deps || rc=1
  return $rc
}

example() {
  local report="$1"
  shift
  PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/$report.json" npx playwright test --config playwright.config.ts --reporter=list,json "$@"
}

tier() {
  PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/$1.json" npx playwright test --config tests/playwright.config.ts --project="$1" --reporter=list,json
}

hostile() { NESTWRIGHT_FAULTS=hostile NESTWRIGHT_SEED=7 example example-hostile --workers=3; }
client_side() { NESTWRIGHT_DEVICE_ACTIONS=off example example-client-side; }

# 1. static checks beside the hostile example (its output goes to a log, printed after).
if wanted hostile; then
  stage hostile hostile >test-reports/hostile.log 2>&1 &
  hostile_pid=$!
fi
stage static static
if [[ -n "${hostile_pid:-}" ]]; then
  wait "$hostile_pid"
  cat test-reports/hostile.log
  # the background stage's record: a failure there shows in stages.txt, counted below
fi
stage fast tier fast
stage integration tier integration
stage example example example
stage client-side client_side
stage e2e tier e2e

echo
echo "== stages (wall time)"
cat test-reports/stages.txt
if grep -q FAILED test-reports/stages.txt; then
  echo "failed: $(grep FAILED test-reports/stages.txt | cut -d' ' -f1 | tr '\n' ' ')"
  exit 1
fi
