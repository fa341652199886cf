#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of `reckon report` on the
# bundled example: renders the report, then photographs it in headless
# Chromium (Debian: apt-get install chromium). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run -q -- report notebooks/eagle-fast-verify.md --out "$out/site"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$out/profile" --window-size=1000,3400 \
  --screenshot="$PWD/docs/report.png" "file://$out/site/eagle-fast-verify.html" 2>/dev/null
echo "wrote docs/report.png"
