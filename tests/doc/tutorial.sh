#!/bin/sh
# Runs the programs of doc/TUTORIAL.md (examples/tutorial_*.c) on the platform the tutorial
# uses, and checks the facts the tutorial shows: the figures of steps 1 to 6 are computed,
# hence the same on every machine, and checked as printed; step 7 measures, and only the
# shape of its output is checked, and that the platform file it writes reads back.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_program ./examples/tutorial_1_platform ./examples/tutorial_2_partition \
    ./examples/tutorial_3_schedule ./examples/tutorial_4_lp ./examples/tutorial_5_evaluate \
    ./examples/tutorial_6_verify ./examples/tutorial_7_measure ./examples/tutorial_8_balance
platform=$ex/star_cluster.json

# step WHAT PROGRAM ARGS...: runs the program; it must exit with status 0. Leaves
# $tmp/out and $tmp/err for the checks that follow.
step() {
    step_what=$1
    shift
    checks=$((checks + 1))
    rc=0
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    [ "$rc" -eq 0 ] || fail "$step_what: exit status $rc" "$(cat "$tmp/out" "$tmp/err")"
}

# has PATTERN WHAT: a line of the last step's output matches PATTERN (a basic regex).
has() {
    checks=$((checks + 1))
    expect_out "$1" "$2"
}

# 1. The platform: five processors, time lines and speed points, limits and links.
step "step 1" ./examples/tutorial_1_platform "$platform" 1e5
has '^5 processors$' "step 1: count"
has '^xeon-a   time, 2 lines    limit inf     link 0.05 s + 1e-05 s/unit  t(100000) = 10 s$' \
    "step 1: a time model without a limit"
has '^epyc     time, 3 lines    limit 800000  link 0.02 s + 4e-06 s/unit  t(100000) = 4 s$' \
    "step 1: a time model with a limit"
has '^laptop   points, 4 points limit 300000  link 0.2 s + 3e-05 s/unit  t(100000) = 20 s$' \
    "step 1: a points model"

# 2. The partition of 10^6 elements: every element placed, the makespan at its bound.
step "step 2" ./examples/tutorial_2_partition "$platform" 1000000
has '^makespan 44.068 s, lower bound 44.068 s (optimal)$' "step 2: makespan"
has '^epyc       236517 elements    44.067 s$' "step 2: a processor's share"
checks=$((checks + 1))
sum=$(awk '/ elements /{s += $2} END {print s}' "$tmp/out")
[ "$sum" = 1000000 ] || fail "step 2: the elements sum to $sum, not 1000000" "$(cat "$tmp/out")"

# 3. The schedule in the platform's order, then in the best order (found exactly).
step "step 3" ./examples/tutorial_3_schedule "$platform" 1e6
has '^  makespan 50.980 s$' "step 3: platform order"
has '^  makespan 49.572 s$' "step 3: best order"
has '^order found by exact (proven best), 3 candidates priced$' "step 3: order method"
has '^makespan in the platform order 50.980 s, in the rate order 50.007 s, no order below 49.572 s$' \
    "step 3: the orders compared"
checks=$((checks + 1))
best=$(sed -n '/^best order:/,$p' "$tmp/out" | awk '$2 == "load" {printf "%s ", $1}')
[ "$best" = "epyc xeon-b old-node xeon-a laptop " ] ||
    fail "step 3: best order is \"$best\"" "$(cat "$tmp/out")"

# 4. The LP, as text and as an MPS file; glpsol, when there is one, finds the makespan.
step "step 4" ./examples/tutorial_4_lp "$platform" 1e6 "$tmp/star.mps"
has '^ makespan: + Cmax$' "step 4: objective"
has '^ send_1: - 1e-05 alpha_1 + T_1 = 0.05$' "step 4: first send row"
has '^ load: + alpha_5 + alpha_4 + alpha_3 + alpha_2 + alpha_1 = 1000000$' "step 4: load row"
has '^ 0 <= alpha_3 <= 800000$' "step 4: epyc's limit"
checks=$((checks + 1))
grep -q '^NAME dlsched_star$' "$tmp/star.mps" || fail "step 4: no MPS file written"
if [ -n "${GLPSOL:-}" ] && [ -x "$GLPSOL" ]; then
    checks=$((checks + 1))
    "$GLPSOL" --freemps "$tmp/star.mps" -o "$tmp/star.sol" >"$tmp/glpsol" 2>&1 ||
        fail "step 4: glpsol failed" "$(cat "$tmp/glpsol")"
    grep -q 'Objective:  makespan = 50.98' "$tmp/star.sol" ||
        fail "step 4: glpsol's optimum is not 50.98 s" "$(cat "$tmp/star.sol")"
fi

# 5. An even split evaluated, against the optimal schedule.
step "step 5" ./examples/tutorial_5_evaluate "$platform" 1e6
has '^laptop   load  200000.0  done at 181.487 s$' "step 5: the slowest processor"
has '^even split: makespan 181.487 s; optimal schedule 50.980 s (256.0% slower)$' \
    "step 5: makespans"

# 6. The optimal schedule verified valid and optimal; the even split caught.
step "step 6" ./examples/tutorial_6_verify "$platform" 1e6
has '^  valid: makespan 50.980 s, best 50.980 s, gap 0%$' "step 6: the optimal schedule"
has '^  invalid, violations: 1$' "step 6: the even split refused"
has '^  makespan: the claimed makespan 50.9800992 is below the 181.4866667' \
    "step 6: the violation"

# 7. A measured model: points, why it stopped, a platform file that step 1 reads.
step "step 7" ./examples/tutorial_7_measure "$tmp/measured.json"
has '^size  *10000  speed .* elements/s  \[.*\]  [0-9]* runs$' "step 7: the smallest size"
has '^size  *1000000  speed .* elements/s  \[.*\]  [0-9]* runs$' "step 7: the largest size"
has '^[0-9]* points measured, [0-9]* kept in the model; stopped: ' "step 7: summary"
has "^platform written to $tmp/measured.json\$" "step 7: platform file"
step "step 7 read back" ./examples/tutorial_1_platform "$tmp/measured.json" 1e5
has '^1 processors$' "step 7: count"
has '^this-machine points, [0-9]* points *limit 1e+06 *link 0.001 s + 1e-08 s/unit' \
    "step 7: the measured processor"

# 8. An iterative application balanced from its own times: within 2% of the optimum of the
# true models from the sixth iteration, and kept there.
step "step 8" ./examples/tutorial_8_balance "$platform" 1000000
has '^optimum 44.068 s (from the true models)$' "step 8: the optimum"
has '^iteration  1: makespan  167.490 s (+280.1%)' "step 8: the even split"
checks=$((checks + 1))
late=$(sed -n 's/^iteration *\([0-9]*\):.*( *+*\(-*[0-9.]*\)%).*/\1 \2/p' "$tmp/out" |
    awk '$1 >= 6 && ($2 > 2 || $2 < -2)')
[ -z "$late" ] || fail "step 8: more than 2% off the optimum after the fifth iteration" "$late"
checks=$((checks + 1))
sum=$(awk '/ elements$/{s += $2} END {print s}' "$tmp/out")
[ "$sum" = 1000000 ] || fail "step 8: the elements sum to $sum, not 1000000" "$(cat "$tmp/out")"

# The outputs doc/TUTORIAL.md shows for the computed steps are what the programs print.
# doc_output COMMAND: the lines the tutorial shows after "$ COMMAND", up to the end of the
# block or the next command.
doc=$top_srcdir/doc/TUTORIAL.md
doc_output() {
    awk -v cmd="\$ $1" '
        $0 == cmd { on = 1; next }
        on && (/^```/ || /^\$ /) { exit }
        on { print }' "$doc"
}
for args in "1_platform examples/star_cluster.json 1e5" \
    "2_partition examples/star_cluster.json 1000000" \
    "3_schedule examples/star_cluster.json 1e6" "5_evaluate examples/star_cluster.json 1e6" \
    "6_verify examples/star_cluster.json 1e6" "8_balance examples/star_cluster.json 1000000"; do
    checks=$((checks + 1))
    doc_output "./examples/tutorial_$args" >"$tmp/doc"
    set -- $args
    ./examples/tutorial_$1 "$platform" "$3" >"$tmp/out" 2>&1 || true
    if [ ! -s "$tmp/doc" ]; then
        fail "TUTORIAL.md shows no output of tutorial_$1"
    elif ! cmp -s "$tmp/doc" "$tmp/out"; then
        fail "TUTORIAL.md shows another output of tutorial_$1" "$(diff "$tmp/doc" "$tmp/out")"
    fi
done

# Section 8 from the command line (issue 38): every line TUTORIAL.md shows of the two runs of
# `dlsched balance` ("..." stands for lines left out) is a line the program prints.
for mode in "" " --mode constant"; do
    args="examples/memory_levels.json --elements 150000000 --noise 0.02 --iterations 10$mode"
    checks=$((checks + 1))
    doc_output "dlsched balance $args" | grep -v '^\.\.\.$' >"$tmp/doc" || true
    set -- $args
    shift
    "$DLSCHED" balance "$ex/memory_levels.json" "$@" 2>&1 |
        sed "s|^$ex/memory_levels.json:|examples/memory_levels.json:|" >"$tmp/out" || true
    missing=$(awk 'NR == FNR { have[$0] = 1; next } !($0 in have)' "$tmp/out" "$tmp/doc")
    if [ ! -s "$tmp/doc" ]; then
        fail "TUTORIAL.md shows no output of dlsched balance$mode"
    elif [ -n "$missing" ]; then
        fail "TUTORIAL.md shows lines dlsched balance$mode does not print" "$missing"
    fi
done

cli_summary
