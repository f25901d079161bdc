#!/usr/bin/env bash
# bench/plan-apply.sh [RUNS] — whole-process timings on the fixture home:
# a first `chronicle apply` (fresh home each run) and a no-op `chronicle plan`
# (after that apply). Prints the median and the range of RUNS runs (default 9).
# Never touches the real home: every run gets a fresh HOME under a temp dir.
set -euo pipefail
runs=${1:-9}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bin/chronicle" "$root/cmd/chronicle"
export PATH="$work/bin:$PATH" XDG_CONFIG_HOME= CODEX_HOME= CHRONICLE_HOME= CLAUDE_CONFIG_DIR=

links='
link "skills" {
  tools  = ["cursor", "gemini", "opencode"]
  skills = ["*"]
}
link "direct" {
  tools    = ["cursor"]
  services = ["memory"]
}
link "hub" {
  tools = ["gemini", "codex", "claude", "zed", "opencode", "windsurf"]
  hub   = true
}'

setup() { # $1: home
  bash "$root/testdata/fixtures/make-home.sh" "$1" >/dev/null
  mkdir -p "$1/dots"
  (cd "$1/dots" && HOME=$1 chronicle adopt >/dev/null && printf '%s\n' "$links" >links.hcl)
}

ms() { date +%s%N; }
apply_times=() plan_times=()
for i in $(seq "$runs"); do
  home="$work/home$i"
  setup "$home"
  cd "$home/dots"
  t0=$(ms); HOME=$home chronicle apply --auto-approve >/dev/null; t1=$(ms)
  HOME=$home chronicle plan --detailed-exitcode >/dev/null
  t2=$(ms); HOME=$home chronicle plan --detailed-exitcode >/dev/null; t3=$(ms)
  apply_times+=($(( (t1 - t0) / 1000000 )))
  plan_times+=($(( (t3 - t2) / 1000000 )))
done

report() { # name values...
  local name=$1; shift
  sorted=($(printf '%s\n' "$@" | sort -n))
  n=${#sorted[@]}
  echo "$name: median ${sorted[$((n / 2))]} ms (min ${sorted[0]}, max ${sorted[$((n - 1))]}, $n runs)"
}
report "first apply (fixture home)" "${apply_times[@]}"
report "no-op plan  (fixture home)" "${plan_times[@]}"
