#!/bin/sh
# The MPI layer under SimGrid's SMPI (issue 22): smpi/flow.sh on the 8-node platform of
# examples/simgrid/ (two nodes of each of 4, 2, 1 and 0.5 Gflop/s on one switch, links of
# 10 Gb/s, 1 Gb/s and 100 Mb/s). Checked against the platform as SimGrid itself reads it
# (dlsched-simgrid --routes): the speeds measured under SMPI in the ratios of the hosts'
# speeds, within 10% (each rank's units / computing time under mpi_divisible's even split:
# the same work everywhere, timed on this machine's CPU and rescaled by SMPI to the host;
# the gemm-rows speed functions of `bench --mpi` are reported, not checked: short dgemms
# under SMPI carry the cache refills of the ranks taking turns on one CPU); the fitted startup and cost per byte of every link within 2% of the route's latency
# and 1 / bandwidth (the links are simulated without noise: what is left is SMPI's own cost
# of a message); both examples right for every distribution (every unit processed once,
# the product equal to the one-rank product: their exit status) and every share handed out;
# mpi_balance's sweep the same grid whatever the distribution, and its shares whole.
# Then the bad inputs of the flow's new options, each refused with a message before any
# work. SKIP without SMPI or SimGrid (configure's reasons) or python3.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
skip_unless "${DLS_SMPI_BUILDDIR:-}" "${DLS_SMPI_WHY:-SMPI was not found}"
skip_unless "${DLSCHED_SIMGRID:-}" "${DLS_SIMGRID_WHY:-dlsched-simgrid was not built}"
b=$DLS_SMPI_BUILDDIR
plat=$ex/simgrid/cluster8.xml
hosts=$ex/simgrid/cluster8.hosts

# 512 mixing rounds a word (the flow's default is 64): each rank's share of the even split
# then computes for some 40 ms rather than 5, above the scheduling jitter of the CPU SMPI
# times it on (at 64 one rank in eight came out 16% off on a quiet machine; at 512 the
# worst of three runs was 3.6%)
if sh "$top_srcdir/smpi/flow.sh" --platform "$plat" --hostfile "$hosts" --builddir "$b" \
    --rounds 512 --out "$tmp/flow" >"$tmp/flow.out" 2>&1; then
    checks=$((checks + 1))
else
    fail "smpi/flow.sh on 8 nodes (status $?)" "$(tail -n 40 "$tmp/flow.out"; tail -n 20 "$tmp/flow/smpirun.log" 2>/dev/null)"
fi
cat "$tmp/flow.out"

py_json "the measured speeds, links and the examples' results" "$tmp/flow/report.json" <<'PY'
p = d["ranks"]
assert p == 8, p
for r in range(1, p):
    e = d["run_speed_ratio_error"][r]
    assert e is not None and abs(e) <= 0.10, f"rank {r}: speed ratio off by {e} (10% allowed)"
    s, c = d["startup_error"][r], d["rate_error"][r]
    assert abs(s) <= 0.02, f"rank {r}: startup off by {s:+.4f} (2% allowed)"
    assert abs(c) <= 0.02, f"rank {r}: cost per byte off by {c:+.4f} (2% allowed)"
ex = d["examples"]
assert set(ex) == {"matmul", "divisible"}, sorted(ex)
for name, total in (("matmul", 512), ("divisible", 20000)):
    assert set(ex[name]) == {"fpm", "even", "constant"}, (name, sorted(ex[name]))
    for split, v in ex[name].items():
        assert v["right"], f"{name} {split}: wrong result"
        assert sum(v["units"]) == total, (name, split, sum(v["units"]))
        assert len(v["units"]) == p
# the functional model's schedule is never beaten by the even split on these hosts (ideally
# 3.75 times faster: the even split waits for the 0.5 Gflop/s hosts). The product's short
# dgemms carry the cache refills of ranks taking turns on one CPU: its ratio came out 3.3
# on a quiet machine and 1.9 under CI's load, so it is held to 1.25
assert ex["divisible"]["even"]["measured"] > 2 * ex["divisible"]["fpm"]["measured"]
assert ex["matmul"]["even"]["measured"] > 1.25 * ex["matmul"]["fpm"]["measured"]
# the divisible load's makespan is predicted within 10% (links and computation measured)
assert abs(ex["divisible"]["fpm"]["error"]) <= 0.10, ex["divisible"]["fpm"]
PY

# issue 38: mpi_balance --paging, balanced while it runs on the simulated hosts: the same
# grid for the four strategies (one checksum), every split holding the 4000 rows, and the
# functional balancer's last iteration within a generous factor of the best it saw
checks=$((checks + 1))
awk '$1 == "result" {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        lines++; sums[v["checksum"]]++
        c = split(v["shares"], sh, ","); t = 0
        for (i = 1; i <= c; i++) t += sh[i]
        if (v["sum"] != 4000 || c != 8 || t != 4000) { print "shares " v["shares"]; bad = 1 }
        if (v["strategy"] == "functional" && v["last"] > 3 * v["best"]) {
            print "functional: last " v["last"] " best " v["best"]; bad = 1 }
    }
    END { k = 0; for (s in sums) k++
          if (lines != 4 || k != 1) { print lines " results, " k " checksums"; bad = 1 }
          exit bad }' "$tmp/flow/balance.txt" >"$tmp/bal.err" ||
    fail "mpi_balance under SMPI" "$(cat "$tmp/bal.err" "$tmp/flow/balance.txt")"

# Bad inputs, each refused before any work with the file and what is wrong.
smpirun=${SMPIRUN:-smpirun}
bad() { # WHAT PATTERN NP PROGRAM ARGS...
    what=$1 pattern=$2 np=$3
    shift 3
    rc=0
    OPENBLAS_NUM_THREADS=1 "$smpirun" -np "$np" -platform "$plat" -hostfile "$hosts" \
        --cfg=smpi/host-speed:4Gf --cfg=smpi/privatization:1 "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    checks=$((checks + 1))
    if [ "$rc" = 0 ]; then
        fail "$what: accepted"
    elif ! grep -q -- "$pattern" "$tmp/err"; then
        fail "$what: no message matching \"$pattern\"" "$(grep -v INFO "$tmp/err" | tail -n 5)"
    fi
}
bad "mpi_matmul --platform with 8 processors on 3 ranks" "has 8 processors for 3 ranks" 3 \
    "$b/smpi/mpi_matmul" -n 64 --platform "$tmp/flow/platform.json"
bad "mpi_matmul --platform of a missing file" "no-such.json" 3 \
    "$b/smpi/mpi_matmul" -n 64 --platform "$tmp/no-such.json"
bad "mpi_divisible --links with 8 processors on 3 ranks" "has 8 processors for 3 ranks" 3 \
    "$b/smpi/mpi_divisible" -V 100 --links "$tmp/flow/platform.json"
"$DLSCHED" bench --kernel synthetic --max-points 8 --time-budget 1 --quiet -o "$tmp/nolinks.json" 2>/dev/null
"$DLSCHED" bench --kernel synthetic --max-points 8 --time-budget 1 --quiet --name second \
    --merge "$tmp/nolinks.json" 2>/dev/null
cp "$tmp/nolinks.json" "$tmp/nolinks.before"
cp "$tmp/flow/platform.json" "$tmp/platform.before"
bad "mpi_divisible --links of a platform without links" "processor second has no link" 2 \
    "$b/smpi/mpi_divisible" -V 100 --links "$tmp/nolinks.json"
bad "bench --links --no-compute --merge with 8 processors on 3 ranks" \
    "8 processors for 3 ranks" 3 \
    "$b/smpi/dlsched-smpi" bench --mpi --links --no-compute --bytes-per-unit 8 \
    --merge "$tmp/flow/platform.json"
bad "bench --links --no-compute --merge without the bytes of a unit" \
    "needs --bytes-per-unit or the --kernel" 2 \
    "$b/smpi/dlsched-smpi" bench --mpi --links --no-compute --merge "$tmp/nolinks.json"
bad "bench --links --no-compute --merge with --output" "give -o FILE or --merge FILE, not both" 2 \
    "$b/smpi/dlsched-smpi" bench --mpi --links --no-compute --bytes-per-unit 8 \
    --merge "$tmp/nolinks.json" -o "$tmp/x.json"
# the files of the refused runs are as they were
checks=$((checks + 1))
cmp -s "$tmp/nolinks.json" "$tmp/nolinks.before" || fail "bench --merge refused, yet changed the file"
cmp -s "$tmp/flow/platform.json" "$tmp/platform.before" || fail "bench --merge refused, yet changed the file"
cli_summary
