#!/bin/sh
# smpi/flow.sh: dlsched's whole flow on a simulated heterogeneous cluster (SimGrid's SMPI).
#
#   smpi/flow.sh --platform examples/simgrid/cluster8.xml [--hostfile FILE] [--out DIR]
#                [--np P] [--n N] [--max-rows R] [--units V] [--unit-bytes B] [--rounds R]
#                [--budget S] [--max-units U] [--no-matmul] [--no-divisible]
#                [--no-balance] [--network exact|smpi]
#
# 1. measure: every rank's speed function for gemm-rows up to R rows (`dlsched-smpi bench
#    --mpi`, the ranks at once, each computing for real, its time rescaled by SMPI to its
#    host's speed);
#    then the link from rank 0 to every rank (`bench --mpi --links --no-compute --merge`,
#    with SMPI's computation switched off: the bookkeeping between two messages is not part
#    of the link), into the same platform file, per unit of --unit-bytes;
# 2. mpi_matmul -n N --platform: the N x N product partitioned by the measured functions,
#    against an even split and against constant speeds measured at one size (in the run);
# 3. mpi_divisible --links: V units of B bytes (R mixing rounds a word: the default makes a
#    unit cost a few times its transfer on the 1 Gb/s links) scheduled as a star by speed
#    functions the example measures itself (its own per-unit work, which dlsched bench has
#    no kernel for) and the links of step 1, against the even split and constant speeds;
# 4. mpi_balance --paging: a Jacobi sweep of 4000 rows balanced while it runs (issue 38):
#    every rank pages beyond the even share on top of its host's speed; an even split, the
#    constant-speed and the functional balancers and a static functional partition measured
#    first, compared in balance.txt (iterations to balance, makespans, total times);
# 5. the report (smpi/report.py): per rank the host's speed and route as SimGrid reads the
#    platform (dlsched-simgrid --routes) against what was measured, predicted against
#    simulated-measured times, and the makespans.
# Everything lands in --out (default smpi-flow): platform.json, routes.txt, matmul.txt,
# divisible.txt, balance.txt, report.md, report.json. The exit status is the examples' (0
# when every product, every unit and every sweep was right), 2 for a usage or run error.
#
# The programs: smpi/dlsched-smpi, smpi/mpi_matmul, smpi/mpi_divisible and smpi/mpi_balance
# (`make smpi`) and simgrid/dlsched-simgrid, found under --builddir (default .); smpirun from SMPIRUN or PATH.
# --network exact (default) is SimGrid's CM02 model with every correction set to 1, where a
# message of x bytes takes latency + x / bandwidth along its route, so that the links
# measured can be held against the platform; smpi is SMPI's default (its latency and
# bandwidth factors, measured on real clusters). What is not deterministic: the computation
# is timed on the real CPU (SMPI rescales it), so the speeds carry this machine's noise;
# the links, with the computation off, are the same in every run.
set -eu

usage() {
    sed -n '3,6p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

platform= hostfile= out=smpi-flow np= n=512 max_rows= units=20000 unit_bytes=1024 rounds=64 budget=2
max_units= matmul=1 divisible=1 balance=1 network=exact builddir=.
while [ $# -gt 0 ]; do
    case $1 in
    --platform) platform=$2; shift ;;
    --hostfile) hostfile=$2; shift ;;
    --out) out=$2; shift ;;
    --np) np=$2; shift ;;
    --n) n=$2; shift ;;
    --max-rows) max_rows=$2; shift ;;
    --units) units=$2; shift ;;
    --unit-bytes) unit_bytes=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --budget) budget=$2; shift ;;
    --max-units) max_units=$2; shift ;;
    --no-matmul) matmul=0 ;;
    --no-balance) balance=0 ;;
    --no-divisible) divisible=0 ;;
    --network) network=$2; shift ;;
    --builddir) builddir=$2; shift ;;
    *) usage ;;
    esac
    shift
done
[ -n "$platform" ] || usage
[ -n "$max_rows" ] || max_rows=$n
[ -n "$hostfile" ] || hostfile=${platform%.xml}.hosts
[ -n "$np" ] || np=$(grep -c . "$hostfile")
here=$(cd "$(dirname "$0")" && pwd)
smpirun=${SMPIRUN:-smpirun}
progs="smpi/dlsched-smpi smpi/mpi_matmul smpi/mpi_divisible simgrid/dlsched-simgrid"
[ "$balance" = 0 ] || progs="$progs smpi/mpi_balance"
for prog in $progs; do
    if [ ! -x "$builddir/$prog" ]; then
        echo "smpi/flow.sh: $builddir/$prog not found (make smpi; SimGrid and SMPI are needed)" >&2
        exit 2
    fi
done
case $network in
exact) net="--cfg=network/model:CM02 --cfg=network/latency-factor:1
    --cfg=network/bandwidth-factor:1 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:0" ;;
smpi) net= ;;
*) usage ;;
esac
mkdir -p "$out"
log=$out/smpirun.log
: >"$log"
# One OpenBLAS thread: the ranks are threads of one process that SMPI runs one at a time.
# smpi/host-speed: the speed of this machine as SMPI counts it (a second of real
# computation is that many flops), so that a host of that speed computes in real time.
# smpi/coll-selector:mpich: MPICH's choice of algorithm for each collective; SMPI's default
# allgather posts every pair's messages at once, p^2 of them, which on 1,024 ranks had not
# finished the first one in six minutes.
run() {
    # shellcheck disable=SC2086
    OPENBLAS_NUM_THREADS=1 "$smpirun" -np "$np" -platform "$platform" -hostfile "$hostfile" \
        --cfg=smpi/host-speed:4Gf --cfg=smpi/privatization:1 --cfg=smpi/coll-selector:mpich \
        $net "$@" 2>>"$log"
}
say() { echo "smpi/flow.sh: $*" >&2; }

"$builddir/simgrid/dlsched-simgrid" --routes "$platform" "$hostfile" >"$out/routes.txt" 2>>"$log" ||
    { say "dlsched-simgrid --routes failed (see $log)"; exit 2; }
say "measuring $np ranks (gemm-rows, n = $n, up to $max_rows rows, $budget s each) on $platform"
# --min-run-time 0: one dgemm a run, as the example computes its rows. Under SMPI the ranks
# take turns on this machine's CPU at every clock reading, so a run starts where the other
# ranks have emptied the caches; a loop of dgemms would hide that from all but the first.
run "$builddir/smpi/dlsched-smpi" bench --mpi --kernel gemm-rows --n "$n" --time-budget "$budget" \
    --max-size "$max_rows" --min-run-time 0 --quiet -o "$out/platform.json" --log "$out/bench.log" ||
    { say "bench --mpi failed (see $log)"; exit 2; }
# messages up to 16 times an even share (between 64 KiB and 16 MiB): the sizes the schedule
# sends, and no more (SMPI copies every byte: 16 MiB to each of 1,023 ranks is minutes)
link_max=$((units / np * 16 * unit_bytes))
[ "$link_max" -ge 65536 ] || link_max=65536
[ "$link_max" -le 16777216 ] || link_max=16777216
say "measuring the links from rank 0 ($unit_bytes bytes a unit, messages up to $link_max bytes)"
run --cfg=smpi/simulate-computation:no "$builddir/smpi/dlsched-smpi" bench --mpi --links \
    --no-compute --bytes-per-unit "$unit_bytes" --link-max-bytes "$link_max" \
    --merge "$out/platform.json" --quiet ||
    { say "bench --mpi --links failed (see $log)"; exit 2; }
rc=0
: >"$out/matmul.txt"
: >"$out/divisible.txt"
if [ "$matmul" = 1 ]; then
    say "mpi_matmul -n $n on the measured speed functions"
    run "$builddir/smpi/mpi_matmul" -n "$n" --platform "$out/platform.json" --split all \
        --budget "$budget" --runs 3 >"$out/matmul.txt" || rc=$?
fi
if [ "$divisible" = 1 ] && [ "$rc" != 2 ]; then
    say "mpi_divisible -V $units on the measured links"
    run "$builddir/smpi/mpi_divisible" -V "$units" --unit-bytes "$unit_bytes" --rounds "$rounds" \
        --links "$out/platform.json" --split all --budget "$budget" --runs 3 \
        ${max_units:+--max-units "$max_units"} >"$out/divisible.txt" || rc=$?
fi
: >"$out/balance.txt"
if [ "$balance" = 1 ] && [ "$rc" != 2 ]; then
    say "mpi_balance --paging: a sweep balanced while it runs"
    run "$builddir/smpi/mpi_balance" --paging --clock wall >"$out/balance.txt" || rc=$?
fi
python3 "$here/report.py" --platform "$platform" --routes "$out/routes.txt" \
    --measured "$out/platform.json" --unit-bytes "$unit_bytes" --matmul "$out/matmul.txt" \
    --divisible "$out/divisible.txt" --json "$out/report.json" >"$out/report.md" ||
    { say "the report failed"; exit 2; }
cat "$out/report.md"
if [ -s "$out/balance.txt" ]; then
    printf '\n## mpi_balance (simulated seconds)\n\n'
    grep -v '^result ' "$out/balance.txt"
fi
[ "$rc" = 0 ] || say "an example failed (status $rc): see $out/*.txt and $log"
exit "$rc"
