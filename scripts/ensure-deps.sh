#!/usr/bin/env bash
# Install the project's npm dependencies when they are missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.lexgold-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "Installing dependencies (npm ci)…"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi
