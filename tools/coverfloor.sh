#!/usr/bin/env bash
# coverfloor.sh LOG: fails when an engine/ package's own tests cover less
# than 80 % of its statements, reading the lines `go test -cover` wrote to
# LOG ("ok  <pkg>  12.3s  coverage: 85.1% of statements"). Every line of LOG
# is printed as it was.
set -euo pipefail
log=$1
cat "$log"
awk '
  $1 == "ok" && $2 ~ /\/engine\// {
    for (i = 1; i <= NF; i++) if ($i == "coverage:") {
      v = $(i + 1); sub("%", "", v)
      if (v + 0 < 80) { printf "coverage floor: %s covers %s%% of its statements, under 80%%\n", $2, v; bad = 1 }
    }
  }
  END { exit bad }
' "$log"
