#!/bin/sh
# Checks the dlsched program from the outside: every malformed platform file under
# tests/data/bad/ must be rejected with exit status 2 and the expected located message,
# the shipped examples must be accepted, the usage rules must hold and shape warnings
# must be reported.
#
# Run by `make check` with DLSCHED (the program) and top_srcdir (the source tree); may run
# from another build directory (VPATH builds, make distcheck), so nothing else is assumed.
# Each tests/data/bad/NAME.json has a NAME.expected holding one line: a substring of the
# error message starting at the colon before the line number, e.g.
#     :4:77: processor "gpu0": speed point 3 has a negative speed
. "${top_srcdir:-.}/tests/support/cli.sh"

MIN_BAD=30
bad_dir=$top_srcdir/tests/data/bad

# ------------------------------------------------------------------------------------
# 1. Malformed platform files.
nbad=0
for f in "$bad_dir"/*.json; do
    [ -e "$f" ] || continue
    nbad=$((nbad + 1))
    name=${f##*/}
    expfile=${f%.json}.expected
    if [ ! -f "$expfile" ]; then
        checks=$((checks + 1))
        fail "$name: no ${expfile##*/} next to it"
        continue
    fi
    exp=
    IFS= read -r exp <"$expfile" || true
    exp_pos=$(printf '%s\n' "$exp" | sed -n 's/^\(:[0-9][0-9]*:[0-9][0-9]*:\) .*/\1/p')
    if [ -z "$exp_pos" ]; then
        checks=$((checks + 1))
        fail "${expfile##*/}: must start with :LINE:COLUMN: followed by a space" "it holds: $exp"
        continue
    fi

    run check "$f"
    err=$(cat "$tmp/err")
    problems=
    if [ "$rc" -ne 2 ]; then
        problems="exit status $rc, expected 2"
    fi
    if [ -s "$tmp/out" ]; then
        problems="${problems:+$problems; }stdout is not empty"
    fi
    case $err in
        "dlsched: "*) ;;
        *) problems="${problems:+$problems; }stderr does not start with \"dlsched: \"" ;;
    esac
    rest=${err#"dlsched: $f"}
    got_pos=
    if [ "$rest" != "$err" ]; then
        got_pos=$(printf '%s\n' "$rest" | sed -n '1s/^\(:[0-9][0-9]*:[0-9][0-9]*:\) .*/\1/p')
    fi
    if [ -z "$got_pos" ]; then
        problems="${problems:+$problems; }no :LINE:COLUMN: right after the file name"
    elif [ "$got_pos" != "$exp_pos" ]; then
        problems="${problems:+$problems; }position $got_pos, expected $exp_pos"
    fi
    case $err in
        *"$exp"*) ;;
        *) problems="${problems:+$problems; }message lacks the expected text" ;;
    esac
    if [ -n "$problems" ]; then
        fail "$name: $problems" "expected: $exp
actual:   $err"
    fi
done
for e in "$bad_dir"/*.expected; do
    [ -e "$e" ] || continue
    if [ ! -f "${e%.expected}.json" ]; then
        checks=$((checks + 1))
        base=${e##*/}
        fail "$base: no ${base%.expected}.json next to it"
    fi
done
checks=$((checks + 1))
if [ "$nbad" -lt "$MIN_BAD" ]; then
    fail "only $nbad malformed platform files in $bad_dir (at least $MIN_BAD expected)"
fi

# ------------------------------------------------------------------------------------
# 2. The shipped examples are valid.
nex=0
for f in "$ex"/*.json; do
    [ -e "$f" ] || continue
    nex=$((nex + 1))
    name=examples/${f##*/}

    run check "$f"
    if [ "$rc" -ne 0 ]; then
        fail "check $name: exit status $rc, expected 0" "$(cat "$tmp/err")"
        continue
    fi
    # Header "FILE: N processors", a column header, then one line per processor (indented).
    n=$(sed -n '1s/^.*: \([0-9][0-9]*\) processors\{0,1\}$/\1/p' "$tmp/out")
    lines=$(sed -n '3,$p' "$tmp/out" | grep -c '^  ' || true)
    if [ -z "$n" ] || [ "$n" -lt 1 ] || [ "$lines" -ne "$n" ]; then
        fail "check $name: expected a header 'FILE: N processors' and N processor lines" \
            "$(cat "$tmp/out")"
    fi
    if ! tail -n 1 "$tmp/out" | grep -q ' is valid ('; then
        fail "check $name: the last line does not say the file is valid" "$(cat "$tmp/out")"
    fi

    run check "$f" --json
    if [ "$rc" -ne 0 ]; then
        fail "check --json $name: exit status $rc, expected 0" "$(cat "$tmp/err")"
        continue
    fi
    if ! grep -q '"valid": *true' "$tmp/out"; then
        fail "check --json $name: no \"valid\": true in the output" "$(cat "$tmp/out")"
    fi
done
checks=$((checks + 1))
if [ "$nex" -eq 0 ]; then
    fail "no example platform in $top_srcdir/examples"
fi

# ------------------------------------------------------------------------------------
# 3. Usage.
run --help
if rc_is 0 "dlsched --help" && ! grep -q '^ *check ' "$tmp/out"; then
    fail "dlsched --help does not list the check command" "$(cat "$tmp/out")"
fi
run --version
if rc_is 0 "dlsched --version" &&
    ! head -n 1 "$tmp/out" | grep -Eq '^dlsched [0-9]+\.[0-9]+'; then
    fail "dlsched --version does not print 'dlsched VERSION'" "$(cat "$tmp/out")"
fi
run help check
if rc_is 0 "dlsched help check" && ! grep -q -e '--json' "$tmp/out"; then
    fail "dlsched help check does not mention --json" "$(cat "$tmp/out")"
fi
run
expect_rc 2 "dlsched without arguments"
run no-such-command
expect_rc 2 "dlsched no-such-command"
run check
expect_rc 2 "dlsched check without a file"
run check --no-such-option "$ex/cluster.json"
expect_rc 2 "dlsched check --no-such-option"
missing=$tmp/no-such-platform.json
run check "$missing"
if rc_is 2 "dlsched check on a missing file"; then
    case $(cat "$tmp/err") in
        "dlsched: "*"$missing"*) ;;
        *) fail "dlsched check on a missing file: the message does not name the file" \
               "$(cat "$tmp/err")" ;;
    esac
fi
run help nosuchcommand
expect_rc 2 "dlsched help nosuchcommand"

# ------------------------------------------------------------------------------------
# 4. Shape warnings: x/s(x) is 1, 0.4, 0.5 -- it falls on [1, 2].
rising=$top_srcdir/tests/data/shape_warning.json
run check "$rising"
if rc_is 0 "check on a platform with a shape warning"; then
    if ! grep '^warning: ' "$tmp/out" | grep 'processor "steep"' | grep -qF '[1, 2]'; then
        fail "check: no warning naming processor \"steep\" and the range [1, 2]" "$(cat "$tmp/out")"
    fi
fi
run check "$rising" --json
if rc_is 0 "check --json on a platform with a shape warning"; then
    if ! grep -F '[1, 2]' "$tmp/out" | grep -q 'processor \\"steep\\"'; then
        fail "check --json: no warning naming the range [1, 2]" "$(cat "$tmp/out")"
    fi
fi

# ------------------------------------------------------------------------------------
cli_summary "$nbad malformed files, $nex examples"
