#!/bin/sh
# Every exported name follows the naming rule of include/dlsched/common.h (old names kept
# one release are declared DLS_DEPRECATED and skipped):
# - `get_` only where the property is also a type's name (dls_<property> or
#   dls_<object>_<property>), or where the call returns a dls_status (it copies into the
#   caller's records);
# - documents written by `..._to_string` / `..._write_file` (no other `_to_`, `_write_`,
#   `export`).
. "${top_srcdir:-.}/tests/support/cli.sh"

lib="${top_builddir:-.}/.libs/libdlsched.so"
[ -f "$lib" ] || { echo "SKIP: no shared library ($lib)"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
cat "$top_srcdir"/include/dlsched/*.h >"$tmp/headers"
# the deprecated names: a declaration whose statement ends with DLS_DEPRECATED(...)
tr '\n' ' ' <"$tmp/headers" | grep -o 'dls_[a-z0-9_]*([^()]*) *DLS_DEPRECATED' |
    sed 's/(.*//' | sort -u >"$tmp/deprecated"
nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^dls_/ {print $3}' | sort -u >"$tmp/names"
[ -s "$tmp/names" ] || fail "no dls_ names exported by $lib"
checks=0
while read -r name; do
    checks=$((checks + 1))
    grep -qx "$name" "$tmp/deprecated" && continue
    case $name in
    *_get_*)
        prop=${name#*_get_}
        obj=${name%%_get_*}
        if ! grep -q "\\b\\(dls_$prop\\|${obj}_$prop\\)\\b" "$tmp/headers" &&
            ! tr '\n' ' ' <"$tmp/headers" | grep -q "dls_status $name("; then
            fail "$name: get_ where $prop is no type's name and no status is returned"
        fi ;;
    esac
    case $name in
    *_to_string | *_write_file | *_params_init | *_export_format_* | dls_write_output) ;;
    *_to_* | *_write_* | *export*) fail "$name: a document, not named ..._to_string / ..._write_file" ;;
    esac
done <"$tmp/names"
cli_summary "$(wc -l <"$tmp/names") names, $(wc -l <"$tmp/deprecated") deprecated"
