#!/usr/bin/env bash
# bench/hub.sh [RUNS [HUBLOAD FLAGS…]] — the hub's figures beside the same upstream called
# directly, in one run (bench/README.md, "## Hub"): tools/call p50/p99 over
# Streamable HTTP and over serve --stdio, calls/s with 16 HTTP sessions and
# the CPU per call of each server process, and the hub's RSS with the
# tokenizer loaded. RUNS rounds of each (default 5); about a minute.
# Everything binds to 127.0.0.1 and HOME is a temp dir; every process
# started is stopped. CHRONICLE=/path/to/chronicle measures that binary
# instead of building this tree's (to compare with an older commit).
set -euo pipefail
runs=${1:-5}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "${CHRONICLE:-}" ]; then
  mkdir -p "$work/bin" && cp "$CHRONICLE" "$work/bin/chronicle"
else
  go build -o "$work/bin/chronicle" "$root/cmd/chronicle"
fi
go build -o "$work/bin/hubload" "$root/bench/hubload"
home="$work/home"
mkdir -p "$home/cfg"
cat >"$home/cfg/chronicle.hcl" <<HCL
service "fast" {
  command = "$work/bin/hubload"
  args    = ["upstream"]
}
hub {
  listen = "127.0.0.1:0"
}
HCL
(cd "$home/cfg" && HOME=$home CHRONICLE_HOME= XDG_CONFIG_HOME= "$work/bin/chronicle" apply --auto-approve >/dev/null)
"$work/bin/hubload" run -chronicle "$work/bin/chronicle" -home "$home" -runs "$runs" "$@" &
pid=$!
wait "$pid"
pid=
