#!/bin/sh
# The JSON Schemas of doc/schema/, checked with python3's jsonschema (tests/doc/validate.py;
# skipped without python3 or the module): each schema against its meta-schema; every platform
# file the reader accepts (examples/, tests/data/) valid; each malformed platform of
# tests/data/bad/ either refused by the schema at the field the reader names, or listed
# below as the reader's alone (with why); each command's --json on the examples (check,
# partition, schedule, evaluate, installments, lu, crosscheck, verify, import, bench, validate,
# balance) valid
# for its schema, and no longer valid with an unknown key added; the platforms import writes,
# the claims verify reads and the measured timeline of evaluate --measured valid for theirs.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
if ! "$PYTHON3" -c 'import jsonschema' >/dev/null 2>&1; then
    echo "$cli_name: SKIP: the python3 module jsonschema is missing (Debian package python3-jsonschema)"
    exit 77
fi

schemas=$top_srcdir/doc/schema
bad=$top_srcdir/tests/data/bad

# schema_check WHAT ARGS...: runs validate.py with ARGS; a non-zero exit is a failed check.
schema_check() {
    sc_what=$1
    shift
    checks=$((checks + 1))
    if ! "$PYTHON3" "$top_srcdir/tests/doc/validate.py" "$@" >"$tmp/py" 2>&1; then
        fail "$sc_what" "$(cat "$tmp/py")"
    fi
}

# Each schema is a valid schema (validate.py checks it before any document), and each is
# installed (listed in doc/schema/local.mk).
for s in "$schemas"/*.schema.json; do
    schema_check "$(basename "$s") is a valid schema" "$s"
    grep -q "doc/schema/$(basename "$s")" "$schemas/local.mk" ||
        fail "$(basename "$s") is not listed in doc/schema/local.mk"
done

# The schemas' lists of names are the library's (the X-macro lists of include/dlsched/):
# a name added there and not here would make valid output fail its schema.
py_check "the schemas' enums are the headers' names" "$schemas" "$top_srcdir/include/dlsched" <<'PY'
import json, os, re, sys
schemas, include = sys.argv[1], sys.argv[2]
def texts(header, name):
    src = open(os.path.join(include, header), encoding="utf-8").read()
    body = src[src.index("#define " + name + "(X)"):]
    body = body[:body.index("\n\n")]
    return re.findall(r'X\([A-Z0-9_]+, *[0-9]+, *"([^"]*)"\)', body)
def at(schema, *path):
    v = json.load(open(os.path.join(schemas, schema + ".schema.json"), encoding="utf-8"))
    for k in path:
        v = v[k]
    return v["enum"]
sol = texts("common.h", "DLS_SOLUTION_STATUS_MAP")
P, I = "properties", "items"
want = [
    (at("check", P, "processors", I, P, "model"), texts("model.h", "DLS_MODEL_KIND_MAP")),
    (at("partition", P, "status"), sol),
    (at("balance", P, "mode"), texts("balance.h", "DLS_BALANCE_MODE_MAP")),
    (at("schedule", "$defs", "report", P, "status"), sol),
    (at("schedule", "$defs", "report", P, "kind"), texts("schedule.h", "DLS_SCHEDULE_KIND_MAP")),
    (at("schedule", "$defs", "report", P, "solver"), texts("schedule.h", "DLS_STAR_SOLVER_MAP")),
    (at("schedule", "$defs", "report", P, "mip_status"), sol + ["not solved"]),
    (at("schedule", "$defs", "report", P, "order", P, "method"),
     texts("schedule.h", "DLS_ORDER_METHOD_MAP") + [None]),
    (at("installments", P, "single_installment_status"), sol + ["failed"]),
    (at("lu", "$defs", "one", P, "status"), sol),
    (at("crosscheck", P, "checks", I, P, "name"), texts("crosscheck.h", "DLS_CHECK_KIND_MAP")),
    (at("verify", P, "kind"), texts("verify.h", "DLS_CLAIM_KIND_MAP")),
    (at("verify", P, "violations", I, P, "kind"), texts("verify.h", "DLS_VIOLATION_KIND_MAP")),
]
for have, names in want:
    assert len(names) >= 2 and have == names, (have, names)
PY

# --- Platform files. Every one the reader accepts is valid.
platform=$schemas/platform.schema.json
for f in "$ex"/*.json "$top_srcdir"/tests/data/*.json "$top_srcdir"/tests/data/stall/*.json; do
    run check "$f"
    expect_rc 0 "the reader accepts $f"
    schema_check "$f is a valid platform" "$platform" "$f"
done

# The malformed platforms the schema refuses, each with the field the reader names (FIELD or
# FIELD|FIELD: one of them in the error's "PATH KEYWORD KEY", see validate.py). The reader
# refuses each too (cli_check.sh checks its messages).
refused='
band_low_zero points/2/2
bands_mixed_width points
empty_name /name
limit_negative /limit
limit_string /limit
limit_zero /limit
link_missing_rate /link
link_negative_startup /link/startup
link_not_object /link
link_unknown_key '"'lag'"'
link_startup_and_latency /link
link_rate_and_bandwidth /link
units_unknown_unit /memory
platform_bytes_bad /bytes_per_unit
paging_without_memory dependentRequired
missing_name '"'name'"'
missing_processors '"'processors'"'
name_not_string /name
no_model /processors/2|'"'speed'"'
point_not_array points/1
point_one_number points/1
point_size_negative points/0/0
point_size_zero points/0/0
point_speed_negative points/1/1
point_speed_zero points/2/1
point_string points/1/1
point_three_numbers points
points_empty /points
points_not_array /points
processor_not_object /processors/2 type
processors_empty /processors
processors_not_array /processors
speed2d_missing_y '"'y'"'
speed2d_unknown_key /speed2d
speed2d_y_zero /speed2d/y/0
speed2d_zero_value /speed2d/values/2/0
speed_boolean /speed
speed_negative /speed
speed_null /speed
speed_object_no_points '"'points'"'
speed_object_unknown_key '"'unit'"'
speed_string /speed
speed_zero /speed
time_empty /time
time_negative_slope /time/1/1
time_not_array /time
time_three_numbers /time/1
top_level_array / type
two_models /processors/1
two_models_reversed /processors/2
unknown_key_far '"'vendor'"'
unknown_key_limt '"'limt'"'
unknown_key_sped '"'sped'"'
unknown_top_key '"'comment'"'
version_string /version
version_unknown /version
utf8_name_column points/1/1
utf8_name_unknown_key '"'lmit'"'
'
# The malformed platforms only the reader refuses: relations between numbers, which JSON
# Schema cannot state (sizes and grids increasing, band edges around their speed, rows as
# many as x and as long as y, time lines positive at every size, names unique), and JSON
# python reads but jansson refuses (a duplicate key: python keeps the last; 1e400: python
# reads inf). The schema must accept them: a schema that began to refuse one would move it
# to the list above.
reader_only='
band_high_below_speed
band_low_above_speed
duplicate_names
sizes_decreasing
sizes_equal
speed2d_row_length
speed2d_values_rows
speed2d_x_not_increasing
time_negative_intercepts
time_zero_flat
bandwidth_without_bytes
memory_and_limit
memory_without_bytes
paging_and_second_line
paging_on_points
duplicate_key
number_too_large
'
# Not JSON at all: no schema applies; python's parser refuses them too.
not_json='
empty
not_json
trailing_garbage
'

while read -r name field; do
    [ -n "$name" ] || continue
    printf '%s\n' "$name" >>"$tmp/listed"
    schema_check "the schema refuses $name.json at $field" --reject "$platform" \
        "$bad/$name.json" "$field"
done <<EOF2
$refused
EOF2
n_refused=$(echo "$refused" | grep -c .)
for name in $reader_only; do
    printf '%s\n' "$name" >>"$tmp/listed"
    schema_check "the schema accepts $name.json (the reader's check alone)" --accept-only \
        "$platform" "$bad/$name.json"
done
for name in $not_json; do
    printf '%s\n' "$name" >>"$tmp/listed"
    py_check "python refuses $name.json as JSON" "$bad/$name.json" <<'PY'
import json, sys
try:
    json.load(open(sys.argv[1], encoding="utf-8"))
except ValueError:
    sys.exit(0)
sys.exit("parsed")
PY
done
# Every malformed platform is in exactly one list, and the reader refuses each.
for f in "$bad"/*.json; do
    name=$(basename "$f" .json)
    k=$(grep -c -x -- "$name" "$tmp/listed" || true)
    [ "$k" -eq 1 ] || fail "$name.json is listed $k times (once expected)"
    run check "$f"
    expect_rc 2 "the reader refuses $name.json"
done
n_reader=$(echo "$reader_only" | grep -c .)
# A name with a control character (a tab, U+0085): refused by both at the name.
for c in '\t' '\u0085'; do
    printf '{"processors": [{"name": "a%sb", "speed": 1}]}\n' "$c" >"$tmp/control.json"
    run check "$tmp/control.json"
    expect_rc 2 "the reader refuses a name with $c"
    expect_err '"name"' "the reader's message for a name with $c"
    schema_check "the schema refuses a name with $c" --reject "$platform" "$tmp/control.json" \
        /processors/0/name
done

# --- Each command's --json on the examples: valid for its schema, and strict.
# out_check WHAT SCHEMA: the last run succeeded and its output is valid and strict.
out_check() {
    if rc_is 0 "$1"; then
        schema_check "$1: valid for $2.schema.json, strictly" --strict \
            "$schemas/$2.schema.json" "$tmp/out"
    fi
}
for f in "$ex"/*.json; do
    run check "$f" --json
    out_check "check --json $(basename "$f")" check
done
run check "$top_srcdir/tests/data/shape_warning.json" --json
out_check "check --json with warnings" check

run balance "$ex/memory_levels.json" --elements 150000000 --noise 0.02 --iterations 8 --json
out_check "balance" balance
run balance "$top_srcdir/tests/data/balance_paging.json" --elements 1000000 --mode constant --iterations 3 --json
out_check "balance --mode constant" balance
run partition "$ex/memory_levels.json" --elements 1e8 --json
out_check "partition --elements" partition
cp "$tmp/out" "$tmp/claim_partition.json"
run partition "$ex/striped_mm.json" --matrix 600 --json
out_check "partition --matrix" partition
cp "$tmp/out" "$tmp/claim_matrix.json"
printf '3\n1\n2\n5\n4\n2.5\n' >"$tmp/weights.txt"
run partition "$ex/star_cluster.json" --weights "$tmp/weights.txt" --json
out_check "partition --weights" partition
cp "$tmp/out" "$tmp/claim_weighted.json"
run partition "$ex/star_cluster.json" --weights "$tmp/weights.txt" --ordered --reorder --json
out_check "partition --weights --ordered --reorder" partition
cp "$tmp/out" "$tmp/claim_ordered.json"

run schedule "$ex/star_cluster.json" --load 1e6 --json
out_check "schedule" schedule
cp "$tmp/out" "$tmp/claim_schedule.json"
run schedule "$ex/star_cluster.json" --load 1e6 --order best --json
out_check "schedule --order best" schedule
run schedule "$ex/star_cluster.json" --load 1e6 --order epyc,xeon-b,xeon-a,old-node,laptop --json
out_check "schedule --order NAME,..." schedule
run schedule "$ex/star_cluster.json" --load 1000 --integer --json
out_check "schedule --integer" schedule
cp "$tmp/out" "$tmp/claim_integer.json"
run schedule "$ex/star_cluster.json" --load 1000 --exact-shape --json
out_check "schedule --exact-shape" schedule
run schedule "$ex/star_cluster.json" --load 1e6 --exact --json
out_check "schedule --exact" schedule
py_json "schedule --exact has its certificate" <<'PY'
assert d.get("exact_verified") is True and "certificate" in d, sorted(d)
PY
run schedule "$ex/star_cluster.json" --load 1e6 --curve --json
out_check "schedule --curve" curve

run evaluate "$ex/star_two.json" --loads 1.6667,0.3333 --json
out_check "evaluate" schedule
cp "$tmp/out" "$tmp/claim_evaluate.json"
cat >"$tmp/measured.json" <<'EOF2'
{"processors": [
  {"load": 1.6666666666666667, "send_start": 0, "send_end": 2.1, "finish": 10.9},
  {"load": 0.3333333333333333, "send_start": 2.1, "send_end": 3.0, "finish": 8.0}]}
EOF2
schema_check "the measured timeline is valid" "$schemas/measured.schema.json" "$tmp/measured.json"
run evaluate "$ex/star_two.json" --measured "$tmp/measured.json" --json
out_check "evaluate --measured" evaluate-measured

run installments "$ex/star_ten.json" --load 1e5 --json
out_check "installments" installments
cp "$tmp/out" "$tmp/claim_installments.json"
run installments "$ex/star_ten.json" --load 1e5 --chunk sweep --json
out_check "installments --chunk sweep" installments
run installments "$ex/memory_levels.json" --load 1e7 --lp --max-lps 40 --json
out_check "installments --lp" installments-lp
printf 'old-xeon,new-epyc,old-xeon\n' >"$tmp/seq.txt"
run installments "$ex/memory_levels.json" --load 1e7 --lp --sequence "$tmp/seq.txt" --json
out_check "installments --lp --sequence" installments-lp
printf 'old-xeon 0.5 0.01 1e-6\n' >"$tmp/ret.txt"
run installments "$ex/memory_levels.json" --load 1e7 --lp --sequence "$tmp/seq.txt" --returns "$tmp/ret.txt" --json
out_check "installments --lp --returns" installments-lp

run lu "$ex/lu_cluster.json" --columns 200 --json
out_check "lu" lu
run lu "$ex/lu_cluster.json" --columns 200 --algorithm gb --json
out_check "lu --algorithm gb" lu
run lu "$ex/lu_cluster.json" --columns 120 --compare --json
out_check "lu --compare" lu

run crosscheck "$ex/star_cluster.json" --load 20000 --json
out_check "crosscheck" crosscheck

# --- The claims verify reads: every output above it reads back, valid for claim.schema.json
# (which lets other keys through: verify ignores them), and verify's own report.
for c in schedule integer evaluate partition matrix weighted ordered installments; do
    schema_check "the $c output is a valid claim" "$schemas/claim.schema.json" \
        "$tmp/claim_$c.json"
done
run verify "$ex/star_cluster.json" "$tmp/claim_schedule.json" --json
out_check "verify a schedule" verify
run verify "$ex/star_cluster.json" "$tmp/claim_schedule.json" --exact --json
out_check "verify --exact" verify
run verify "$ex/star_cluster.json" "$tmp/claim_schedule.json" --best-order --json
out_check "verify --best-order" verify
run verify "$ex/striped_mm.json" "$tmp/claim_matrix.json" --json
out_check "verify a partition" verify
run verify "$ex/star_cluster.json" "$tmp/claim_weighted.json" --weights "$tmp/weights.txt" --json
out_check "verify a weighted partition" verify
run verify "$ex/star_ten.json" "$tmp/claim_installments.json" --json
out_check "verify installments" verify
# A claim with a violation: the report lists it.
sed 's/"load": 1e6,/"load": 900000.0,/' "$tmp/claim_schedule.json" >"$tmp/claim_short.json"
run verify "$ex/star_cluster.json" "$tmp/claim_short.json" --json
expect_rc 1 "verify a claim that breaks the load sum"
schema_check "verify with violations: valid" --strict "$schemas/verify.schema.json" "$tmp/out"

# --- import: the report, and the platform it writes.
for m in cuda_cpu good_small regression_only; do
    run import starpu "$top_srcdir/tests/data/starpu/$m.fmt45" -o "$tmp/imported.json" --json
    out_check "import starpu $m" import
    schema_check "the platform imported from $m is valid" "$platform" "$tmp/imported.json"
done

# import csv: timings of two processors (one run per size, and runs with their spread)
printf 'name,size,time\na,1000,0.001\na,2000,0.0021\na,4000,0.0045\nb,1000,0.002\nb,1000,0.0021\nb,2000,0.0039\nb,2000,0.0041\nb,4000,0.008\nb,4000,0.0083\n' >"$tmp/timings.csv"
run import csv "$tmp/timings.csv" -o "$tmp/imported.json" --json
out_check "import csv" import
schema_check "the platform imported from CSV is valid" "$platform" "$tmp/imported.json"

# --- bench: a simulated processor (synthetic: no timing noise to wait for), and a small 2-D
# surface of the real kernel; the platforms they write.
run bench --kernel synthetic --max-points 6 --validate 3 -o "$tmp/bench.json" --json
out_check "bench --kernel synthetic" bench
run bench --kernel synthetic --max-points 6 --json --log "$tmp/bench-out.log"
out_check "bench --kernel synthetic without -o (the platform in the report)" bench
schema_check "the platform bench writes is valid" "$platform" "$tmp/bench.json"
run bench --kernel gemm-rows --n 64 --surface 32,64 --max-points 5 --max-size 64 --time-budget 3 \
    --precision 0.5 -o "$tmp/surface.json" --json
out_check "bench --surface" bench
schema_check "the surface bench writes is valid" "$platform" "$tmp/surface.json"

# --- simulate: a schedule and a multi-installment schedule replayed in SimGrid (when built).
if [ -n "${DLSCHED_SIMGRID:-}" ]; then
    run schedule "$ex/star_cluster.json" --load 1e6 --json
    cp "$tmp/out" "$tmp/sim_claim.json"
    run simulate "$ex/star_cluster.json" "$tmp/sim_claim.json" --json
    out_check "simulate" simulate
    run installments "$ex/star_ten.json" --load 1000 --chunk 50 --json
    cp "$tmp/out" "$tmp/sim_inst.json"
    run simulate "$ex/star_ten.json" "$tmp/sim_inst.json" --network realistic \
        --bytes-per-unit 8 --json
    out_check "simulate installments, realistic" simulate
else
    echo "schemas: simulate not checked: ${DLS_SIMGRID_WHY:-dlsched-simgrid was not built}"
fi

# --- validate: the scorecard of the example scheduler over the small suite of cli_validate.sh.
even=./examples/even_split
if [ -x "$even" ]; then
    run validate --suite "$top_srcdir/tests/data/validate/manifest.json" \
        --scheduler "$even {platform} {load} {output} {kind}" --json
    out_check "validate" validate
else
    fail "validate: $even is not built (make builds it)"
fi

cli_summary "$n_refused malformed platforms refused by the schema, $n_reader by the reader alone"
