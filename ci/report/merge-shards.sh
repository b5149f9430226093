#!/usr/bin/env bash
# Merge the allure-results of sharded runs into one Allure report.
#
#   ci/report/merge-shards.sh OUTPUT_DIR ARTIFACTS_DIR...
#
# Every directory named allure-results under the given paths (one per shard, as downloaded from
# the shard jobs) is passed to `nestwright report`, which hands them all to `allure generate`.
# Attachment files are content-addressed and result files are uuid-named, so shards never
# clash. If OUTPUT_DIR already holds a report (the previously published one, restored by the CI
# job), its history/ is carried into the new report so Allure's trend graphs and per-test
# history continue. Exit code: that of `nestwright report` (0 generated, 1 failed, 2 usage).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$#" -lt 2 ]; then
  echo "usage: ci/report/merge-shards.sh OUTPUT_DIR ARTIFACTS_DIR..." >&2
  exit 2
fi
out="$1"
shift

args=()
while IFS= read -r -d '' dir; do
  args+=(--results "$dir")
done < <(find "$@" -type d -name allure-results -print0 | sort -z)
if [ "${#args[@]}" -eq 0 ]; then
  echo "merge-shards: no allure-results directory under: $*" >&2
  exit 1
fi

# Allure reads history from any results directory: give it the previous report's.
if [ -d "$out/history" ]; then
  carried="$(mktemp -d)/allure-results"
  mkdir -p "$carried/history"
  cp -R "$out/history/." "$carried/history/"
  args+=(--results "$carried")
fi

echo "merge-shards: $(( ${#args[@]} / 2 )) results director(y/ies) -> $out"
exec node bin/nestwright.js report "${args[@]}" --output "$out"
