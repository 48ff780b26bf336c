#!/usr/bin/env bash
# Start the production build for the browser tests on a throw-away database
# holding the demo project and accounts.
set -euo pipefail
cd "$(dirname "$0")/.."
port="$1"
dir="$(mktemp -d "${TMPDIR:-/tmp}/lexgold-e2e-XXXXXX")"
export NEXT_TELEMETRY_DISABLED=1
export NEXT_DIST_DIR="${NEXT_DIST_DIR:-.next-e2e}"
export LEXGOLD_DB="$dir/e2e.db"
export LEXGOLD_SECRET_FILE="$dir/secret"
export LEXGOLD_BCRYPT_COST=4
# A model server the specs start on loopback (e2e/models.spec.ts) may be registered on the Models tab.
export LEXGOLD_MODEL_PRIVATE_HOSTS=127.0.0.1
export NEXTAUTH_URL="http://127.0.0.1:$port"
echo "$dir" > "${E2E_STATE_FILE:-/dev/null}"
bin/lexgold demo >/dev/null
# A second project with its own coordinator and annotator: "another project" for e2e/security.spec.ts.
bin/lexgold project create sealed >/dev/null
for who in sealed-coord:coordinator sealed-ann:annotator; do
  # Not the demo password: lexgold gives that to the demo's own accounts only (e2e/helpers.ts: SEALED_PASSWORD).
  echo sealed-otter-lantern | bin/lexgold user add "${who%%:*}" --role "${who##*:}" --project sealed >/dev/null
done
exec node scripts/serve.mjs -p "$port" -H 127.0.0.1
