#!/usr/bin/env bash
# bench/hub.sh [RUNS [HUBLOAD FLAGS…]] — the hub beside the practical limit,
# in one run (bench/README.md, "## Hub"): the same upstream called
# directly, bench/forwarder (a bare net/http forwarder of it, and over
# stdio a bare relay of its pipes), the hub of
# the baseline commit and this tree's hub, rounds interleaved:
# tools/call p50/p99 over Streamable HTTP and over serve --stdio, calls/s
# with 16 HTTP sessions and the CPU per call of each server process, and
# each server's RSS with the hubs' tokenizer loaded. RUNS rounds of each
# (default 5); a few minutes. Everything binds to 127.0.0.1 and HOME is a
# temp dir; every process started is stopped. The flag -floor adds
# bench/forwarder -floor, the forwarder doing a hub's duties on each call
# (decision 0247).
#   CHRONICLE=/path/to/chronicle  measure that binary instead of this tree's
#   BENCH_BASELINE=COMMIT         the baseline (default e8ce922, where issue 29's
#                                 performance work started); "none" leaves it out
#   BENCH_BASELINE_BIN=PATH       a chronicle binary (or a script that execs one) as
#                                 the baseline instead of building a commit
#   BENCH_PROFILE_DIR=DIR         CPU profiles of every server run into DIR: the hubs'
#                                 (chronicle.PID.prof, baseline.PID.prof, through
#                                 CHRONICLE_CPUPROFILE) and the forwarder's
#                                 (forwarder.PID.prof); decision 0245 reads them
set -euo pipefail
runs=${1:-5}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
baseline=${BENCH_BASELINE:-e8ce922}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  git -C "$root" worktree remove --force "$work/baseline-src" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/bin"
if [ -n "${CHRONICLE:-}" ]; then
  cp "$CHRONICLE" "$work/bin/chronicle"
else
  go build -o "$work/bin/chronicle" "$root/cmd/chronicle"
fi
go build -o "$work/bin/hubload" "$root/bench/hubload"
go build -o "$work/bin/forwarder" "$root/bench/forwarder"
base=()
if [ -n "${BENCH_BASELINE_BIN:-}" ]; then
  cp "$BENCH_BASELINE_BIN" "$work/bin/baseline"
  base=(-base "$work/bin/baseline" -base-home "$work/baseline-home")
elif [ "$baseline" != none ]; then
  echo "building the baseline hub ($baseline)..." >&2
  git -C "$root" worktree add --detach --force "$work/baseline-src" "$baseline" >/dev/null 2>&1
  (cd "$work/baseline-src" && go build -o "$work/bin/baseline" ./cmd/chronicle)
  base=(-base "$work/bin/baseline" -base-home "$work/baseline-home")
fi
# home DIR BIN: a HOME with the one stdio service, applied by BIN.
home() {
  mkdir -p "$1/cfg"
  cat >"$1/cfg/chronicle.hcl" <<HCL
service "fast" {
  command = "$work/bin/hubload"
  args    = ["upstream"]
}
hub {
  listen = "127.0.0.1:0"
}
HCL
  (cd "$1/cfg" && HOME=$1 CHRONICLE_HOME= XDG_CONFIG_HOME= "$2" apply --auto-approve >/dev/null)
}
home "$work/home" "$work/bin/chronicle"
[ ${#base[@]} = 0 ] || home "$work/baseline-home" "$work/bin/baseline"
hub=$work/bin/chronicle
if [ -n "${BENCH_PROFILE_DIR:-}" ]; then
  mkdir -p "$BENCH_PROFILE_DIR"
  dir=$(cd "$BENCH_PROFILE_DIR" && pwd)
  export FORWARDER_CPUPROFILE=$dir
  for b in chronicle baseline; do
    printf '#!/bin/sh\nCHRONICLE_CPUPROFILE=%s/%s.$$.prof exec %s "$@"\n' "$dir" "$b" "$work/bin/$b" >"$work/bin/$b-profiled"
    chmod +x "$work/bin/$b-profiled"
  done
  hub=$work/bin/chronicle-profiled
  [ ${#base[@]} = 0 ] || base[1]=$work/bin/baseline-profiled
fi
"$work/bin/hubload" run -chronicle "$hub" -home "$work/home" "${base[@]}" \
  -forwarder "$work/bin/forwarder" -runs "$runs" "$@" &
pid=$!
wait "$pid"
pid=
