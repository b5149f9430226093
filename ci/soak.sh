#!/usr/bin/env bash
# The long forms of nestwright's robustness tests (`npm run test:soak`; CI runs it nightly):
#   1. APK fuzz, 10,000 seeded mutations: no crash, no hang, no tampered APK accepted;
#   2. the chaos tests, longer: more kills during state writes, more abandoned sessions;
#   3. the example suite under the `hostile` fault profile on 10 seeds, and under `realistic`.
# Every part runs even when an earlier one failed; the exit code says whether all passed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports
status=0
run() {
  local name=$1; shift
  echo "== soak: $name"
  if "$@"; then echo "== soak: $name: ok"; else echo "== soak: $name: FAILED"; status=1; fi
}

run "APK fuzz, 10,000 cases" env NESTWRIGHT_FUZZ_CASES="${NESTWRIGHT_FUZZ_CASES:-10000}" NESTWRIGHT_FUZZ_SEED="${NESTWRIGHT_FUZZ_SEED:-2}" NESTWRIGHT_FUZZ_REPORT=1 \
  npx playwright test --config tests/playwright.config.ts tests/apk/fuzz.test.ts --reporter=list

run "chaos, long forms: 20 kills during state writes, 3,000 abandoned sessions" env NESTWRIGHT_CHAOS_KILLS=20 NESTWRIGHT_ABANDONED_SESSIONS=3000 \
  npx playwright test --config tests/playwright.config.ts tests/chaos --reporter=list

for seed in ${NESTWRIGHT_SOAK_SEEDS:-1 2 3 4 5 6 7 8 9 10}; do
  run "example suite, hostile, seed $seed" env NESTWRIGHT_FAULTS=hostile NESTWRIGHT_SEED="$seed" \
    PLAYWRIGHT_JSON_OUTPUT_FILE="test-reports/soak-hostile-$seed.json" npx playwright test --config playwright.config.ts --reporter=dot,json --retries=0
done
run "example suite, realistic" env NESTWRIGHT_FAULTS=realistic NESTWRIGHT_SEED=1 \
  PLAYWRIGHT_JSON_OUTPUT_FILE=test-reports/soak-realistic.json npx playwright test --config playwright.config.ts --reporter=dot,json --retries=0

exit $status
