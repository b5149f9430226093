#!/usr/bin/env bash
# `npm run test:fast`, the inner loop: the fast tier of tests/tiers.ts on every core and, beside it
# at nice 10, the checks of what changed (incremental tsc, then ESLint and Prettier with their
# caches). The fast tier leaves about a quarter of the cores idle (its tests wait on their
# in-process devices and servers as much as they compute): the checks take that time instead of
# holding the tests up for 15–40 s. Their output is printed after the tests'; the script fails
# when the tests or a check did. Arguments go to Playwright: `npm run test:fast -- tests/apk`.
set -uo pipefail
cd "$(dirname "$0")/.."

checks_log="$(mktemp)"
(
  renice -n 10 -p "$BASHPID" >/dev/null
  rc=0
  npm run --silent typecheck:incremental || rc=1
  npm run --silent lint:changed || rc=1
  exit $rc
) >"$checks_log" 2>&1 &
checks_pid=$!

tests_rc=0
npx playwright test --config tests/playwright.config.ts --project=fast --workers=100% "$@" || tests_rc=$?

checks_rc=0
wait "$checks_pid" || checks_rc=$?
if [[ $checks_rc -ne 0 || -s "$checks_log" ]]; then
  echo
  echo "== type check, lint and format of changed files (ran beside the tests)"
  cat "$checks_log"
fi
rm -f "$checks_log"
if [[ $checks_rc -ne 0 ]]; then
  echo "test:fast: the type check, lint or format check failed (above)" >&2
  exit 1
fi
exit $tests_rc
