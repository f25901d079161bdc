#!/usr/bin/env bash
# bench/serve-start.sh [RUNS] — whole-process time from starting `chronicle serve`
# to a 200 on /health, median of RUNS (default 9). HOME is a temp dir.
set -euo pipefail
runs=${1:-9}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/chronicle" "$root/cmd/chronicle"
export HOME="$work/home" CHRONICLE_HOME=
mkdir -p "$HOME/cfg"
printf 'service "x" {\n  command = "true"\n}\n' >"$HOME/cfg/chronicle.hcl"
(cd "$HOME/cfg" && "$work/chronicle" apply --auto-approve >/dev/null)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
times=()
for i in $(seq "$runs"); do
  t0=$(date +%s%N)
  "$work/chronicle" serve --listen "127.0.0.1:$port" 2>/dev/null &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; do sleep 0.002; done
  t1=$(date +%s%N)
  kill -INT "$pid"; wait "$pid" || true
  times+=($(( (t1 - t0) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
echo "serve start to healthy /health: median ${sorted[$((n / 2))]} ms (min ${sorted[0]}, max ${sorted[$((n - 1))]}, $n runs)"
