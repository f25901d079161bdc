#!/usr/bin/env bash
# bench/plan-apply.sh [SIZES] [RUNS] — whole-process timings of chronicle
# against the commit the performance work started from (the baseline),
# side by side, on generated homes: the fixture home ("realistic"), and
# homes of N services written into one tool's file plus N skills linked
# into two tools, and "Nu": the home of N with, besides, N entries and N
# skills of the user's own that chronicle does not manage (default sizes:
# realistic,200,2000,2000u), and claude38mb, a 38 MB ~/.claude.json of
# 3,000 projects' history (not by default: the baseline's plan of it takes
# tens of seconds). For each: the median wall time and peak RSS of a first
# apply (a fresh home each run) and of a no-op plan after it (and the lines
# the plan printed), the start-up floor (chronicle version), and the growth
# from the smallest to the largest numbered size.
#
# Never touches the real home: every run gets a fresh HOME under a temp
# dir (on the disk that holds it — /tmp here, not a tmpfs, when TMPDIR is
# unset). The baseline's apply of 2,000 services takes minutes: it is
# stopped after BENCH_APPLY_CAP (default 60s) and reported as over it, and
# its no-op plan then has no applied home to run on; BENCH_APPLY_CAP=30m
# waits it out.
set -euo pipefail
sizes=${1:-realistic,200,2000,2000u}
runs=${2:-5}
baseline=${BENCH_BASELINE:-f0ef7a0}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"; git -C "$root" worktree remove --force "$work/baseline-src" 2>/dev/null || true' EXIT

echo "building chronicle at HEAD ($(git -C "$root" rev-parse --short HEAD)) and at the baseline ($baseline)..."
(cd "$root" && go build -o "$work/bin/new" ./cmd/chronicle)
git -C "$root" worktree add --detach --force "$work/baseline-src" "$baseline" >/dev/null 2>&1
(cd "$work/baseline-src" && go build -o "$work/bin/baseline" ./cmd/chronicle)

cd "$root"
go run ./bench/planapply -bins "baseline=$work/bin/baseline,new=$work/bin/new" \
  -work "$work/homes" -sizes "$sizes" -runs "$runs" -apply-cap "${BENCH_APPLY_CAP:-60s}" \
  -fixtures "$root/testdata/fixtures"
