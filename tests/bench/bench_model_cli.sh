#!/bin/sh
# Issue 24's goals, measured as a user runs them: `dlsched bench --kernel K --time-budget 60
# --validate 8` for gemm-rows and lu-update. Prints, per kernel, the points kept, the range
# measured (and the run time at its top), the stop reason, the held-out sizes within the
# accuracy or the band and the largest error, and the time used; exits 1 when a goal is
# missed: more than 12 points kept, a top below the limit whose run is under one second, or a
# stop reason that the figures contradict.
# usage: bench_model_cli.sh DLSCHED [BUDGET]
set -eu
dlsched=$1
budget=${2:-60}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-bench-model.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
printf '%-10s %6s %6s %-12s %-22s %9s %9s %8s\n' kernel kept sizes stop "range measured" "top run" "held out" "time"
for k in gemm-rows lu-update; do
    "$dlsched" bench --kernel "$k" --time-budget "$budget" --validate 8 --quiet --json \
        -o "$tmp/$k.json" >"$tmp/$k.out" 2>"$tmp/$k.err"
    python3 - "$tmp/$k.out" "$k" "$budget" <<'PY' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
u = d["summary"]
k, budget = sys.argv[2], float(sys.argv[3])
print("%-10s %6d %6d %-12s %-22s %8.2fs %4d/%-4d %7.1fs" % (
    k, u["kept"], u["measured"], u["stop"], "%g .. %g of %g" % (u["smallest"], u["largest"], u["limit"]),
    u["top_run_time"], u["within"], u["held_out"], u["elapsed"]))
print("%-10s held-out largest error %.3g; %d intervals finer than the model (up to %.3g), bands widened up to %.3g" % (
    "", u["held_out_error"], u["fine"], u["fine_error"], u["widening"]))
bad = []
if u["kept"] > 12:
    bad.append("more than 12 points kept")
if u["largest"] < u["limit"] and u["top_run_time"] < 1:
    bad.append("the top (%g) is below the limit with a run of %.3g s" % (u["largest"], u["top_run_time"]))
if u["stop"] == "converged" and (u["top_by_budget"] or u["unexamined"]):
    bad.append("'converged' although the budget cut the range or left intervals")
if u["stop"] == "time budget" and not (u["top_by_budget"] or u["unexamined"] or u["elapsed"] >= 0.75 * budget):
    bad.append("'time budget' although the budget stopped nothing")
if u["elapsed"] > 1.1 * budget:
    bad.append("took %.1f s of a %g s budget" % (u["elapsed"], budget))
for b in bad:
    print("%-10s GOAL MISSED: %s" % ("", b))
sys.exit(1 if bad else 0)
PY
done
exit $status
