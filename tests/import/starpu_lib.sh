# What the StarPU suites (tests/import/starpu.sh, starpu_real.sh) share; sourced after
# tests/support/cli.sh.

helpers=$top_srcdir/tests/import

# py_sp WHAT ARGS... <<'PY': py_check with `m` (tests/import/starpu_model.py), `math`, `re` and
# `args` (ARGS) at hand; without python3, the check is left out and py_skipped says so.
py_skipped=
py_sp() {
    if [ -z "$PYTHON3" ]; then
        cat >/dev/null
        py_skipped=" (python3 missing: the numeric checks were left out)"
        return 0
    fi
    sp_what=$1
    shift
    {
        printf 'import sys, math, re\nsys.path.insert(0, sys.argv[1])\n'
        printf 'import starpu_model as m\nargs = sys.argv[2:]\n'
        cat
    } >"$tmp/check.py"
    cli_python "$sp_what" "" "$helpers" "$@"
}
