#!/usr/bin/env bash
# Quick start: install, build, migrate, load the demo project and accounts, serve.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
port="${PORT:-3000}"
bash scripts/ensure-deps.sh
echo "Building…"
npx next build >/dev/null
node scripts/build-cli.mjs --quiet
bin/lexgold demo
export NEXTAUTH_URL="${NEXTAUTH_URL:-http://localhost:$port}"
echo
echo "lexgold is starting at $NEXTAUTH_URL"
echo "  coordinator:  coordinator / lexgold-demo"
echo "  annotators:   annotator1 … annotator5 / lexgold-demo (annotator1 has answered nothing yet)"
echo "(Ctrl-C to stop; the database is data/lexgold.db)"
exec node scripts/serve.mjs -p "$port" -H "${LEXGOLD_HOST:-127.0.0.1}"
