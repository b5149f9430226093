#!/usr/bin/env bash
# The example suite N times under the hostile fault profile, seeds 1..N (one worker per run, a
# retry per test, PARALLEL runs at a time: hostile runs mostly wait), a Playwright JSON report
# per run, then `nestwright flaky` over them: which tests are flaky or broken, whose their
# failures are, which step fails. docs/errors.md#nestwright-flaky-trends-over-runs.
#
#   ci/flaky-runs.sh                 # 20 runs, 2 at a time, into test-reports/flaky-runs/
#   RUNS=5 PARALLEL=1 ci/flaky-runs.sh
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-20}"
PARALLEL="${PARALLEL:-2}"
OUT="${OUT:-test-reports/flaky-runs}"
mkdir -p "$OUT"

one() {
  local seed="$1" start=$SECONDS
  NESTWRIGHT_FAULTS=hostile NESTWRIGHT_SEED="$seed" PLAYWRIGHT_JSON_OUTPUT_FILE="$OUT/seed-$seed.json" \
    npx playwright test --config playwright.config.ts --output="test-results/flaky-runs/seed-$seed" \
    --reporter=json --workers=1 --retries=1 >"$OUT/seed-$seed.log" 2>&1
  echo "seed $seed: exit $? in $((SECONDS - start)) s"
}
export -f one
export OUT

start=$SECONDS
seq 1 "$RUNS" | xargs -P "$PARALLEL" -I{} bash -c 'one {}'
echo "$RUNS runs in $((SECONDS - start)) s"
node bin/nestwright.js flaky "$OUT" --last "$RUNS" --suggest-quarantine --out "$OUT/quarantine.proposed.json"
