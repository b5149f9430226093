#!/usr/bin/env bash
# `npm test`: every check and every tier of nestwright's own tests (tests/tiers.ts), no check
# dropped, on a 2-core machine. The integration and end-to-end tiers, in one Playwright run, are
# the critical path: most of the suite's CPU, and a third of their time one worker waits (on a
# JVM, npm, Chromium, a child run's device) while the other computes. Everything else runs
# beside that run, one stage after another, at a lower priority (nice 5), so it takes the cores
# the run leaves idle rather than the run's own:
#   tiers:  the integration and e2e tiers (child runs; Chromium, Java, Appium, adb, npm pack,
#           the docs builds), so neither waits for the other's last file
#   beside: the static checks (tsc, typed ESLint, Prettier, dependency-cruiser), the fast tier,
#           the example suite under `hostile` faults (it waits on injected delays: ~30 s of CPU
#           in ~2 min; 3 workers: the simulator has 4 process slots, and the chat spec holds
#           two instances at once), then on `instant` with and without the device-side actions
# Every stage runs even when an earlier one failed, so one run shows every failure; the script
# fails when any did. Each stage's wall and CPU time is printed at the end
# (test-reports/stages.txt), and the CPU of each test file of the Playwright runs of tests/
# (test-reports/cpu/). NESTWRIGHT_TEST_STAGES=static,fast,… runs only the named stages.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports
: >test-reports/stages.txt
[[ -n "${NESTWRIGHT_TEST_STAGES:-}" ]] || rm -f test-reports/*.json # a whole run: no report of an earlier one is counted
only="${NESTWRIGHT_TEST_STAGES:-}"

wanted() {
  [[ -z "$only" || ",$only," == *",$1,"* ]] && return 0
  # The runs that hold several stages: wanted when one of theirs is.
  case "$1" in
    tiers) wanted integration || wanted e2e ;;
    examples) wanted example || wanted client-side ;;
    *) return 1 ;;
  esac
}

# The CPU seconds (user + system) used so far by this shell's finished children, into $cpu_now.
# (`times` in a command substitution would count the subshell's children, not this shell's.)
children_cpu() {
  local file="test-reports/.times.$BASHPID" # one per shell: stages in the background read theirs at once
  times >"$file"
  cpu_now=$(tail -1 "$file" | tr -d s | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }')
  rm -f "$file"
}

# stage NAME COMMAND...: run it, record its wall time, its CPU time and status. The command runs in
# a subshell that reads its own children's CPU: a background stage that ends meanwhile is reaped
# by this shell, and would count in the stage that was running here.
stage() {
  local name="$1"
  shift
  wanted "$name" || return 0
  local start=$SECONDS cpu_file="test-reports/.cpu.$name"
  echo "== $name: $*"
  local status=ok
  (
    rc=0
    "$@" || rc=$?
    children_cpu
    echo "$cpu_now" >"$cpu_file"
    exit $rc
  ) || status=FAILED
  local wall=$((SECONDS - start)) cpu
  cpu=$(cat "$cpu_file" 2>/dev/null || echo '?')
  rm -f "$cpu_file"
  echo "$name $status ${wall}s cpu ${cpu}s" >>test-reports/stages.txt
}

static() {
  local rc=0
  # `npm run typecheck` and `npm run lint` over one TypeScript program (ci/typecheck-lint.mjs)
  node ci/typecheck-lint.mjs || rc=1
  npm run --silent format:check || rc=1
  npm run --silent lint:deps || rc=1
  return $rc
}

example() {
  local report="$1"
  shift
  # Its own output folder: the three example runs may run at once.
  PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/$report.json" npx playwright test --config playwright.config.ts --output="test-results/$report" --reporter=list,json "$@"
}

tier() {
  PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/$1.json" NESTWRIGHT_CPU_REPORT="test-reports/cpu/$1.json" \
    npx playwright test --config tests/playwright.config.ts --project="$1" --output="test-results/$1" \
    --reporter=list,json,./tests/cpu-reporter.ts
}

hostile() { NESTWRIGHT_FAULTS=hostile NESTWRIGHT_SEED=7 example example-hostile --workers=3; }
client_side() { NESTWRIGHT_DEVICE_ACTIONS=off example example-client-side; }

# The tiers' run: its workers take the next test of either tier, so the long serial files of
# one (npm pack, Appium's packaged driver) overlap the other's tests. NESTWRIGHT_SLOW_WORKERS sets
# its workers (default 2: on 2 cores the CPU is the limit; see CONTRIBUTING.md). Each of the two
# test runs that run at once has its own output folder (a run empties its own at its start).
tiers() {
  local projects=()
  wanted e2e && projects+=(--project=e2e)
  wanted integration && projects+=(--project=integration)
  PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/tiers.json" NESTWRIGHT_CPU_REPORT="test-reports/cpu/tiers.json" \
    npx playwright test --config tests/playwright.config.ts --output=test-results/tiers \
    "${projects[@]}" --workers="${NESTWRIGHT_SLOW_WORKERS:-2}" --reporter=list,json,./tests/cpu-reporter.ts
}

# What runs beside the tiers' run, one stage after another, at nice 5: when both compete, the
# tiers' run gets three times the CPU; when it waits, these take the idle core.
beside() {
  renice -n 5 -p "$BASHPID" >/dev/null
  stage static static
  stage fast tier fast
  stage hostile hostile
  stage example example example
  stage client-side client_side
}
if wanted static || wanted fast || wanted hostile || wanted examples; then
  beside >test-reports/beside.log 2>&1 &
  beside_pid=$!
fi
stage tiers tiers
if [[ -n "${beside_pid:-}" ]]; then
  wait "$beside_pid"
  echo "== static checks, fast tier, examples (ran beside the tiers' run)"
  cat test-reports/beside.log
fi

echo
echo "== stages (wall time)"
cat test-reports/stages.txt
if grep -q FAILED test-reports/stages.txt; then
  echo "failed: $(grep FAILED test-reports/stages.txt | cut -d' ' -f1 | tr '\n' ' ')"
  exit 1
fi
