#!/bin/sh
# Checks `dlsched partition` from the outside: tables, JSON output, ordered and weighted
# sets, striped matrices, infeasibility (exit 1) and bad usage (exit 2). The JSON contract
# is read by python3 in cli_partition_json.sh.
. "${top_srcdir:-.}/tests/support/cli.sh"

# A table with one line per processor and the summary.
run partition "$ex/memory_levels.json" --elements 100000000
expect_rc 0 "table"
expect_out "new-epyc" "table lacks a processor"
expect_out "makespan .* lower bound .* optimal" "table lacks the summary"

# JSON output (its contract: cli_partition_json.sh).
run partition "$ex/memory_levels.json" --elements 100000000 --json
expect_rc 0 "json"

# Both root-finding methods give the same makespan.
run partition "$ex/memory_levels.json" --elements 123456789 --json
m1=$(grep '"makespan"' "$tmp/out")
run partition "$ex/memory_levels.json" --elements 123456789 --json --method bisection
m2=$(grep '"makespan"' "$tmp/out")
[ "$m1" = "$m2" ] || fail "methods disagree: $m1 / $m2"

# Ordered sets add "first".
run partition "$ex/memory_levels.json" --elements 1000 --ordered --json
expect_rc 0 "ordered"
expect_out '"first": 0' "ordered: no first"

# Weighted sets, from plain numbers and from a JSON array.
printf '# weights\n5 3 8\n2.5\n1 1 1\n' > "$tmp/w.txt"
run partition "$ex/star_two.json" --weights "$tmp/w.txt" --json
expect_rc 0 "weights"
expect_out '"weight"' "weights: no weight field"
expect_out '"assignment"' "weights: no assignment"
printf '[5, 3, 8, 2.5, 1, 1, 1]' > "$tmp/w.json"
run partition "$ex/star_two.json" --weights "$tmp/w.json" --ordered
expect_rc 0 "weights json ordered"
run partition "$ex/star_two.json" --weights "$tmp/w.json" --elements 6
expect_rc 2 "weights count mismatch"
expect_err "holds 7 weights" "mismatch message"
printf '1 2\nthree\n' > "$tmp/bad.txt"
run partition "$ex/star_two.json" --weights "$tmp/bad.txt"
expect_rc 2 "bad weight"
grep -q "bad.txt:2: \"three\" is not a number" "$tmp/err" || fail "bad weight message" "$(cat "$tmp/err")"
printf '1 -2\n' > "$tmp/neg.txt"
run partition "$ex/star_two.json" --weights "$tmp/neg.txt"
expect_rc 2 "negative weight"
# issue 35: weights held to the domain, located; a number of any length is one number (words
# were cut at 127 bytes, a long one read as two); the reader bounded (/dev/zero refused)
printf '1 2\n3 1e-300\n' > "$tmp/tiny.txt"
run partition "$ex/star_two.json" --weights "$tmp/tiny.txt"
expect_refused 2 "a weight below the domain" "tiny.txt:2: weight 4 is 1e-300, outside the domain"
printf '[1, 2, 1e61]' > "$tmp/huge.json"
run partition "$ex/star_two.json" --weights "$tmp/huge.json"
expect_refused 2 "a JSON weight past the domain" "weight 3 is 1e+61, outside the domain"
printf '1 %s2 3\n' "$(printf '%200s' '' | tr ' ' 0)" > "$tmp/long.txt"
run partition "$ex/star_two.json" --weights "$tmp/long.txt" --json
expect_rc 0 "a weight written with 201 digits"
expect_out '"elements": 3' "a weight written with 201 digits is one weight"
run partition "$ex/star_two.json" --weights /dev/zero
expect_refused 2 "weights from /dev/zero" "/dev/zero:1: holds a NUL byte"

# Striped matrix multiplication needs --matrix with 2-D models.
run partition "$ex/striped_mm.json" --matrix 6000 --json
expect_rc 0 "matrix"
run partition "$ex/striped_mm.json" --elements 6000
expect_rc 2 "2-D model without --matrix"
expect_err 'processor "X1" has a 2-D speed model' "2-D message"

# Infeasible: the limits cannot hold the set.
cat > "$tmp/small.json" <<'JSON'
{"processors": [{"name": "a", "speed": 10, "limit": 100}, {"name": "b", "speed": 5, "limit": 50.5}]}
JSON
run partition "$tmp/small.json" --elements 151
expect_rc 1 "infeasible"
expect_err "at most 150 elements" "infeasible message"
run partition "$tmp/small.json" --elements 151 --no-limits
expect_rc 0 "--no-limits"
run partition "$tmp/small.json" --elements 150
expect_rc 0 "exactly the capacity"

# Usage errors.
run partition "$tmp/small.json"
expect_rc 2 "no --elements"
run partition "$tmp/small.json" --elements 10 --reorder
expect_rc 2 "--reorder without --ordered"
run partition "$tmp/small.json" --elements ten
expect_rc 2 "--elements not a number"
run partition "$tmp/small.json" --elements 1e300
expect_rc 2 "--elements too large"
run partition "$tmp/small.json" --elements 10 --method magic
expect_rc 2 "unknown method"
run partition "$tmp/small.json" --matrix 10 --elements 3
expect_rc 2 "--matrix with --elements"
run help partition
expect_rc 0 "help partition"
grep -q -- "--weights" "$tmp/out" || fail "help lacks --weights"

# Issue 34: the partition problem leaves links out, and says so, naming schedule: a laptop
# on Wi-Fi given 6.25 M elements would take 8 s to receive them.
cat > "$tmp/wifi.json" <<'EOF2'
{"processors": [
  {"name": "node", "speed": 5e8},
  {"name": "laptop", "speed": 3.2e7, "link": {"startup": 0.005, "rate": 1.28e-6}}]}
EOF2
run partition "$tmp/wifi.json" --elements 1e8
expect_rc 0 "partition with links"
expect_err 'warning: 1 of 2 processors has a link, which the partition problem leaves out' \
    "partition with links: the warning"
expect_err 'sending "laptop" its 601503[0-9] elements alone would take 7.7 s' \
    "partition with links: the longest send"
expect_err 'dlsched schedule .*wifi.json --load 100000000` schedules the sends too' \
    "partition with links: names schedule"
printf '{"processors": [{"name": "a", "speed": 5e8}, {"name": "b", "speed": 3e7,
  "link": {"startup": 0, "rate": 0}}]}\n' > "$tmp/nolinks.json"
run partition "$tmp/nolinks.json" --elements 1000
expect_rc 0 "partition without links"
if grep -q "have a link" "$tmp/err"; then fail "partition without links: a links warning"; fi

# Tables for people (issue 36, item 2): whole elements, their share in percent, times with
# one count of decimals, plurals right.
run partition "$ex/memory_levels.json" --elements 1e8
expect_rc 0 "partition table"
expect_out "100000000 elements over 4 processors" "partition table: title"
expect_out "NAME      ELEMENTS  SHARE (%)  TIME (s)" "partition table: headers"
expect_out "^  gpu       24000000    24.0000       2.2$" "partition table: a share, one count of decimals per column"
run partition "$ex/star_two.json" --elements 1
expect_rc 0 "partition of one element"
expect_out "1 element over 2 processors" "partition: 1 element"
expect_out "^  P2  *0  *0.000  *unused$" "partition: a processor given nothing reads unused"
expect_err 'sending "P1" its 1 element alone' "partition: 1 element in the warning"
run partition "$ex/star_two.json" --elements 1000 --digits 2
expect_rc 0 "partition --digits 2"
expect_out "^  P1  *[0-9]*  *[0-9][0-9]  *[0-9.]*$" "partition --digits 2: a share in 2 digits"

cli_summary
