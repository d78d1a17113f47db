#!/bin/sh
# Runs automake's test driver (the command given first, then its usual arguments) and adds
# the suite's wall time in seconds to the .trs file as ":wall-time: S", which automake's
# harness ignores and tests/support/check_times.sh sums up. The clock is date(1)'s
# (+%s.%N where it knows %N, whole seconds elsewhere): two calls, no cost to the suite.
trs=
prev=
for arg in "$@"; do
    [ "$prev" = --trs-file ] && trs=$arg
    prev=$arg
done
now() {
    t=$(date +%s.%N 2>/dev/null)
    case $t in *N* | '') date +%s ;; *) echo "$t" ;; esac
}
start=$(now)
"$@"
st=$?
if [ -n "$trs" ] && [ -f "$trs" ]; then
    end=$(now)
    awk -v a="$start" -v b="$end" 'BEGIN { printf ":wall-time: %.2f\n", b - a }' >>"$trs"
fi
exit $st
