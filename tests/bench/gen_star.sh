#!/bin/sh
# Writes a star platform of N processors to standard output, for the memory measurements of
# doc/BENCHMARKS.md: each processor has two memory levels (time lines, in-core rate 3e-4 to
# 3e-3 s per unit, a swap point near 1e6 units, 5 to 20 times slower beyond), a link
# (startup 3e-4 to 3e-3 s, rate 3e-7 to 3e-6 s per unit) and, one in seven, a limit: the
# magnitudes of tests/bench/bench_lp.c, about 160 bytes per processor. Deterministic (awk's
# srand with a fixed seed).
#
# usage: gen_star.sh N [SEED] > platform.json
set -eu
n=${1:?usage: gen_star.sh N [SEED]}
seed=${2:-1}
awk -v n="$n" -v seed="$seed" '
function logu(lo, hi) { return exp(log(lo) + rand() * (log(hi) - log(lo))) }
BEGIN {
    srand(seed)
    printf "{\"processors\": [\n"
    for (i = 0; i < n; i++) {
        b1 = logu(3e-4, 3e-3); b2 = b1 * logu(5, 20); swap = logu(3e5, 3e6)
        printf "  {\"name\": \"node%07d\", \"time\": [[0, %.6g], [%.6g, %.6g]], ", i, b1, (b1 - b2) * swap, b2
        printf "\"link\": {\"startup\": %.6g, \"rate\": %.6g}", logu(3e-4, 3e-3), logu(3e-7, 3e-6)
        if (i % 7 == 3)
            printf ", \"limit\": %.6g", logu(1e6, 1e7)
        printf "}%s\n", i + 1 < n ? "," : ""
    }
    printf "]}\n"
}'
