#!/usr/bin/env bash
# What `npm test` runs before jest: the type check, the linter and the formatter's check, side by
# side (they are independent and the machine has cores to spare before jest starts). Each prints
# its own findings; the script fails if any of them does, naming which.
set -uo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
npx tsc -p tsconfig.json --noEmit >"$dir/typecheck" 2>&1 & tsc=$!
npx eslint --max-warnings 0 src test bench >"$dir/lint" 2>&1 & lint=$!
npx prettier --check --log-level warn src test bench >"$dir/format" 2>&1 & fmt=$!
failed=()
wait $tsc || failed+=("typecheck (npm run typecheck)")
wait $lint || failed+=("lint (npm run lint)")
wait $fmt || failed+=("format (npm run format, then commit)")
for f in typecheck lint format; do [ -s "$dir/$f" ] && { echo "── $f"; cat "$dir/$f"; }; done
if [ ${#failed[@]} -gt 0 ]; then
  printf 'static checks failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "static checks passed: typecheck, lint, format"
