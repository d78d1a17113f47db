#!/bin/sh
# Runs libFuzzer targets one after the other, each for SECONDS, from the top of a build
# configured with --enable-fuzzing (`make fuzz` calls it; so does CI):
#
#     fuzz/run.sh SRCDIR SECONDS TARGET...
#
# Each target starts from its corpus in SRCDIR/fuzz/corpus/TARGET/ (never written to) and
# keeps what it finds in fuzz/work/TARGET/ of the build; an input that crashes, leaks, trips
# a sanitizer, runs out of memory (2 GB) or takes more than 10 s is saved in
# fuzz/artifacts/TARGET/ and printed in base64. Prints the executions and the coverage of
# each target; exit status 1 when any target found something.
set -u

if [ $# -lt 3 ]; then
    echo "usage: $0 SRCDIR SECONDS TARGET..." >&2
    exit 2
fi
srcdir=$1
seconds=$2
shift 2

# Longest input of each target: a platform file, a weights file or a command line with its
# files fit in 4 KB; a log of 40 points needs about 7.
max_len() {
    case $1 in
    bench_log) echo 12288 ;;
    *) echo 4096 ;;
    esac
}

status=0
for t in "$@"; do
    prog=./fuzz/fuzz_$t
    if [ ! -x "$prog" ]; then
        echo "fuzz_$t: $prog was not built (configure with CC=clang --enable-fuzzing)" >&2
        status=1
        continue
    fi
    work=fuzz/work/$t
    art=fuzz/artifacts/$t
    log=fuzz/artifacts/$t.log
    mkdir -p "$work" "$art"
    rm -f "$art"/*
    dict=
    if [ -f "$srcdir/fuzz/dict/$t.dict" ]; then
        dict=-dict=$srcdir/fuzz/dict/$t.dict
    fi
    echo "fuzz_$t: running for $seconds s (log in $log)"
    ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$prog" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$(max_len "$t")" -print_final_stats=1 -artifact_prefix="$art/" $dict \
        "$work" "$srcdir/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    last=$(grep -a '^#[0-9].*cov:' "$log" | tail -n 1)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
    found=$(ls "$art")
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        echo "fuzz_$t: FAILED (exit status $rc) after ${execs:-?} executions; the end of its log:"
        tail -n 80 "$log" | sed 's/^/    /'
        for f in $found; do
            echo "fuzz_$t: input $art/$f, in base64 (fuzz/replay_$t FILE replays it):"
            base64 "$art/$f" | sed 's/^/    /'
        done
        status=1
    else
        echo "fuzz_$t: ${execs:-?} executions in $seconds s (${rate:-?}/s), coverage: ${cov:-?} edges, ${ft:-?} features, ${corp:-?} inputs in the corpus; nothing found"
    fi
done
exit $status
