#!/usr/bin/env bash
# capture.sh records the tools/list of the public MCP servers pinned in
# bench/catalogue/servers.json into hub/search/testdata/catalogue/, which the
# search tests and the replay upstream read. It needs the npm registry, so
# `make test` never runs it; run it by hand to add a server or refresh one:
#
#   bench/catalogue/capture.sh                  # every server
#   bench/catalogue/capture.sh github,notion    # some
#
# Servers are installed into a temporary directory (never into tools/npm),
# with install scripts off, and run with a temporary HOME and the dummy
# arguments and environment of the manifest: none has a real credential.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/capture" ./bench/catalogue/capture
mkdir -p "$work/home" hub/search/testdata/catalogue
HOME="$work/home" PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
	"$work/capture" -work "$work/servers" -only "${1:-}"
