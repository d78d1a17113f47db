#!/bin/sh
# Checks the help and the messages of dlsched as a new user meets them (issue 36): every
# command's help fits 80 columns, groups its options and ends with examples that run as
# printed (from a folder holding the shipped examples/); `dlsched --help` gives one line a
# command; misspelled commands and options get a suggestion; unambiguous prefixes of long
# options are taken, ambiguous ones refused with the candidates; options that would do
# nothing are refused naming both; counts name their range; no paper numbers anywhere.
. "${top_srcdir:-.}/tests/support/cli.sh"

case $DLSCHED in
/*) prog=$DLSCHED ;;
*) prog=$(pwd)/$DLSCHED ;;
esac
case $ex in
/*) exdir=$ex ;;
*) exdir=$(pwd)/$ex ;;
esac
commands="check partition schedule evaluate export installments crosscheck lu bench plot
import export-model verify validate simulate"

# No line of help wider than 80 columns, and no words of the papers.
wide() {
    awk 'length($0) > 80 { printf "%d: %s\n", length($0), $0 }' "$1"
}
paper_words() {
    grep -n -E 'paper [0-9]|[Ff]ormula \(|Algorithm [0-9]|A_i[0-9]' "$1" || true
}

run --help
expect_rc 0 "dlsched --help"
[ -z "$(wide "$tmp/out")" ] || fail "dlsched --help is wider than 80 columns" "$(wide "$tmp/out")"
[ -z "$(paper_words "$tmp/out")" ] || fail "dlsched --help names papers" "$(paper_words "$tmp/out")"
for c in $commands; do
    n=$(grep -c "^  $c " "$tmp/out" || true)
    [ "$n" = 1 ] || fail "dlsched --help: command $c on $n lines, expected 1" "$(cat "$tmp/out")"
done

# Every command: help by both routes, the same text, narrow, grouped, with examples.
mkdir "$tmp/work" "$tmp/bin"
ln -s "$exdir" "$tmp/work/examples"
case $top_srcdir in
/*) ln -s "$top_srcdir/validation" "$tmp/work/validation" ;;
*) ln -s "$(pwd)/$top_srcdir/validation" "$tmp/work/validation" ;;
esac
ln -s "$prog" "$tmp/bin/dlsched"
have_simgrid=1
run simulate "$exdir/star_cluster.json" "$exdir/star_cluster.json"
grep -qs "SimGrid" "$tmp/err" && [ "$rc" = 2 ] && have_simgrid=0
for c in $commands; do
    run help "$c"
    expect_rc 0 "help $c"
    cp "$tmp/out" "$tmp/help.txt"
    run "$c" --help
    expect_rc 0 "$c --help"
    cmp -s "$tmp/out" "$tmp/help.txt" || fail "help $c and $c --help differ"
    [ -z "$(wide "$tmp/help.txt")" ] || fail "help $c is wider than 80 columns" \
        "$(wide "$tmp/help.txt")"
    [ -z "$(paper_words "$tmp/help.txt")" ] || fail "help $c names papers" \
        "$(paper_words "$tmp/help.txt")"
    grep -q "^Usage: dlsched $c " "$tmp/help.txt" || fail "help $c: no usage line"
    grep -q '^Examples:$' "$tmp/help.txt" || fail "help $c: no Examples part"
    grep -q -E '^(Problem|Output|Method|Suite|What to measure|Axes|Checks):$' "$tmp/help.txt" ||
        fail "help $c: no group of options" "$(cat "$tmp/help.txt")"
    usage=$(sed -n '/^Usage:/,/^$/p' "$tmp/help.txt" | wc -l)
    [ "$usage" -le 5 ] || fail "help $c: a usage of $usage lines (it lists every option?)"
    grep -q -e '--o FILE\|same as --output' "$tmp/help.txt" &&
        fail "help $c lists an alias as an option of its own"
    # the examples, run in order (a later one may read what an earlier one wrote), a line
    # ending with \ continued on the next
    sed -n '/^Examples:$/,/^$/p' "$tmp/help.txt" | sed '1d;/^$/d;s/^  //' |
        awk '{ if (sub(/\\$/, "") || /\|$/) { line = line $0 } else { print line $0; line = "" } }' \
        >"$tmp/examples.txt"
    n=$(wc -l <"$tmp/examples.txt")
    [ "$n" -ge 2 ] && [ "$n" -le 4 ] || fail "help $c: $n examples, expected 2 to 4"
    if [ "$c" = simulate ] && [ "$have_simgrid" = 0 ]; then
        continue
    fi
    while IFS= read -r line; do
        checks=$((checks + 1))
        erc=0
        (cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh -c "$line") >"$tmp/ex.out" \
            2>"$tmp/ex.err" </dev/null || erc=$?
        [ "$erc" = 0 ] || fail "help $c: the example \"$line\" exits $erc" \
            "$(tail -5 "$tmp/ex.err")"
    done <"$tmp/examples.txt"
done

# Options grouped: a heading, then its options; -o shown with --output.
run help plot
expect_out '^Output:$' "help plot: the Output group"
expect_out '^  -o, --output FILE' "help plot: -o beside --output"
# A long option's help wraps under it at one indent.
run help schedule
expect_out '^  --order-candidates N  with --order best' "help schedule: help beside its option"
expect_out '^                        ' "help schedule: wrapped help under the option"

# "did you mean" for commands and options.
run partiton "$ex/cluster.json" --elements 10
expect_rc 2 "a misspelled command"
expect_err 'unknown command "partiton"; did you mean "partition"' "the command suggested"
run help shedule
expect_rc 2 "help of a misspelled command"
expect_err 'did you mean "schedule"' "help: the command suggested"
run partition "$ex/cluster.json" --elemnts 10
expect_rc 2 "a misspelled option"
expect_err 'unknown option "--elemnts"; did you mean --elements' "the option suggested"
run export "$ex/star_cluster.json" --load 10 --format mpss -o -
expect_rc 2 "a misspelled choice"
expect_err 'must be one of .*, not "mpss"; did you mean mps?' "the choice suggested"
run partition "$ex/cluster.json" --zzzzzzzz 10
expect_rc 2 "an option like none"
grep -qs "did you mean" "$tmp/err" && fail "a suggestion for an option like none" "$(cat "$tmp/err")"

# Prefixes of long options, as getopt_long takes them; exact names win.
run partition "$ex/star_cluster.json" --elem 1000 --json
expect_rc 0 "--elem for --elements"
run partition "$ex/star_cluster.json" --elements 1000 --json
cp "$tmp/out" "$tmp/full.json"
run partition "$ex/star_cluster.json" --elem=1000 --js
cmp -s "$tmp/out" "$tmp/full.json" || fail "--elem=1000 --js differs from the full names"
run schedule "$ex/star_cluster.json" --load 1000 --ord rate
expect_rc 2 "an ambiguous prefix"
expect_err 'option "--ord" is ambiguous: it could be --order, --order-exact-max, --order-candidates' \
    "the candidates of an ambiguous prefix"
run schedule "$ex/star_cluster.json" --load 1000 --order rate
expect_rc 0 "an exact name that begins others"
run schedule "$ex/star_cluster.json" --lo 1000 --json
expect_rc 0 "--lo for --load"
run schedule "$ex/star_cluster.json" -lo 1000
expect_rc 2 "a prefix after one dash"

# Counts name their range; --elements 0 is refused as --load 0 is.
run partition "$ex/cluster.json" --elements 0
expect_rc 2 "--elements 0"
expect_err '--elements must be a whole number >= 1, not 0' "--elements 0: the range"
run partition "$ex/cluster.json" --elements -3
expect_rc 2 "--elements -3"
expect_err '--elements must be a whole number >= 1, not -3' "--elements -3: the range"
grep -qs "expects a whole number" "$tmp/err" && fail "--elements -3: not a whole number?"
run schedule "$ex/star_cluster.json" --load 0
expect_rc 2 "--load 0"
expect_err '--load must be' "--load 0: the range"

# An option that would do nothing is refused, naming both.
bad_combo() {
    what=$1 pattern=$2
    shift 2
    run "$@"
    expect_rc 2 "$what"
    expect_err "$pattern" "$what: the message"
}
bad_combo "bench -o with --no-compute" "--output cannot be combined with --no-compute" \
    bench --mpi --links --no-compute -o "$tmp/links.json"
bad_combo "bench --links without --mpi" "--links applies to --mpi" bench --links
bad_combo "bench --noise with gemm-rows" "--noise applies to --kernel synthetic only" \
    bench --kernel gemm-rows --noise 0.1 -o "$tmp/b.json"
bad_combo "schedule --from without --curve" "--from applies to --curve" \
    schedule "$ex/star_cluster.json" --load 1000 --from 10
bad_combo "schedule --svg without --curve" "--svg applies to --curve" \
    schedule "$ex/star_cluster.json" --load 1000 --svg "$tmp/c.svg"
bad_combo "schedule --mip without --integer" "--mip applies to --integer" \
    schedule "$ex/star_cluster.json" --load 1000 --mip yes
bad_combo "installments --list without --lp" "--list applies to --lp" \
    installments "$ex/star_two.json" --load 2 --list
bad_combo "installments --rounds with --sequence" "--rounds cannot be combined with --sequence" \
    installments "$ex/star_two.json" --load 2 --lp --sequence P1,P2 --rounds 3
bad_combo "installments --gantt-rounds without --gantt" "--gantt-rounds applies to --gantt" \
    installments "$ex/star_two.json" --load 2 --gantt-rounds 3
bad_combo "lu --owners with --json" "--owners cannot be combined with --json" \
    lu "$ex/lu_cluster.json" --columns 10 --owners --json
bad_combo "verify --no-optimum --exact" "--no-optimum cannot be combined with --exact" \
    verify "$ex/star_cluster.json" "$tmp/full.json" --no-optimum --exact
bad_combo "export --window without --installments" "--window applies to --installments" \
    export "$ex/star_cluster.json" --load 10 --format lp -o - --window 2
bad_combo "import --replace without --merge" "--replace applies to --merge" \
    import csv "$tmp/t.csv" -o "$tmp/p.json" --replace

bad_combo "export --load with --format simgrid" "--load cannot be combined with --format simgrid" \
    export "$ex/star_cluster.json" --format simgrid --load 10 -o "$tmp/sg.xml"
bad_combo "export --bytes-per-unit with --format lp" "--bytes-per-unit applies to --format simgrid only" \
    export "$ex/star_cluster.json" --format lp --load 10 --bytes-per-unit 8 -o "$tmp/x.lp"
bad_combo "schedule --order-exact-max with --order rate" "--order-exact-max applies to --order best only" \
    schedule "$ex/star_cluster.json" --load 1000 --order rate --order-exact-max 3
bad_combo "simulate --bytes-per-unit with the exact network" \
    "--bytes-per-unit applies to --network realistic" \
    simulate "$ex/star_cluster.json" "$tmp/full.json" --bytes-per-unit 8
[ -e "$tmp/sg.xml" ] && fail "a refused export wrote its file"

# Messages name what the user typed, not the library's functions.
run schedule "$ex/star_cluster.json" --load 1000 --gantt "$tmp/nodir/g.svg"
expect_rc 2 "--gantt into a folder that does not exist"
expect_err "^dlsched: --gantt $tmp/nodir/g.svg: cannot create" "--gantt: the option and the path"
expect_out "^makespan " "--gantt that cannot be written: the schedule still printed"
grep -qs "dls_" "$tmp/err" && fail "--gantt: a library function named" "$(cat "$tmp/err")"
run schedule "$ex/star_cluster.json" --load 1000 --json --gantt "$tmp/nodir/g.svg"
expect_rc 2 "--gantt that cannot be written, with --json"
[ "$(head -c 1 "$tmp/out")" = "{" ] && [ "$(tail -n 1 "$tmp/out")" = "}" ] ||
    fail "--json --gantt that cannot be written: no JSON printed" "$(cat "$tmp/out")"
run schedule "$ex/star_cluster.json" --load 1000 --curve --svg "$tmp/nodir/c.svg"
expect_rc 2 "--svg into a folder that does not exist"
expect_err "^dlsched: --svg $tmp/nodir/c.svg: cannot create" "--svg: the option and the path"
expect_out "^at load 1000" "--svg that cannot be written: the curve still printed"
run installments "$ex/star_ten.json" --load 1e10 --gantt "$tmp/nodir/i.svg"
expect_rc 2 "installments --gantt into a folder that does not exist"
expect_err "^dlsched: --gantt $tmp/nodir/i.svg: cannot create" "installments --gantt: the path"
[ -s "$tmp/out" ] || fail "installments --gantt that cannot be written: no report"
run plot "$ex/cluster.json" -o "$tmp/nodir/p.svg"
expect_rc 2 "plot -o into a folder that does not exist"
expect_err "^dlsched: -o $tmp/nodir/p.svg: cannot create" "plot -o: the option and the path"
run export-model "$ex/cluster.json" --format csv
expect_rc 2 "export-model csv of a constant model"
expect_err '^dlsched: processor "cpu0" has a constant model' "export-model: no function name"
printf 'name,size,speed\ncpu0,1000,2e9\ncpu0,2000,2e9\n' >"$tmp/t.csv"
run import csv "$tmp/t.csv" --merge "$ex/cluster.json"
expect_rc 2 "import --merge of a processor already there"
expect_err 'already in the platform (replace its model on purpose: --merge with --replace)$' \
    "import: the library's parameter named as the option"
grep -qs "dls_\|replace parameter" "$tmp/err" && fail "import: library words" "$(cat "$tmp/err")"

# - is standard input wherever a file is read; messages call it <stdin>.
stdin_run() {
    input=$1
    shift
    rc=0
    "$DLSCHED" "$@" <"$input" >"$tmp/out" 2>"$tmp/err" || rc=$?
    checks=$((checks + 1))
}
stdin_run "$ex/memory_levels.json" check -
expect_rc 0 "check -"
expect_out "^<stdin>: 4 processors" "check -: the input named"
printf '{"processors": [{"name": "a", "sped": 1e9}]}' >"$tmp/typo.json"
stdin_run "$tmp/typo.json" check -
expect_rc 2 "check - of a bad platform"
expect_err '^dlsched: <stdin>:1:[0-9]*: processor "a": unknown key "sped"' "check -: <stdin>:LINE:COL"
stdin_run "$ex/star_cluster.json" schedule - --load 1000 --json
expect_rc 0 "schedule -"
cp "$tmp/out" "$tmp/s.json"
stdin_run "$ex/star_cluster.json" partition - --elements 1000
expect_rc 0 "partition -"
stdin_run "$tmp/s.json" verify "$ex/star_cluster.json" -
expect_rc 0 "verify PLATFORM -"
expect_out "^valid" "verify -: the schedule read"
stdin_run "$ex/star_cluster.json" evaluate - --loads 0,0,1000,0,0
expect_rc 0 "evaluate -"
stdin_run "$tmp/t.csv" import csv - -o -
expect_rc 0 "import csv -"
expect_out '"name": "cpu0"' "import csv -: the processor imported"
printf '1\n2\n3\n' >"$tmp/w.txt"
stdin_run "$tmp/w.txt" partition "$ex/star_cluster.json" --weights -
expect_rc 0 "partition --weights -"
stdin_run "$ex/star_cluster.json" verify - -
expect_rc 2 "two inputs from standard input"
expect_err "only one input can be -" "two inputs from standard input: the reason"

cli_summary
