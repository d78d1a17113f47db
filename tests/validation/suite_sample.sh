#!/bin/sh
# The certified reference suite (validation/): a fixed sample of 20 instances, one or two of
# every family, recertified independently of dlsched (exact LPs with glpsol --exact,
# enumeration, closed forms) and compared with dlsched's answers under the tolerance rule;
# dlsched verify must accept each answer at gap 0. `make validate` does all of them. Skipped
# (77) without python3 or glpsol.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
: "${GLPSOL=$(command -v glpsol || true)}"
if [ -z "$GLPSOL" ]; then
    echo "$cli_name: SKIP: no glpsol, so the optima cannot be recertified"
    exit 77
fi

checks=$((checks + 1))
vrc=0
PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" "$top_srcdir/validation/certify.py" --sample 20 \
    --manifest "$top_srcdir/validation/manifest.json" --dlsched "$DLSCHED" \
    --glpsol "$GLPSOL" >"$tmp/log" 2>&1 || vrc=$?
case $vrc in
0) cat "$tmp/log" ;;
77) cat "$tmp/log"; exit 77 ;;
*) fail "certify.py --sample 20 exited $vrc" "$(cat "$tmp/log")" ;;
esac

# the sample is a fixed one, and it covers every family
checks=$((checks + 1))
fams=$(sed -n 's/^ok   [^ ]* *\([a-z]*\) .*/\1/p' "$tmp/log" | sort -u | wc -l)
[ "$vrc" -ne 0 ] || [ "$fams" -ge 13 ] ||
    fail "the sample covers $fams families, expected 13" "$(cat "$tmp/log")"

cli_summary
