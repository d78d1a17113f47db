#!/bin/sh
# The MPI layer on the simulated clusters of examples/simgrid/ under SMPI (issue 22): the
# whole flow of smpi/flow.sh on 64 nodes (three CPU generations, two network tiers) and on
# 1,024 (four generations). The reports (Markdown, with every figure and the commands) go to
# tests/bench/smpi-64/report.md and tests/bench/smpi-1024/report.md; doc/BENCHMARKS.md keeps
# their tables. Without SMPI it says that it is skipped, and why.
#   bench_smpi.sh BUILDDIR SRCDIR [64] [1024]
set -eu
b=$1 src=$2
shift 2
[ $# -gt 0 ] || set -- 64 1024
if [ -n "${DLS_SMPI_WHY:-}" ]; then
    echo "bench_smpi: skipped: $DLS_SMPI_WHY"
    exit 0
fi
status=0
for nodes in "$@"; do
    case $nodes in
    # 1,024 ranks: the product's matrix on every rank is more memory than a machine has
    # (n = 1024: 8 GB), so the divisible load alone; each rank measures its speed on at
    # most 512 units of its own (the shares are some 100)
    1024) args="--n 256 --no-matmul --units 100000 --max-units 512 --budget 0.5" ;;
    # 64 ranks: shares of some 15 to 60 rows of 2048; B is 32 MB on every rank
    64) args="--n 2048 --max-rows 256 --units 100000 --max-units 20000" ;;
    *) args= ;;
    esac
    out=tests/bench/smpi-$nodes
    echo "bench_smpi: $nodes nodes: smpi/flow.sh --platform examples/simgrid/cluster$nodes.xml $args"
    start=$(date +%s)
    # shellcheck disable=SC2086
    sh "$src/smpi/flow.sh" --platform "$src/examples/simgrid/cluster$nodes.xml" --builddir "$b" \
        --out "$out" $args >/dev/null || status=$?
    echo "bench_smpi: $nodes nodes: $(( $(date +%s) - start )) s of wall time; report in $out/report.md"
    grep -A6 '^| split' "$out/report.md" || true
done
exit "$status"
