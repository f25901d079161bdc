#!/usr/bin/env bash
# o200k-reference.sh refreshes hub/tokens/testdata/o200k-reference.json (see
# o200k-reference.mjs) after the catalogue changes. It needs the npm
# registry, so `make test` never runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
HOME="$work" npm install --prefix "$work" --no-audit --no-fund --loglevel=error tiktoken@1.0.22
mkdir -p "$root/hub/tokens/testdata"
node "$root/bench/catalogue/o200k-reference.mjs" "$work/node_modules" "$root"
