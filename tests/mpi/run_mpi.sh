#!/bin/sh
# The MPI tests: tests/mpi/test_mpi (libdlsched_mpi) and the MPI examples under the MPI
# launcher with 3 and 4 ranks, on one machine (Open MPI: --oversubscribe, and --allow-run-as-root as root).
# Reported as SKIP (77) with the reason when configure built no MPI layer.
set -u
if [ -z "${MPIEXEC:-}" ] || [ ! -x tests/mpi/test_mpi ]; then
    echo "SKIP: the MPI tests: ${MPI_SKIP_WHY:-the MPI layer was not built}"
    exit 77
fi
# shellcheck source=tests/support/mpi_flags.sh
. "${top_srcdir:-${srcdir:-.}}/tests/support/mpi_flags.sh"
flags=$mpi_flags
# Under the sanitizers, what Open MPI keeps until exit is not ours to report: suppressed by
# library (tests/mpi/lsan.supp), which needs whole stacks (the slow unwinder: Open MPI is
# built without frame pointers) and its components left loaded (unloaded, their frames
# have no name).
supp=$(cd "${srcdir:-.}" && pwd)/tests/mpi/lsan.supp # absolute: the checks below cd away
LSAN_OPTIONS="suppressions=$supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
ASAN_OPTIONS="fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS ASAN_OPTIONS OMPI_MCA_mca_base_component_disable_dlclose
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-mpi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
for n in 3 4; do
    mkdir "$tmp/$n"
    # a bound on the whole run: a collective left waiting is a failure, not a hang
    # shellcheck disable=SC2086
    if ! timeout 300 "$MPIEXEC" $flags -np "$n" tests/mpi/test_mpi "$tmp/$n"; then
        echo "FAIL: test_mpi with $n ranks"
        fails=$((fails + 1))
    fi
done

# dlsched evaluate --measured: test_mpi's measured timelines against their platforms
for n in 3 4; do
    for root in 0 $((n - 1)); do
        d=$tmp/$n
        if "${DLSCHED:-tool/dlsched}" evaluate "$d/platform-$root.json" \
            --measured "$d/timeline-$root.json" --gantt "$d/cmp-$root.svg" > "$d/cmp.txt" 2>&1; then
            grep -q "^makespan: predicted .* measured" "$d/cmp.txt" || fail "evaluate --measured: $(cat "$d/cmp.txt")"
            grep -q "Predicted against measured" "$d/cmp-$root.svg" || fail "evaluate --measured: no chart"
        else
            fail "evaluate --measured ($n ranks, root $root): $(cat "$d/cmp.txt")"
        fi
    done
done

# dlsched bench --mpi: every rank measured, rank 0 writes the file; resumed from the logs;
# a command failing on one rank fails every rank with its message.
mpi() { # NP ARGS...: the program under the launcher, bounded
    np=$1
    shift
    # shellcheck disable=SC2086
    timeout 300 "$MPIEXEC" $flags -np "$np" "$@"
}
dlsched=${DLSCHED:-tool/dlsched}
case $dlsched in
/*) ;;
*) dlsched=$PWD/$dlsched ;;
esac
cd "$tmp" || exit 99
if mpi 3 "$dlsched" bench --mpi --kernel synthetic --max-points 12 -o c.json 2> err.txt; then
    "$dlsched" check c.json > check.txt 2>&1 || fail "dlsched check of bench --mpi's file"
    grep -q "c.json: 3 processors" check.txt || fail "bench --mpi: not 3 processors: $(head -1 check.txt)"
    for r in 0 1 2; do
        [ -s "c.json.log.$r" ] || fail "bench --mpi: no log for rank $r"
        grep -q ":$r  *points  .*with bands" check.txt || fail "bench --mpi: rank $r's processor"
    done
    cp c.json first.json
    mpi 3 "$dlsched" bench --mpi --kernel synthetic --max-points 12 -o c.json --resume \
        2> err.txt || fail "bench --mpi --resume: $(cat err.txt)"
    cmp -s c.json first.json || fail "bench --mpi --resume: another platform than the first run's"
else
    fail "bench --mpi: $(cat err.txt)"
fi
# the command fails on rank 1 only: every rank stops, the message names rank 1
if mpi 3 "$dlsched" bench --mpi --exec 'test "$OMPI_COMM_WORLD_RANK" != 1 # {size}' \
    --max-size 100 --max-points 6 -o x.json > out.txt 2> err.txt; then
    fail "bench --mpi with a failing --exec succeeded"
else
    grep -q "rank 1 (" err.txt || fail "bench --mpi, failing --exec: $(cat err.txt)"
    [ ! -e x.json ] || fail "bench --mpi, failing --exec: a file was written"
fi
# --links: the link from rank 0 to every rank, fitted S + C x; alone (--no-compute, in
# bytes) and into the platform (the rate per unit of load: a row of gemm-rows is 8 n bytes)
if mpi 3 "$dlsched" bench --mpi --links --no-compute --kernel synthetic --link-max-bytes 4194304 \
    --max-points 10 --json > links.json 2> err.txt; then
    if [ -n "${PYTHON3:-}" ]; then
        "$PYTHON3" - links.json <<'PY' || fail "bench --mpi --links --no-compute: $(cat links.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranks"] == 3 and len(d["links"]) == 3, d
assert d["links"][0]["startup"] == 0 and d["links"][0]["rate_per_byte"] == 0, d
for l in d["links"][1:]:
    # times of a loaded machine (3 ranks on 2 cores): the fit is S, C >= 0, not exact
    assert l["startup"] >= 0 and l["rate_per_byte"] >= 0 and l["points"] >= 2, l
    assert l["startup"] > 0 or l["rate_per_byte"] > 0, l
    assert l["same_node"], l   # one machine: shared memory, and said so
PY
    fi
else
    fail "bench --mpi --links --no-compute: $(cat err.txt)"
fi
if mpi 3 "$dlsched" bench --mpi --links --kernel gemm-rows --n 32 --max-size 64 \
    --max-points 5 --size-cap 0.05 --link-max-bytes 65536 -o l.json 2> err.txt; then
    grep -q "shared memory" err.txt || fail "bench --mpi --links: the shared memory not said: $(cat err.txt)"
    "$dlsched" check l.json > check.txt 2>&1 || fail "check of bench --mpi --links's file"
    grep -q "startup .*, rate" check.txt || fail "bench --mpi --links: no links in the platform: $(cat check.txt)"
    # issue 34: the speeds in rows per second, the unit of the links (a row): every size a
    # rank's log measured is predicted by the file (x / s(x)) within the point's band, and
    # a schedule of the rows measured takes seconds of the same order as the runs
    "$PYTHON3" - l.json <<'PY' || fail "bench --mpi --links: the file's speeds are not in rows per second"
import json, sys, subprocess
d = json.load(open(sys.argv[1]))
assert d.get("version") == 2, d.get("version")
for r, p in enumerate(d["processors"]):
    pts = p["speed"]["points"]
    def speed(x):
        if x <= pts[0][0]: return pts[0][1]
        for (a, sa, *_), (b, sb, *_) in zip(pts, pts[1:]):
            if a <= x <= b: return sa + (sb - sa) * (x - a) / (b - a)
        return pts[-1][1]
    # the rank's log: a header, then "size speed low high time ci reps" in hex floats
    for line in list(open("l.json.log.%d" % r))[1:]:
        x, sp, lo, hi, t = (float.fromhex(v) for v in line.split()[:5])
        pred = x / speed(x)
        # a point the model keeps: within its band; one it dropped: within the band
        # widened twice (a loaded machine widens bands); either way seconds, not n^2 off
        w = 1e-9 if any(q[0] == x for q in pts) else 1
        assert x / hi / (1 + w) <= pred <= x / lo * (1 + w), (r, line, pred)
PY
else
    fail "bench --mpi --links: $(cat err.txt)"
fi
# --no-compute --merge: the links into the platform just measured (its speeds kept); on a
# platform of another count of processors, refused and the file left as it was
if [ -s l.json ]; then
    cp l.json l0.json
    if mpi 3 "$dlsched" bench --mpi --links --no-compute --merge l.json --bytes-per-unit 1000 \
        --link-max-bytes 65536 --max-points 5 2> err.txt; then
        "$PYTHON3" - l0.json l.json <<'PY' || fail "bench --mpi --links --no-compute --merge: $(cat l.json)"
import json, sys
a, b = (json.load(open(f))["processors"] for f in sys.argv[1:3])
assert [p["name"] for p in a] == [p["name"] for p in b]
assert all(p["speed"] == q["speed"] for p, q in zip(a, b)), "the speeds changed"
assert "link" not in b[0] or b[0]["link"] == {"startup": 0, "rate": 0}, b[0]
# measured: a link on every other rank (on a loaded machine the noise can hide the rate of
# messages this small behind the startup, and the fit then keeps a constant)
assert all(q["link"]["rate"] >= 0 and q["link"]["startup"] >= 0 and
           q["link"]["rate"] + q["link"]["startup"] > 0 for q in b[1:]), b
PY
    else
        fail "bench --mpi --links --no-compute --merge: $(cat err.txt)"
    fi
    cp l.json l1.json
    if mpi 2 "$dlsched" bench --mpi --links --no-compute --merge l.json --bytes-per-unit 1000 \
        2> err.txt; then
        fail "bench --mpi --links --no-compute --merge with 3 processors on 2 ranks was accepted"
    else
        grep -q "3 processors for 2 ranks" err.txt ||
            fail "bench --mpi --links --merge, wrong count: $(cat err.txt)"
        cmp -s l.json l1.json || fail "bench --mpi --links --merge refused, yet changed the file"
    fi
fi
if "$dlsched" bench --links --kernel synthetic 2> err.txt; then
    fail "bench --links without --mpi was accepted"
else
    grep -q -- "--links applies to --mpi" err.txt || fail "bench --links without --mpi: $(cat err.txt)"
fi
if "$dlsched" bench --mpi --links --kernel synthetic 2> err.txt; then
    fail "bench --mpi --links without --bytes-per-unit for a synthetic kernel was accepted"
fi
if "$dlsched" bench --mpi --merge m.json 2> err.txt; then
    fail "bench --mpi --merge was accepted"
else
    grep -q -- "--merge does not apply" err.txt || fail "bench --mpi --merge: $(cat err.txt)"
fi
cd "$OLDPWD" || exit 99

# The MPI examples: measured, distributed and computed in one run; the result checked
# against one rank's (the example exits non-zero when it is wrong). Correctness only: the
# timings of ranks oversubscribing a shared machine are not a test's business.
example() { # NAME TOTAL WHAT OUT ARGS...: run with 3 and 4 ranks, every split distributing TOTAL
    name=$1 total=$2 what=$3 out=$4
    shift 4
    for n in 3 4; do
        if mpi "$n" "examples/$name" "$@" > "$out" 2>&1; then
            for s in fpm even constant; do
                got=$(awk -v s="split=$s" '$1 == "result" && $3 == s { split($6, u, "="); t += u[2] } END { print t + 0 }' "$out")
                [ "$got" = "$total" ] || fail "$name, $n ranks, split $s: $got $what distributed, not $total"
            done
            [ "$(grep -c '^result .*split=fpm ' "$out")" = "$n" ] ||
                fail "$name, $n ranks: not one line per rank: $(cat "$out")"
            [ "$name" != mpi_divisible ] || grep -q '"predicted_makespan"' "$tmp/dv.json" ||
                fail "$name, $n ranks: no timeline written: $(head -c 300 "$tmp/dv.json")"
        else
            fail "$name with $n ranks: $(cat "$out")"
        fi
    done
}
example mpi_matmul 160 rows "$tmp/mm.txt" -n 160 --hetero --split all --budget 1
# --runs 2: each rank computes its share twice, the medians reported
example mpi_divisible 3000 units "$tmp/dv.txt" -V 3000 --hetero --split all --budget 1 --runs 2 \
    -o "$tmp/dv.json"
if mpi 2 examples/mpi_divisible -V 100 --runs 0 > "$tmp/bad.txt" 2>&1; then
    fail "mpi_divisible --runs 0 was accepted"
elif ! grep -q -- "--runs K" "$tmp/bad.txt"; then
    fail "mpi_divisible --runs 0: no usage message: $(cat "$tmp/bad.txt")"
fi
# issue 38: the iterative example balanced while it runs. Correctness only: the grid the
# four strategies compute is the same (one checksum), every split holds the N rows, and the
# functional balancer's last iteration is within a generous factor of the best it saw (its
# times are CPU times: the other ranks sharing the cores do not move them much).
for n in 3 4; do
    out=$tmp/bal-$n.txt
    if mpi "$n" examples/mpi_balance --hetero -N 2000 --iterations 15 > "$out" 2>&1; then
        awk -v n="$n" '
            $1 == "result" {
                for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                lines++; sums[v["checksum"]]++
                if (v["sum"] != 2000) { print "sum " v["sum"] " for " v["strategy"]; bad = 1 }
                c = split(v["shares"], sh, ","); t = 0
                for (i = 1; i <= c; i++) t += sh[i]
                if (c != n || t != 2000) { print "shares " v["shares"]; bad = 1 }
                if (v["strategy"] == "functional" && v["last"] > 3 * v["best"]) {
                    print "functional: last " v["last"] " best " v["best"]; bad = 1 }
            }
            END { k = 0; for (s in sums) k++
                  if (lines != 4 || k != 1) { print lines " results, " k " checksums"; bad = 1 }
                  exit bad }' "$out" || fail "mpi_balance, $n ranks: $(cat "$out")"
    else
        fail "mpi_balance with $n ranks: $(cat "$out")"
    fi
done
if mpi 2 examples/mpi_balance --strategy best > "$tmp/bad.txt" 2>&1; then
    fail "mpi_balance --strategy best was accepted"
elif ! grep -q -- "--strategy" "$tmp/bad.txt"; then
    fail "mpi_balance --strategy best: no usage message: $(cat "$tmp/bad.txt")"
fi
[ "$fails" = 0 ]
