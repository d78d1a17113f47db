#!/bin/sh
# Installments sized by the LP (issue 25) against the single-installment optimum and
# against DLT-Studio, on random stars of 10 to 1,000 processors drawn by
# tests/bench/dlt/gen_star.py (two memory levels, in-core slopes 1e-3 to 1e-2 s per unit,
# 2 to 20 times steeper out of core, startups under 0.05 s, a fifth of the processors
# with a limit, load 10^5). For each size: dlsched's best single-installment schedule
# (schedule --order best, 1 s), `installments --lp` with its default 1 s and with 10 s,
# and, when DLT-Studio is built (tests/bench/dlt/README.md; $DLT_DLS or
# /tmp/dlt/build/bin/dls), its `auto` and `ga` with DLT_TIME seconds each (default 300),
# their own makespans and those of their chunks replayed exactly (run_dlt.sh). Prints a
# Markdown table; doc/BENCHMARKS.md keeps it.
#   bench_installment_lp.sh DLSCHED SRCDIR [N...]
set -eu
dlsched=$1 src=$2
shift 2
[ $# -gt 0 ] || set -- 10 30 100 300 1000
dls=${DLT_DLS:-/tmp/dlt/build/bin/dls}
dlt_time=${DLT_TIME:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { # JSON FIELD
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}
now() { date +%s.%N; }
echo "| N | single (best order) s | --lp 1 s: makespan | chunks | time s | --lp 10 s: makespan | lower bound | DLT auto: own / replayed | time s | DLT ga: own / replayed | time s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|"
for n in "$@"; do
    python3 "$src/tests/bench/dlt/gen_star.py" "$n" 1 -o "$tmp/s$n" > /dev/null
    single=$("$dlsched" schedule "$tmp/s$n.json" --load 100000 --order best --time-limit 1 --json |
        python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["makespan"])')
    t0=$(now)
    "$dlsched" installments "$tmp/s$n.json" --load 100000 --lp --json > "$tmp/lp1.json" 2> /dev/null
    t1=$(now)
    "$dlsched" installments "$tmp/s$n.json" --load 100000 --lp --time-limit 10 --json \
        > "$tmp/lp10.json" 2> /dev/null
    lp1=$(printf '%.4f' "$(field "$tmp/lp1.json" makespan)")
    chunks=$(field "$tmp/lp1.json" chunks)
    lp10=$(printf '%.4f' "$(field "$tmp/lp10.json" makespan)")
    lb=$(printf '%.4f' "$(field "$tmp/lp10.json" lower_bound)")
    secs=$(python3 -c "print('%.2f' % ($t1 - $t0))")
    auto="-" autot="-" ga="-" gat="-"
    if [ -x "$dls" ]; then
        sh "$src/tests/bench/dlt/run_dlt.sh" -t "$dlt_time" -m "auto ga" -b "$dls" "$tmp/s$n.dlt" \
            > "$tmp/dlt.txt" 2> /dev/null || true
        auto=$(awk '$1 == "auto" { printf "%s / %s", $2, $5 }' "$tmp/dlt.txt")
        autot=$(awk '$1 == "auto" { print $3 }' "$tmp/dlt.txt")
        ga=$(awk '$1 == "ga" { printf "%s / %s", $2, $5 }' "$tmp/dlt.txt")
        gat=$(awk '$1 == "ga" { print $3 }' "$tmp/dlt.txt")
    fi
    echo "| $n | $single | $lp1 | $chunks | $secs | $lp10 | $lb | ${auto:--} | ${autot:--} | ${ga:--} | ${gat:--} |"
done
