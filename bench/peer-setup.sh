#!/usr/bin/env bash
# Install the peer of the framework bench — Appium 3 + @appium/fake-driver + WebdriverIO — into
# .nestwright/appium-home (its APPIUM_HOME), outside the project's dependencies. Idempotent.
set -euo pipefail
home="${NESTWRIGHT_APPIUM_HOME:-$(cd "$(dirname "$0")/.." && pwd)/.nestwright/appium-home}"
if [[ -f "$home/node_modules/appium/index.js" && -f "$home/node_modules/webdriverio/build/index.js" ]]; then
  exit 0
fi
mkdir -p "$home"
cd "$home"
[[ -f package.json ]] || echo '{ "private": true, "type": "module" }' > package.json
echo "bench: installing the Appium peer into $home" >&2
npm install --no-audit --no-fund --silent appium@3 @appium/fake-driver@6 webdriverio@9 >&2
