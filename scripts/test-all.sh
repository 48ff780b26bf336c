#!/usr/bin/env bash
# Every test: typecheck, boundaries and unused code (dependency-cruiser, knip), the production
# build, unit (vitest), then e2e (Playwright in Debian's chromium against the production build on a spare port with a
# throw-away database).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
echo "== typecheck"
npx tsc --noEmit
echo "== boundaries (dependency-cruiser)"
npm run -s check:bounds
echo "== unused code (knip)"
npm run -s check:unused
# The production build first: the unit tests serve it too (test/server/native-forms/native-forms.test.ts).
echo "== production build"
export NEXT_DIST_DIR=.next-e2e
npx next build
node scripts/build-cli.mjs
echo "== unit tests"
npx vitest run
echo "== e2e tests"
npx playwright test
