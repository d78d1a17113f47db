#!/bin/sh
# The rational certificates of `dlsched schedule --exact` against the reference suite: a
# fixed sample of 30 schedules of the paper's LP, whose optima validation/certify.py
# rebuilds in fractions from glpsol --exact's basis (or from closed forms), independently of
# dlsched, with the platform's numbers taken as the doubles dlsched reads. Each certified
# makespan must equal that optimum exactly, its loads must sum to the load and replay to it
# exactly. `make validate` checks all 98. Skipped (77) without python3, glpsol or GMP.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
: "${GLPSOL=$(command -v glpsol || true)}"
if [ -z "$GLPSOL" ]; then
    echo "$cli_name: SKIP: no glpsol, so the optima cannot be rebuilt"
    exit 77
fi
if [ -n "${DLS_GMP_WHY:-}" ]; then
    echo "$cli_name: SKIP: no rational certificates in this build: $DLS_GMP_WHY"
    exit 77
fi

checks=$((checks + 1))
vrc=0
PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" "$top_srcdir/validation/certify.py" --sample 30 \
    --certificates --manifest "$top_srcdir/validation/manifest.json" --dlsched "$DLSCHED" \
    --glpsol "$GLPSOL" >"$tmp/log" 2>&1 || vrc=$?
case $vrc in
0) cat "$tmp/log" ;;
77) cat "$tmp/log"; exit 77 ;;
*) fail "certify.py --sample 30 --certificates exited $vrc" "$(cat "$tmp/log")" ;;
esac

cli_summary
