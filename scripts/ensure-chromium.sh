#!/usr/bin/env bash
# Browser tests use Debian's chromium; install it when missing (never a downloaded browser).
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Browser tests need chromium at $chromium: run 'sudo apt-get install -y chromium' or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
