# Shared by the command-line suites (tests/tool/*.sh); POSIX sh. A suite starts with
#     . "${top_srcdir:-.}/tests/support/cli.sh"
# and ends with `cli_summary`. `make check` sets DLSCHED (the program), top_srcdir (the
# source tree) and PYTHON3 (python3 as configure found it, empty when it found none); run
# by hand from the top of a built tree, the defaults below serve. Nothing else is assumed
# about the working directory, so the suites run in VPATH builds and `make distcheck` too.
#
# What a suite gets:
#   $ex                     the shipped examples ($top_srcdir/examples)
#   $tmp                    a fresh temporary directory, removed on exit
#   fail WHAT [DETAIL]      records a failed check (DETAIL is printed indented)
#   run ARGS...             runs $DLSCHED ARGS: sets $rc, leaves $tmp/out and $tmp/err
#   expect_rc WANT WHAT     checks the last run's exit status
#   rc_is WANT WHAT         the same, and returns non-zero when it differs (for `if`)
#   expect_out PATTERN WHAT, expect_err PATTERN WHAT
#                           a line of the last run's output (messages) matches PATTERN
#   need_program FILE...    a missing program is an error of the suite (exit 99)
#   need_python3            skips the whole suite (exit 77) when there is no python3
#   skip WHY                skips the whole suite (exit 77), saying why
#   skip_unless VALUE WHY   the same when VALUE is empty
#   certify ARGS...         runs validation/certify.py ARGS against $DLSCHED and $GLPSOL
#                           into $tmp/log (shown), $vrc its status: a failed check, or
#                           the suite skipped when it skips
#   py_check WHAT ARGS... <<'PY'
#                           runs the python3 script on stdin with ARGS; a failed
#                           assertion (any non-zero exit) is a failed check
#   py_json WHAT [FILE [ARGS...]] <<'PY'
#                           the same with `json` and `sys` imported and `d` the JSON
#                           document in FILE (default $tmp/out), which is shown on failure
#   cli_summary [NOTE]      prints the verdict and exits (1 when a check failed)
set -eu

: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
# Unset: run by hand, look python3 up. Set but empty: configure found none.
: "${PYTHON3=$(command -v python3 || true)}"

cli_name=${0##*/}
cli_name=${cli_name%.sh}
ex=$top_srcdir/examples
checks=0
failures=0

need_program() {
    for cli_p in "$@"; do
        if [ ! -x "$cli_p" ]; then
            echo "$cli_name: the program $cli_p does not exist or is not executable"
            exit 99
        fi
    done
}

need_program "$DLSCHED"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-$cli_name.XXXXXX")
# chmod: a suite may leave a read-only directory behind
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
    failures=$((failures + 1))
    printf 'FAIL: %s\n' "$1"
    if [ $# -gt 1 ]; then
        printf '%s\n' "$2" | sed 's/^/    /'
    fi
}

run() {
    rc=0
    "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    checks=$((checks + 1))
}

rc_is() {
    if [ "$rc" -ne "$1" ]; then
        fail "$2: exit status $rc, expected $1" "stdout: $(cat "$tmp/out")
stderr: $(cat "$tmp/err")"
        return 1
    fi
}

expect_rc() {
    rc_is "$@" || true
}

expect_out() {
    grep -q -- "$1" "$tmp/out" || fail "$2: no \"$1\" in the output" "$(cat "$tmp/out")"
}

expect_err() {
    grep -q -- "$1" "$tmp/err" || fail "$2: no \"$1\" in the messages" "$(cat "$tmp/err")"
}

# expect_refused STATUS WHAT PART: the run ended with STATUS, its messages holding PART.
expect_refused() {
    expect_rc "$1" "$2"
    expect_err "$3" "$2: message"
}

skip() {
    echo "$cli_name: SKIP: $1"
    exit 77
}

skip_unless() {
    [ -n "$1" ] || skip "$2"
}

need_python3() {
    skip_unless "$PYTHON3" "no python3 (PYTHON3 is empty), so these checks cannot run"
}

certify() {
    checks=$((checks + 1))
    vrc=0
    PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" "$top_srcdir/validation/certify.py" "$@" \
        --manifest "$top_srcdir/validation/manifest.json" --dlsched "$DLSCHED" \
        --glpsol "$GLPSOL" >"$tmp/log" 2>&1 || vrc=$?
    case $vrc in
    0) cat "$tmp/log" ;;
    77) cat "$tmp/log"; exit 77 ;;
    *) fail "certify.py $* exited $vrc" "$(cat "$tmp/log")" ;;
    esac
}

# cli_python WHAT SHOWN ARGS...: runs $tmp/check.py with ARGS; on failure shows its output
# and the file SHOWN (when not empty).
cli_python() {
    cli_what=$1
    cli_shown=$2
    shift 2
    checks=$((checks + 1))
    if ! "$PYTHON3" "$tmp/check.py" "$@" >"$tmp/py" 2>&1; then
        fail "$cli_what" "$(cat "$tmp/py")${cli_shown:+
document: $(cat "$cli_shown")}"
    fi
}

py_check() {
    cli_what=$1
    shift
    cat >"$tmp/check.py"
    cli_python "$cli_what" "" "$@"
}

py_json() {
    cli_what=$1
    shift
    cli_doc=${1:-$tmp/out}
    [ $# -eq 0 ] || shift
    {
        printf 'import json, sys\nd = json.load(open(sys.argv[1]))\n'
        cat
    } >"$tmp/check.py"
    cli_python "$cli_what" "$cli_doc" "$cli_doc" "$@"
}

cli_summary() {
    if [ "$failures" -ne 0 ]; then
        echo "$cli_name: $failures of $checks checks FAILED${1:+ ($1)}"
        exit 1
    fi
    echo "$cli_name: all $checks checks passed${1:+ ($1)}"
    exit 0
}
