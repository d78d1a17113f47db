#!/bin/sh
# The MPI layer's predictions against what the ranks really do (issue 14, item 5): both MPI
# examples on RANKS ranks (default 4), each measuring its models in the same run, then
# computing with three distributions in turn: the functional models' (fpm), an even split,
# and single-number speeds measured at one size (constant), as Lastovetsky and Reddy (2007a and
# 2005) compare. Prints, as Markdown tables, each rank's predicted and measured time and each
# distribution's makespans and error (measured - predicted) / predicted, for RUNS runs of each
# example; for the divisible load also the computation alone ("=": the same as the time, for the
# product, whose measured time is its computation).
#
# Usage: bench_mpi.sh [RUNS [RANKS]]   (from the build tree; MPIEXEC names the launcher)
# Without MPI it says that it is skipped, and why, and succeeds. It fails only when an
# example fails (a wrong product, a unit lost): timings have no goal to miss, the error
# being the thing measured.
set -u
runs=${1:-3}
np=${2:-4}
if [ -z "${MPIEXEC:-}" ] || [ ! -x examples/mpi_matmul ] || [ ! -x examples/mpi_divisible ]; then
    echo "bench_mpi: skipped: ${MPI_SKIP_WHY:-the MPI layer or its examples were not built}"
    exit 0
fi
flags=
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    flags="--oversubscribe"
    [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-bench-mpi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0

# The larger sizes of the benchmark, about 10 s a run on 2 cores.
command_of() {
    case $1 in
    matmul) echo "examples/mpi_matmul -n 1024 --hetero --split all --budget 6 --runs 5" ;;
    divisible) echo "examples/mpi_divisible -V 100000 --hetero --split all --budget 6" ;;
    esac
}

echo "bench_mpi: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc 2>/dev/null || echo '?') cores, $np ranks"
for ex in matmul divisible; do
    cmd=$(command_of "$ex")
    echo
    echo "### $ex: $MPIEXEC -np $np $cmd"
    r=1
    while [ "$r" -le "$runs" ]; do
        # shellcheck disable=SC2086
        if ! timeout 300 "$MPIEXEC" $flags -np "$np" $cmd > "$tmp/out" 2> "$tmp/err"; then
            echo "bench_mpi: $ex, run $r failed: $(cat "$tmp/err")"
            fails=$((fails + 1))
            r=$((r + 1))
            continue
        fi
        cat "$tmp/out" >> "$tmp/all-$ex"
        echo
        echo "Run $r:"
        echo
        # the divisible load also has each rank's computation alone (compute=): its measured
        # finish includes the scatter, which every rank leaves together
        echo "| split | rank | share | predicted (s) | measured (s) | predicted compute (s) | measured compute (s) |"
        echo "|---|---|---:|---:|---:|---:|---:|"
        awk '$1 == "result" {
                 for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                 share = ("rows" in v) ? v["rows"] : v["units"]
                 pc = ("compute" in v) ? sprintf("%.4f", v["predicted_compute"]) : "="
                 mc = ("compute" in v) ? sprintf("%.4f", v["compute"]) : "="
                 printf "| %s | %s | %s | %.4f | %.4f | %s | %s |\n", v["split"], v["rank"], share, v["predicted"], v["measured"], pc, mc
                 delete v
             }' "$tmp/out"
        echo
        echo "| split | predicted makespan (s) | measured makespan (s) | error | error of the computation alone |"
        echo "|---|---:|---:|---:|---:|"
        awk '$1 == "makespan" {
                 for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                 ce = ("compute_error" in v) ? sprintf("%+.0f%%", 100 * v["compute_error"]) : "="
                 printf "| %s | %.4f | %.4f | %+.0f%% | %s |\n", v["split"], v["predicted"], v["measured"], 100 * v["error"], ce
                 delete v
             }' "$tmp/out"
        r=$((r + 1))
    done
    if [ -s "$tmp/all-$ex" ]; then
        echo
        echo "Over the runs (median; the measured makespan is what the distribution is worth):"
        echo
        echo "| split | median predicted (s) | median measured (s) | median error | errors | errors of the computation alone |"
        echo "|---|---:|---:|---:|---|---|"
        for s in fpm even constant; do
            awk -v s="split=$s" '$1 == "makespan" && $3 == s {
                     for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                     print v["predicted"], v["measured"], v["error"], (("compute_error" in v) ? v["compute_error"] : "=")
                     delete v
                 }' "$tmp/all-$ex" > "$tmp/col"
            med() { sort -g | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
            printf "| %s | %.4f | %.4f | %+.0f%% | %s | %s |\n" "$s" \
                "$(cut -d' ' -f1 "$tmp/col" | med)" "$(cut -d' ' -f2 "$tmp/col" | med)" \
                "$(cut -d' ' -f3 "$tmp/col" | med | awk '{ print 100 * $1 }')" \
                "$(awk '{ printf "%s%+.0f%%", (NR > 1 ? " " : ""), 100 * $3 }' "$tmp/col")" \
                "$(awk '{ if ($4 == "=") { printf "%s=", (NR > 1 ? " " : "") } else { printf "%s%+.0f%%", (NR > 1 ? " " : ""), 100 * $4 } }' "$tmp/col")"
        done
    fi
done
[ "$fails" = 0 ]
