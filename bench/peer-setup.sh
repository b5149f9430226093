#!/usr/bin/env bash
# Install the Appium drivers the benches use — the NestSpace driver (built to JavaScript first,
# through its `npm pack`, when its sources changed) and @appium/fake-driver, both from their local
# folders (`appium driver install --source=local`), with Appium 3 and WebdriverIO from the
# project's devDependencies — into .nestwright/appium-home (APPIUM_HOME). Idempotent; nothing is
# downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsx -e "import('./tests/appium/appium-server.ts').then((m) => m.ensureDrivers())"
