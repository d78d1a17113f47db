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
skip_unless "$GLPSOL" "no glpsol, so the optima cannot be rebuilt"
[ -z "${DLS_GMP_WHY:-}" ] || skip "no rational certificates in this build: $DLS_GMP_WHY"

certify --sample 30 --certificates

cli_summary
