#!/usr/bin/env bash
# Runs every check on a fresh Debian machine: installs the system packages the tests need, the npm
# packages, then typecheck, lint, every Vitest suite and the Playwright end-to-end suite in Debian's
# Chromium. This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

# python3: script.py tools; libsecret-1-dev + pkg-config: keytar builds from source; gnome-keyring,
# dbus-x11, libsecret-tools: a real Secret Service for the keychain tests; chromium: e2e and render;
# bubblewrap, socat: the OS sandbox of commands and script tools; git and curl: what sandboxed commands run.
apt_packages=(python3 pkg-config libsecret-1-dev gnome-keyring dbus-x11 libsecret-tools chromium bubblewrap socat git curl)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing system packages: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# No Electron binary can be fetched here: install its types and API surface only.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund

echo "== typecheck" && npm run -s typecheck
echo "== lint" && npm run -s lint
mkdir -p .tmp
echo "== unit and integration tests" && npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
echo "== end-to-end (browser mode in Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/e2e.json npx playwright test --reporter=list,json

# One closing line over both runners.
node -e '
const fs = require("fs");
const v = JSON.parse(fs.readFileSync(".tmp/vitest.json", "utf8"));
const e = JSON.parse(fs.readFileSync(".tmp/e2e.json", "utf8")).stats;
const passed = v.numPassedTests + e.expected;
const failed = v.numFailedTests + e.unexpected + (e.flaky || 0);
const skipped = v.numPendingTests + v.numTodoTests + e.skipped;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
'
