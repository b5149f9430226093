#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# devDependencies) against `nestwright sim`, and fail on any unexpected failure or unexpected
# pass (a stale entry in expected-failures.json). The suite connects without a bearer token, so
# the simulator runs with --no-auth here — the only place that flag is meant for (it is refused
# together with --lan). DNS-rebinding protection is checked by the suite and must pass.
#
# `--target agent` runs it against `nestwright mcp --http` (the test-level server for coding
# agents) instead, with its own list of expected failures.
#
# usage: ci/mcp-conformance/run.sh [--target sim|agent] [--suite all|active]   (defaults: sim, all)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
suite="all"
target="sim"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) suite="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    *) echo "usage: $0 [--target sim|agent] [--suite all|active]" >&2; exit 2 ;;
  esac
done
port="${CONFORMANCE_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
work="$(mktemp -d)"
log="$work/sim.log"

cd "$root"
# setsid: the simulator (npx → tsx → node) gets its own process group, so cleanup stops all of it.
case "$target" in
  sim) setsid npx tsx device-runtime/sim/cli-main.ts --port "$port" --ephemeral --no-auth >"$log" 2>&1 & expected="$here/expected-failures.json" ;;
  agent) setsid node bin/nestwright.js mcp --http --port "$port" --no-auth --root "$work" >"$log" 2>&1 & expected="$here/expected-failures-agent.json" ;;
  *) echo "unknown --target $target (sim or agent)" >&2; exit 2 ;;
esac
sim=$!
cleanup() { kill -INT -- "-$sim" 2>/dev/null || true; wait "$sim" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

for _ in $(seq 1 120); do
  grep -q 'listening on' "$log" && break
  kill -0 "$sim" 2>/dev/null || { echo "server exited:"; cat "$log"; exit 1; }
  sleep 0.5
done
grep -q 'listening on' "$log" || { echo "server did not start in 60 s:"; cat "$log"; exit 1; }

# The suite writes results/ into its working directory; keep that out of the repo.
cd "$work"
npx --prefix "$root" conformance server \
  --url "http://localhost:$port/mcp" \
  --suite "$suite" \
  --expected-failures "$expected"
