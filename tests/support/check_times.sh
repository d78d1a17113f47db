#!/bin/sh
# Prints the wall time of each suite from the .trs files given (those of the last make
# check; tests/support/timed_driver.sh records it), slowest first: the CHECK_TIMES_MOST
# slowest (15 by default; 0 for all), then the sum. Silent when no file holds a time.
most=${CHECK_TIMES_MOST:-15}
for trs in "$@"; do
    [ -f "$trs" ] && sed -n "s|^:wall-time: *|${trs%.trs} |p" "$trs"
done | sort -k2,2 -n -r | awk -v most="$most" '
    { total += $2; n++
      if (most == 0 || n <= most) line[n] = sprintf("%9.2f s  %s", $2, $1) }
    END {
        if (n == 0) exit 0
        shown = (most == 0 || n < most) ? n : most
        printf "Wall time of the suites, slowest first (%d of %d):\n", shown, n
        for (i = 1; i <= shown; i++) print line[i]
        printf "%9.2f s  in all\n", total
    }'
