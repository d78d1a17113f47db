#!/bin/sh
# Checks --order of `dlsched schedule`, `evaluate` and `export` from the outside (issue 18):
# the send order itself, as a list of processor names or a file of them, gives what the
# platform rewritten in that order gives (table, Gantt chart, exported LP); every mistake is
# named, with its place, and exits 2; given and rate keep their report; the keywords win and
# "best," or "./rate" reach a processor or a file of those names; verify and crosscheck take
# given or rate only. The JSON report, hostile names and the best order against every
# permutation are checked by python3 in cli_order_json.sh.
. "${top_srcdir:-.}/tests/support/cli.sh"

# Absolute, since some checks run in $tmp (where "./rate" is a file).
case $DLSCHED in /*) ;; *) DLSCHED=$(pwd)/$DLSCHED ;; esac

# Four processors with startups, rates, limits and two memory levels, so that every order
# gives another schedule; R is the same platform in the order c, a, d, b.
P=$tmp/p4.json
R=$tmp/p4r.json
pa='{"name": "a", "time": [[0.3, 1.1e-3], [-40, 4.3e-3]], "link": {"startup": 0.21, "rate": 2.3e-4}}'
pb='{"name": "b", "time": [[0.1, 2.9e-3]], "link": {"startup": 0.05, "rate": 1.7e-4}, "limit": 900}'
pc='{"name": "c", "time": [[0.7, 0.6e-3], [-25, 2.9e-3]], "link": {"startup": 0.43, "rate": 3.1e-4}}'
pd='{"name": "d", "time": [[0, 1.9e-3]], "link": {"startup": 0.02, "rate": 0.9e-4}}'
printf '{"processors": [%s,\n%s,\n%s,\n%s]}\n' "$pa" "$pb" "$pc" "$pd" >"$P"
printf '{"processors": [%s,\n%s,\n%s,\n%s]}\n' "$pc" "$pa" "$pd" "$pb" >"$R"
V=3000

# The report of the reordered platform, without its first line (which names the file).
run schedule "$R" --load "$V"
expect_rc 0 "the reordered platform"
sed 1d "$tmp/out" >"$tmp/want"

# same_as WANT WHAT: the last report, without its first line and the line on the send
# order, is WANT.
same_as() {
    checks=$((checks + 1))
    sed -e 1d -e '/^send order: /d' "$tmp/out" >"$tmp/got"
    cmp -s "$1" "$tmp/got" ||
        fail "$2: not the schedule of the platform written in that order" "$(diff "$1" "$tmp/got")"
}

# The list form.
for list in c,a,d,b c,a,d,b, "c, a ,d,b" "c,a,d,b , "; do
    run schedule "$P" --load "$V" --order "$list"
    if rc_is 0 "--order \"$list\""; then
        same_as "$tmp/want" "--order \"$list\""
        expect_out "^send order: as listed by --order$" "--order \"$list\": the order line"
    fi
done
run schedule "$P" --load "$V" --order=c,a,d,b
expect_rc 0 "--order=LIST"

# The file form: one name per line, or several separated by commas; blank lines, comments,
# blanks around names, CRLF line ends and a byte order mark are all right.
printf 'c\na\nd\nb\n' >"$tmp/plain.txt"
printf '# the order of R\n\n  c  \r\n# a comment\n\na\t\r\nd\nb' >"$tmp/loose.txt"
printf 'c, a\nd,b,\n' >"$tmp/commas.txt"
printf '\357\273\277c\na\nd\nb\n' >"$tmp/bom.txt"
for f in plain loose commas bom; do
    run schedule "$P" --load "$V" --order "$tmp/$f.txt"
    if rc_is 0 "--order FILE ($f)"; then
        same_as "$tmp/want" "--order FILE ($f)"
        expect_out "^send order: as in $tmp/$f.txt$" "--order FILE ($f): the order line"
    fi
done

# The Gantt chart draws the sends and the lanes in that order.
run schedule "$P" --load "$V" --order c,a,d,b --gantt "$tmp/g.svg"
expect_rc 0 "--gantt with an explicit order"
lanes=$(grep -o '<title>send to [^:]*' "$tmp/g.svg" | sed 's/<title>send to //' | tr '\n' ' ')
checks=$((checks + 1))
[ "$lanes" = "c a d b " ] || fail "the Gantt chart's sends are not in the order asked" "$lanes"

# given and rate: the report as before, with no line on the order; rate is its list.
run schedule "$P" --load "$V"
cp "$tmp/out" "$tmp/default"
run schedule "$P" --load "$V" --order given
expect_rc 0 "--order given"
checks=$((checks + 1))
cmp -s "$tmp/default" "$tmp/out" || fail "--order given changed the report" "$(diff "$tmp/default" "$tmp/out")"
run schedule "$P" --load "$V" --order rate
expect_rc 0 "--order rate"
sed 1d "$tmp/out" >"$tmp/rate_report"
checks=$((checks + 1))
! grep -q "^send order" "$tmp/out" || fail "--order rate: a line on the order" "$(cat "$tmp/out")"
run schedule "$P" --load "$V" --order d,b,a,c
expect_rc 0 "the rate order as a list"
same_as "$tmp/rate_report" "the rate order as a list"

# evaluate: the loads stay in platform order; the timeline is the reordered platform's.
run evaluate "$R" --loads 3,1,4,2
expect_rc 0 "evaluate on the reordered platform"
sed 1d "$tmp/out" >"$tmp/want_eval"
run evaluate "$P" --loads 1,2,3,4 --order c,a,d,b
expect_rc 0 "evaluate --order LIST"
same_as "$tmp/want_eval" "evaluate --order LIST"
run evaluate "$P" --loads 1,2,3,4 --order "$tmp/plain.txt"
expect_rc 0 "evaluate --order FILE"
same_as "$tmp/want_eval" "evaluate --order FILE"

# export: the LP of the reordered platform, byte for byte.
for fmt in lp mps glpk mathprog; do
    run export "$R" --load "$V" --format "$fmt" -o "$tmp/want.$fmt"
    expect_rc 0 "export $fmt of the reordered platform"
    run export "$P" --load "$V" --format "$fmt" -o "$tmp/got.$fmt" --order "$tmp/commas.txt"
    expect_rc 0 "export $fmt --order FILE"
    checks=$((checks + 1))
    cmp -s "$tmp/want.$fmt" "$tmp/got.$fmt" || fail "export $fmt --order FILE: another LP"
done

# Mistakes in a list: the name and its place, exit 2.
# bad_order WHAT PATTERN ARGS...: runs ARGS, expects exit 2 and PATTERN in the messages.
bad_order() {
    bo_what=$1
    bo_pattern=$2
    shift 2
    run "$@"
    if rc_is 2 "$bo_what"; then
        expect_err "$bo_pattern" "$bo_what: message"
    fi
}
bad_order "unknown name" '--order, name 3: "x" is not a processor of' \
    schedule "$P" --load "$V" --order c,a,x,b
bad_order "a name twice" '--order, name 3: "c" is named twice (first as name 1)' \
    schedule "$P" --load "$V" --order c,a,c,d,b
bad_order "names left out" 'leaves out 2 of the 4 processors of .*: "b", "d"' \
    schedule "$P" --load "$V" --order c,a
bad_order "an empty name" '--order, name 2 is empty' schedule "$P" --load "$V" --order c,,a,d,b
bad_order "a comma alone" '--order, name 1 is empty' schedule "$P" --load "$V" --order ,
bad_order "an empty value" 'needs a non-empty' schedule "$P" --load "$V" --order ""
bad_order "evaluate: unknown name" '"x" is not a processor' \
    evaluate "$P" --loads 1,2,3,4 --order c,a,x,b
bad_order "export: unknown name" '"x" is not a processor' \
    export "$P" --load "$V" --format lp -o "$tmp/x.lp" --order c,a,x,b
checks=$((checks + 1))
[ ! -e "$tmp/x.lp" ] || fail "export wrote the LP of a bad order"

# Mistakes in a file: FILE:LINE.
# An --order file NAME in $tmp holding CONTENT (a printf format), refused with PATTERN.
bad_order_file() { # NAME CONTENT WHAT PATTERN
    # shellcheck disable=SC2059
    printf "$2" >"$tmp/$1"
    bad_order "$3" "$4" schedule "$P" --load "$V" --order "$tmp/$1"
}
bad_order_file unknown.txt 'c\na\n\n# x\nx\n' "file: unknown name" \
    "$tmp/unknown.txt:5: \"x\" is not a processor"
bad_order_file unknown2.txt 'c, a\nd, x\n' "file: unknown name on a line of several" \
    "$tmp/unknown2.txt:2, name 2 on the line: \"x\" is not a processor"
bad_order_file twice.txt 'c\na\nd\nb\nc\n' "file: a name twice" \
    "$tmp/twice.txt:5: \"c\" is named twice (first on line 1)"
bad_order_file short.txt 'c\nd\n' "file: names left out" \
    "$tmp/short.txt leaves out 2 of the 4 processors"
bad_order_file empty.txt '' "file: empty" \
    "$tmp/empty.txt holds no processor names"
bad_order_file comments.txt '# only\n\n   \n# comments\n' "file: comments only" \
    "$tmp/comments.txt holds no processor names"
bad_order_file bytes.txt 'c\na\n\377\001x\n' "file: bytes that are not text, quoted" \
    "$tmp/bytes.txt:3: \"\\\\xff\\\\x01x\" is not a processor"
bad_order_file nul.txt 'c\na\000\nd\nb\n' "file: a NUL byte" \
    "$tmp/nul.txt:2: holds a NUL byte"
bad_order "file: missing" "--order $tmp/none.txt: cannot open" \
    schedule "$P" --load "$V" --order "$tmp/none.txt"
mkdir "$tmp/dir"
bad_order "file: a directory" "--order $tmp/dir: is a directory" \
    schedule "$P" --load "$V" --order "$tmp/dir"
cp "$tmp/plain.txt" "$tmp/locked.txt"
chmod 000 "$tmp/locked.txt"
if [ -r "$tmp/locked.txt" ]; then
    echo "$cli_name: SKIP: an unreadable file can be read here (root): not checked"
else
    bad_order "file: unreadable" "--order $tmp/locked.txt: cannot open: Permission denied" \
        schedule "$P" --load "$V" --order "$tmp/locked.txt"
fi
# issue 35, item 3: the file is read with a bound (it was read with an unbounded getline: a
# stream without a newline grew memory without limit): a NUL byte stops it at once, a file
# past the bound is refused before it is read; a FIFO is read like a file.
bad_order "file: /dev/zero" "--order /dev/zero:1: holds a NUL byte" \
    schedule "$P" --load "$V" --order /dev/zero
if truncate -s 1100M "$tmp/huge.txt" 2>/dev/null; then
    bad_order "file: past the bound" "--order $tmp/huge.txt: is 1153433600 bytes, more than 1073741824" \
        schedule "$P" --load "$V" --order "$tmp/huge.txt"
fi
if mkfifo "$tmp/fifo" 2>/dev/null; then
    cat "$tmp/plain.txt" >"$tmp/fifo" &
    run schedule "$P" --load "$V" --order "$tmp/fifo"
    exec 3<>"$tmp/fifo" # the writer ends even when the FIFO was not read
    wait
    exec 3<&-
    if rc_is 0 "--order FIFO"; then
        same_as "$tmp/want" "--order FIFO"
    fi
fi
# A name of 4096 bytes, the most a platform takes, alone on its line.
long=$(printf '%4096s' '' | tr ' ' n)
printf '{"processors": [{"name": "%s", "time": [[0, 1e-3]], "link": {"startup": 0.1, "rate": 1e-4}},\n%s]}\n' \
    "$long" "$pd" >"$tmp/long.json"
printf 'd\n%s\n' "$long" >"$tmp/long.txt"
run schedule "$tmp/long.json" --load "$V" --order "$tmp/long.txt"
expect_rc 0 "--order FILE with a 4096-byte name"
expect_out "^send order: as in $tmp/long.txt$" "--order FILE with a 4096-byte name: the order line"

# A single name without a comma is a file; the message says how to write a list of one.
bad_order "a name alone" '"c" is a processor: a list of names holds commas' \
    schedule "$P" --load "$V" --order c
# "sequence" is no keyword of the command line: a file like any other word.
bad_order "sequence is no keyword" "--order sequence: cannot open" \
    schedule "$P" --load "$V" --order sequence

# The keywords win; "best," is a processor called best and "./rate" a file called rate.
printf '{"processors": [{"name": "best", "time": [[0, 1e-3]], "link": {"startup": 0.1, "rate": 1e-4}}]}\n' \
    >"$tmp/best.json"
run schedule "$tmp/best.json" --load 10 --order best,
expect_rc 0 "a processor called best"
expect_out "^send order: as listed by --order$" "\"best,\" is a list"
cd "$tmp"
printf 'd\nb\na\nc\n' >rate
run schedule "$P" --load "$V" --order rate
expect_rc 0 "--order rate beside a file called rate"
checks=$((checks + 1))
! grep -q "^send order" "$tmp/out" || fail "--order rate read the file called rate"
run schedule "$P" --load "$V" --order ./rate
expect_rc 0 "--order ./rate"
expect_out "^send order: as in ./rate$" "--order ./rate is the file"
same_as "$tmp/rate_report" "--order ./rate"
cd "$OLDPWD"

# --order best: not for evaluate and export (they take the order it finds), nor with the
# modes that work in one order; its options need it.
bad_order "evaluate --order best" 'evaluate: --order best: .*dlsched schedule --order best' \
    evaluate "$P" --loads 1,2,3,4 --order best
bad_order "export --order best" 'export: --order best: .*dlsched schedule --order best' \
    export "$P" --load "$V" --format lp -o "$tmp/x.lp" --order best
for mode in --integer --exact-shape --curve; do
    bad_order "--order best $mode" "--order best and $mode do not go together" \
        schedule "$P" --load "$V" --order best $mode
done
for opt in order-exact-max order-candidates; do
    bad_order "--$opt without --order best" "--$opt applies to --order best" \
        schedule "$P" --load "$V" --$opt 3
    bad_order "--$opt with an explicit order" "--$opt applies to --order best" \
        schedule "$P" --load "$V" --$opt 3 --order c,a,d,b
done
bad_order "--order-exact-max past its bound" "--order-exact-max must be in \[1, 22\]" \
    schedule "$P" --load "$V" --order best --order-exact-max 23
bad_order "--order-candidates 0" "--order-candidates must be a whole number >= 1, not 0" \
    schedule "$P" --load "$V" --order best --order-candidates 0

# The help and its defaults, read from the library.
run help schedule
# the help of an option wraps under it: read as one line
flat() { tr '\n' ' ' <"$tmp/out" | tr -s ' '; }
flat | grep -q "given (the platform's), rate (fastest links first), best (the least makespan, searched), or NAME,NAME,... or a FILE of names, every processor once" ||
    fail "schedule help: the forms of --order" "$(cat "$tmp/out")"
expect_out "^  --order-exact-max N " "help: --order-exact-max"
flat | grep -q -- "locally past them (default 16)" ||
    fail "help: the default of --order-exact-max" "$(cat "$tmp/out")"
expect_out "^  --order-candidates N" "help: --order-candidates"
flat | grep -q -- "--time-limit S .*60 for the order search)" ||
    fail "help: the order search's time limit" "$(cat "$tmp/out")"
for cmd in evaluate export; do
    run help "$cmd"
    flat | grep -q "given (the platform's), rate (fastest links first), or NAME,NAME,... or a FILE" ||
        fail "$cmd help: the forms of --order" "$(cat "$tmp/out")"
done

# verify and crosscheck: given or rate only, best refused with the reason.
run schedule "$P" --load "$V" --json
cp "$tmp/out" "$tmp/claim.json"
run verify "$P" "$tmp/claim.json" --order rate
expect_rc 0 "verify --order rate"
bad_order "verify --order best" "verify: --order best: the schedule is measured against" \
    verify "$P" "$tmp/claim.json" --order best
bad_order "verify with a list" 'verify: --order must be given or rate, not "c,a,d,b"' \
    verify "$P" "$tmp/claim.json" --order c,a,d,b
bad_order "crosscheck --order best" "crosscheck: --order best: the checks compare" \
    crosscheck "$P" --load "$V" --order best
bad_order "crosscheck with a file" "crosscheck: --order must be given or rate" \
    crosscheck "$P" --load "$V" --order "$tmp/plain.txt"
run crosscheck "$P" --load "$V" --order rate
checks=$((checks + 1))
[ "$rc" -ne 2 ] || fail "crosscheck --order rate refused" "$(cat "$tmp/err")"

# The best order (its figures against every order are checked in cli_order_json.sh).
run schedule "$P" --load "$V" --order best
if rc_is 0 "--order best"; then
    expect_out "^send order: best, by .*(proven best); the platform's order [0-9.e+-]* s" \
        "--order best: how the order was found, against the platform's order"
    expect_out "the rate order [0-9.e+-]* s" "--order best: against the rate order"
    expect_out "; lower bound [0-9.e+-]* s (gap " "--order best: the lower bound"
fi
# the local search, bounded in candidates and in time
run schedule "$P" --load "$V" --order best --order-exact-max 1 --order-candidates 3 \
    --time-limit 30
if rc_is 0 "--order best by the local search"; then
    expect_out "^send order: best, by \(the local search over [0-3] candidate orders\|a rule\)" \
        "--order best --order-exact-max 1: the local search"
fi

cli_summary
