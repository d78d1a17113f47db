#!/bin/sh
# The certified reference suite (validation/): a fixed sample of 20 instances, one or two of
# every family, recertified independently of dlsched (exact LPs with glpsol --exact,
# enumeration, closed forms) and compared with dlsched's answers under the tolerance rule;
# dlsched verify must accept each answer at gap 0. `make validate` does all of them. Skipped
# (77) without python3 or glpsol.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
: "${GLPSOL=$(command -v glpsol || true)}"
skip_unless "$GLPSOL" "no glpsol, so the optima cannot be recertified"

certify --sample 20

# the sample is a fixed one, and it covers every family
checks=$((checks + 1))
fams=$(sed -n 's/^ok   [^ ]* *\([a-z]*\) .*/\1/p' "$tmp/log" | sort -u | wc -l)
[ "$vrc" -ne 0 ] || [ "$fams" -ge 13 ] ||
    fail "the sample covers $fams families, expected 13" "$(cat "$tmp/log")"

cli_summary
