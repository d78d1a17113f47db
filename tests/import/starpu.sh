#!/bin/sh
# `dlsched import starpu` on hand-written StarPU model files (tests/data/starpu/, written from
# StarPU's dump code, format 45): sections, implementations, names, units, regression-only
# models, the 7-field history lines, the symbol lookup, --merge, and every broken file
# refused with its FILE:LINE. No StarPU needed (tests/import/starpu_real.sh checks against
# StarPU itself). The checks that read numbers use python3 and tests/import/starpu_model.py,
# and are left out without it.
. "${top_srcdir:-.}/tests/support/cli.sh"

data=$top_srcdir/tests/data/starpu
. "$top_srcdir/tests/import/starpu_lib.sh"
# the symbol lookup must see only what this suite puts there
unset STARPU_PERF_MODEL_DIR STARPU_PERF_MODEL_PATH XDG_CACHE_HOME STARPU_HOME
HOME=$tmp/nohome
STARPU_HOSTNAME=dlstest
export HOME STARPU_HOSTNAME

# line_of EXTENDED-REGEX FILE: the number of the first line matching
line_of() {
    grep -n -m 1 -E -- "$1" "$2" | cut -d: -f1
}

# expect_located FILE LINE WHAT: the last run's messages name FILE:LINE
expect_located() {
    el_base=$(basename "$1" | sed 's/\./\\./g')
    if ! grep -q -E -- "$el_base:$2([^0-9]|\$)" "$tmp/err"; then
        fail "$3: the message does not name $(basename "$1"):$2" "$(cat "$tmp/err")"
    fi
}

# expect_names FILE NAME...: the platform's processors are exactly NAME... in this order
expect_names() {
    en_file=$1
    shift
    en_want=$*
    en_got=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' "$en_file" | tr '\n' ' ' | sed 's/ $//')
    [ "$en_got" = "$en_want" ] || fail "processors of $(basename "$en_file")" \
        "expected: $en_want
got:      $en_got
$(cat "$en_file")"
}

# The data files themselves: each entry's sum, sum2 and deviation agree with its mean and n
# (dev is StarPU's population standard deviation, sqrt(sum2/n - (sum/n)^2)), so that they
# say what StarPU would have written.
for f in cuda_cpu no_flops good_small; do
    py_sp "data: $f.fmt45 is consistent" "$data/$f.fmt45" <<'PY'
for s in m.read_model(args[0]):
    for e in s["entries"]:
        n, mean = e["n"], e["mean"]
        assert m.rel(e["sum"], mean * n) < 1e-6, ("sum", e)
        dev = math.sqrt(max(e["sum2"] / n - (e["sum"] / n) ** 2, 0))
        assert m.rel(dev, e["dev"]) < 1e-3, ("dev", dev, e)
PY
done

# (a) a CPU core and a CUDA device: both sections, named SYMBOL.ARCH
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/a.json"
if rc_is 0 "cuda_cpu: import both sections"; then
    expect_names "$tmp/a.json" cuda_cpu.cpu0 cuda_cpu.cuda0
    # every entry: speed = size / mean, band of one more run (Student-t, n - 1 degrees
    # of freedom, the sample deviation from StarPU's population one)
    py_sp "cuda_cpu: points against the file" "$data/cuda_cpu.fmt45" "$tmp/a.json" <<'PY'
secs = [s for s in m.read_model(args[0]) if s["impl"] == 0]
bad = []
for s in secs:
    pts = m.points(args[1], "cuda_cpu." + s["arch"])
    ents = sorted(s["entries"], key=lambda e: e["size"])
    assert [p[0] for p in pts] == [e["size"] for e in ents], (s["arch"], pts, ents)
    for p, e in zip(pts, ents):
        mean = e["mean"] * 1e-6
        speed, low, high = m.band(e["size"], mean, e["dev"] * 1e-6, e["n"])
        if m.rel(p[1], speed) > 1e-9:
            bad.append("%s size %d: speed %.17g, expected size/mean = %.17g" % (s["arch"], e["size"], p[1], speed))
        if p[2] is None or m.rel(p[2], low) > 1e-7 or m.rel(p[3], high) > 1e-7:
            _, low2, high2 = m.band(e["size"], mean, e["dev"] * 1e-6, e["n"], sample_sd=False)
            bad.append("%s size %d n %d: band %s %s, expected %.17g %.17g (with the deviation "
                       "taken as a sample one: %.17g %.17g)" % (s["arch"], e["size"], e["n"], p[2], p[3], low, high, low2, high2))
assert not bad, "\n".join(bad)
PY
fi

# one section by name, and by its combination's number; the second implementation
run import starpu "$data/cuda_cpu.fmt45" --arch cuda0 -o "$tmp/cuda.json"
rc_is 0 "cuda_cpu --arch cuda0" && expect_names "$tmp/cuda.json" cuda_cpu.cuda0
run import starpu "$data/cuda_cpu.fmt45" --arch comb1 -o "$tmp/comb1.json"
if rc_is 0 "cuda_cpu --arch comb1"; then
    py_sp "--arch comb1 is --arch cuda0" "$tmp/cuda.json" "$tmp/comb1.json" <<'PY'
a, b = m.names(args[0]), m.names(args[1])
assert len(b) == 1, b
assert m.points(args[0], a[0]) == m.points(args[1], b[0]), (m.points(args[0], a[0]), m.points(args[1], b[0]))
PY
fi
run import starpu "$data/cuda_cpu.fmt45" --arch cuda0 --impl 1 -o "$tmp/impl1.json"
if rc_is 0 "cuda_cpu --arch cuda0 --impl 1"; then
    expect_names "$tmp/impl1.json" cuda_cpu.cuda0_impl1
    py_sp "--impl 1: the second implementation's entries" "$data/cuda_cpu.fmt45" "$tmp/impl1.json" <<'PY'
s = [s for s in m.read_model(args[0]) if s["arch"] == "cuda0" and s["impl"] == 1][0]
pts = m.points(args[1], "cuda_cpu.cuda0_impl1")
ents = sorted(s["entries"], key=lambda e: e["size"])
assert len(pts) == len(ents) == 3, (pts, ents)
for p, e in zip(pts, ents):
    assert p[0] == e["size"] and m.rel(p[1], e["size"] / (e["mean"] * 1e-6)) < 1e-9, (p, e)
PY
fi
run import starpu "$data/cuda_cpu.fmt45" --arch cuda0 --name gpu -o "$tmp/named.json"
rc_is 0 "--name with one section" && expect_names "$tmp/named.json" gpu
run import starpu "$data/cuda_cpu.fmt45" --name node -o "$tmp/named2.json"
rc_is 0 "--name with two sections" && expect_names "$tmp/named2.json" node.cpu0 node.cuda0
run import starpu "$data/cuda_cpu.fmt45" --arch opencl0 -o "$tmp/none.json"
expect_rc 2 "--arch of a device the file lacks"
[ ! -e "$tmp/none.json" ] || fail "--arch opencl0: a platform was written anyway"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --impl 1 -o "$tmp/none.json"
expect_rc 2 "--impl of an implementation the section lacks"
run import starpu "$data/cuda_cpu.fmt45" --arch comb2 -o "$tmp/none.json"
expect_rc 2 "--arch comb2 of a file of two combinations"

# --min-samples: the CPU section's entries have 10, 12, 10 and 11 samples
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --min-samples 11 -o "$tmp/min.json"
if rc_is 0 "--min-samples 11"; then
    py_sp "--min-samples 11 keeps the entries of 11 and 12 samples" "$tmp/min.json" <<'PY'
assert [p[0] for p in m.points(args[0], "cuda_cpu.cpu0")] == [65536, 4194304], m.points(args[0], "cuda_cpu.cpu0")
PY
    grep "warning:" "$tmp/err" | grep -q -w 2 ||
        fail "--min-samples 11: no warning saying that 2 entries were dropped" "$(cat "$tmp/err")"
fi
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --min-samples 11 --keep-few -o "$tmp/few.json"
if rc_is 0 "--min-samples 11 --keep-few"; then
    py_sp "--keep-few keeps them all" "$tmp/few.json" <<'PY'
assert [p[0] for p in m.points(args[0], "cuda_cpu.cpu0")] == [8192, 65536, 524288, 4194304], m.points(args[0], "cuda_cpu.cpu0")
PY
fi
run import starpu "$data/cuda_cpu.fmt45" --min-samples 20 -o "$tmp/none.json"
expect_rc 2 "--min-samples above every entry's count: nothing usable"
run import starpu "$data/cuda_cpu.fmt45" --min-samples 0 -o "$tmp/none.json"
expect_rc 2 "--min-samples 0"
run import starpu "$data/cuda_cpu.fmt45" --confidence 1 -o "$tmp/none.json"
expect_rc 2 "--confidence 1"

# --confidence: a wider band at 0.99, the speeds unchanged
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --confidence 0.99 -o "$tmp/c99.json"
if rc_is 0 "--confidence 0.99"; then
    py_sp "--confidence 0.99" "$data/cuda_cpu.fmt45" "$tmp/c99.json" <<'PY'
s = m.read_model(args[0])[0]
pts = m.points(args[1], "cuda_cpu.cpu0")
for p, e in zip(pts, sorted(s["entries"], key=lambda e: e["size"])):
    speed, low, high = m.band(e["size"], e["mean"] * 1e-6, e["dev"] * 1e-6, e["n"], confidence=0.99)
    assert m.rel(p[1], speed) < 1e-9 and m.rel(p[2], low) < 1e-7 and m.rel(p[3], high) < 1e-7, (p, speed, low, high)
PY
fi

# sizes in elements: bytes / element size
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --size-unit elements --element-size 8 -o "$tmp/el.json"
if rc_is 0 "--size-unit elements --element-size 8"; then
    py_sp "elements: sizes / 8, speeds in elements per second" "$tmp/a.json" "$tmp/el.json" <<'PY'
b = m.points(args[0], "cuda_cpu.cpu0")
e = m.points(args[1], "cuda_cpu.cpu0")
assert len(b) == len(e), (b, e)
for pb, pe in zip(b, e):
    assert pe[0] == pb[0] / 8 and all(m.rel(x / 8, y) < 1e-12 for x, y in zip(pb[1:], pe[1:])), (pb, pe)
PY
fi
run import starpu "$data/cuda_cpu.fmt45" --size-unit elements --element-size 0 -o "$tmp/none.json"
expect_rc 2 "--element-size 0"
run import starpu "$data/cuda_cpu.fmt45" --size-unit words -o "$tmp/none.json"
expect_rc 2 "--size-unit words"

# (b) a non-linear regression and no history: points of time = a size^b + c (us) over
# [minx, maxx], without bands, and a note
run import starpu "$data/regression_only.fmt45" -o "$tmp/reg.json"
if rc_is 0 "regression_only"; then
    expect_names "$tmp/reg.json" regression_only.cpu0
    expect_err "regression" "regression_only: the note that the points come from the regression"
    py_sp "regression_only: 16 points on a size^b + c" "$data/regression_only.fmt45" "$tmp/reg.json" 16 <<'PY'
r = m.read_model(args[0])[0]["reg"]
pts = m.points(args[1], "regression_only.cpu0")
assert len(pts) == int(args[2]), (len(pts), pts)
for p in pts:
    assert r["minx"] <= p[0] <= r["maxx"], ("size outside [minx, maxx]", p, r)
    t = (r["a"] * p[0] ** r["b"] + r["c"]) * 1e-6
    assert m.rel(p[1], p[0] / t) < 1e-9, ("speed", p, p[0] / t)
    assert p[2] is None, ("a band from a regression", p)
assert len(set(p[0] for p in pts)) == len(pts), "sizes repeated"
PY
fi
run import starpu "$data/regression_only.fmt45" --regression-points 5 -o "$tmp/reg5.json"
if rc_is 0 "regression_only --regression-points 5"; then
    py_sp "--regression-points 5" "$data/regression_only.fmt45" "$tmp/reg5.json" 5 <<'PY'
assert len(m.points(args[1], "regression_only.cpu0")) == int(args[2])
PY
fi
run import starpu "$data/regression_only.fmt45" --regression-points 1 -o "$tmp/none.json"
expect_rc 2 "--regression-points 1"
# issue 35, item 17: the count is bounded (10^6 took 40 s), and the most it takes is quick
run import starpu "$data/regression_only.fmt45" --regression-points 1000000 -o "$tmp/none.json"
expect_rc 2 "--regression-points 1000000"
expect_err "regression-points must be in \[2, 10000\], not 1000000" "--regression-points past its bound"
t0=$(date +%s)
run import starpu "$data/regression_only.fmt45" --regression-points 10000 -o "$tmp/reg10k.json"
t1=$(date +%s)
expect_rc 0 "--regression-points 10000, the most"
checks=$((checks + 1))
[ $((t1 - t0)) -lt 10 ] || fail "--regression-points 10000 took $((t1 - t0)) s"

# (c) history lines without the flops column (StarPU's parser takes both), an OpenCL device
run import starpu "$data/no_flops.fmt45" -o "$tmp/nf.json"
if rc_is 0 "no_flops: 7-field history lines"; then
    expect_names "$tmp/nf.json" no_flops.opencl1
    py_sp "no_flops: points" "$data/no_flops.fmt45" "$tmp/nf.json" <<'PY'
s = m.read_model(args[0])[0]
pts = m.points(args[1], "no_flops.opencl1")
ents = sorted(s["entries"], key=lambda e: e["size"])
assert len(pts) == len(ents) == 3, pts
for p, e in zip(pts, ents):
    assert p[0] == e["size"] and m.rel(p[1], e["size"] / (e["mean"] * 1e-6)) < 1e-9, (p, e)
PY
fi

# --json: a report on stdout
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/j.json" --json
if rc_is 0 "--json" && [ -n "$PYTHON3" ]; then
    py_json "--json: the report is JSON" <<'PY'
assert isinstance(d, (dict, list)), d
PY
fi

# (d) broken files: exit 2, FILE:LINE of what is wrong, no platform written
good=$data/good_small.fmt45
run import starpu "$good" -o "$tmp/good.json"
rc_is 0 "good_small (the file the broken ones are made from)" &&
    expect_names "$tmp/good.json" good_small.cpu0
broken() { # NAME LINE WHAT
    b_file=$data/$1.fmt45
    if [ -z "$2" ]; then
        fail "$1: the test could not find the offending line"
        return
    fi
    run import starpu "$b_file" -o "$tmp/broken.json"
    expect_rc 2 "$1 ($3)"
    expect_located "$b_file" "$2" "$1 ($3)"
    [ ! -e "$tmp/broken.json" ] || fail "$1: a platform was written anyway"
    rm -f "$tmp/broken.json"
}
broken broken_truncated "$(line_of '^3f507182' "$data/broken_truncated.fmt45")" "truncated in an entry"
broken broken_version44 "$(line_of '^44$' "$data/broken_version44.fmt45")" "format version 44"
broken broken_nan_mean "$(line_of '^2e4f6071' "$data/broken_nan_mean.fmt45")" "a NaN mean"
broken broken_zero_mean "$(line_of '^2e4f6071' "$data/broken_zero_mean.fmt45")" "a zero mean of 10 samples"
broken broken_negative_dev "$(line_of '^2e4f6071' "$data/broken_negative_dev.fmt45")" "a negative deviation"
broken broken_device_type "$(line_of '^9$' "$data/broken_device_type.fmt45")" "device type 9"
broken broken_garbage "$(line_of 'bogus' "$data/broken_garbage.fmt45")" "a word for a number"
# 5 entries claimed, 3 given, then the next combination: the message names the count's line
# or the first line after the entries, where a fourth was expected
f=$data/broken_count.fmt45
run import starpu "$f" -o "$tmp/broken.json"
expect_rc 2 "broken_count (more entries claimed than given)"
count_line=$(line_of '^5$' "$f")
after_line=$(awk '/^3f507182/ { seen = 1; next } seen && !/^#/ && NF { print NR; exit }' "$f")
if ! grep -q -E "broken_count\.fmt45:($count_line|$after_line)([^0-9]|\$)" "$tmp/err"; then
    fail "broken_count: the message names neither line $count_line (the count) nor line $after_line (where the 4th entry was expected)" "$(cat "$tmp/err")"
fi
run import starpu "$tmp/no-such-file.fmt45" -o "$tmp/broken.json"
expect_rc 2 "a file that does not exist"
expect_err "no-such-file" "a file that does not exist: named"

# The symbol lookup: SYMBOL.HOST under $STARPU_PERF_MODEL_DIR/codelets/45/, this host's
# ($STARPU_HOSTNAME) first; two other hosts' files and none of this one: ambiguous.
dir=$tmp/perfdir/codelets/45
mkdir -p "$dir"
cp "$data/good_small.fmt45" "$dir/sym.hosta"
cp "$data/no_flops.fmt45" "$dir/sym.hostb"
STARPU_PERF_MODEL_DIR=$tmp/perfdir
export STARPU_PERF_MODEL_DIR
run import starpu sym -o "$tmp/sym.json"
expect_rc 2 "lookup: two hosts' files, none of this host"
expect_err "sym.hosta" "lookup: the ambiguity names the first file"
expect_err "sym.hostb" "lookup: the ambiguity names the second file"
run import starpu sym.hostb -o "$tmp/sym.json"
rc_is 0 "lookup: SYMBOL.HOST names the file" && expect_names "$tmp/sym.json" sym.opencl1
cp "$data/cuda_cpu.fmt45" "$dir/sym.dlstest"
run import starpu sym -o "$tmp/sym.json"
rc_is 0 "lookup: this host's file wins" && expect_names "$tmp/sym.json" sym.cpu0 sym.cuda0
run import starpu nosuchsym -o "$tmp/sym.json"
expect_rc 2 "lookup: nothing found"
expect_err "codelets/45" "lookup: nothing found: the directories searched are named"
unset STARPU_PERF_MODEL_DIR
# the StarPU home: $STARPU_HOME/.starpu/sampling/codelets/45/
mkdir -p "$tmp/sphome/.starpu/sampling/codelets/45"
cp "$data/no_flops.fmt45" "$tmp/sphome/.starpu/sampling/codelets/45/homesym.dlstest"
STARPU_HOME=$tmp/sphome
export STARPU_HOME
run import starpu homesym -o "$tmp/home.json"
rc_is 0 "lookup under \$STARPU_HOME" && expect_names "$tmp/home.json" homesym.opencl1
unset STARPU_HOME

# --merge: into an existing platform, whose processors stay; a taken name refused without
# --replace; a refused import leaves the file byte for byte as it was
cp "$ex/memory_levels.json" "$tmp/m.json"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --merge "$tmp/m.json"
if rc_is 0 "--merge"; then
    expect_names "$tmp/m.json" old-xeon new-epyc laptop gpu cuda_cpu.cpu0
    run check "$tmp/m.json"
    expect_rc 0 "--merge: the merged platform checks"
fi
cp "$tmp/m.json" "$tmp/m.before"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --merge "$tmp/m.json"
expect_rc 2 "--merge of a name already there"
expect_err "cuda_cpu.cpu0" "--merge of a name already there: named"
cmp -s "$tmp/m.json" "$tmp/m.before" || fail "--merge refused: the platform changed"
for f in broken_truncated broken_nan_mean broken_count; do
    run import starpu "$data/$f.fmt45" --merge "$tmp/m.json"
    expect_rc 2 "--merge of $f"
    cmp -s "$tmp/m.json" "$tmp/m.before" || fail "--merge of $f: the platform changed"
done
run import starpu "$data/cuda_cpu.fmt45" --merge "$tmp/m.json"
expect_rc 2 "--merge of two sections, one of them taken"
cmp -s "$tmp/m.json" "$tmp/m.before" || fail "--merge of two sections, one taken: the platform changed"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --min-samples 11 --merge "$tmp/m.json" --replace
if rc_is 0 "--merge --replace"; then
    expect_names "$tmp/m.json" old-xeon new-epyc laptop gpu cuda_cpu.cpu0
    py_sp "--merge --replace: the new model" "$tmp/m.json" <<'PY'
assert [p[0] for p in m.points(args[0], "cuda_cpu.cpu0")] == [65536, 4194304], m.points(args[0], "cuda_cpu.cpu0")
PY
fi
# --merge keeps the numbers a person typed as typed (issue 36, item 2): each real in its
# shortest form that reads back as the same double (5e-5, not 5.0000000000000002e-5, even
# beside a number that needs 17 digits), a whole number without ".0"
cat > "$tmp/typed.json" <<'EOF2'
{"processors": [
  {"name": "laptop", "speed": 5e-5, "limit": 300000, "link": {"startup": 0.1, "rate": 1.28e-6}},
  {"name": "old", "time": [[60, 0.001], [-1980, 0.0035]], "link": {"startup": 2.5e-5, "rate": 0.30000000000000004}}
]}
EOF2
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --merge "$tmp/typed.json"
if rc_is 0 "--merge of a hand-written platform"; then
    for want in '"speed": 5e-5' '"limit": 300000,' '"startup": 0.1' '"rate": 1.28e-6' \
                '[60, 0.001]' '[-1980, 0.0035]' '"startup": 2.5e-5' '"rate": 0.30000000000000004}'; do
        grep -q -F -- "$want" "$tmp/typed.json" ||
            fail "--merge rewrote a typed number: $want is gone" "$(cat "$tmp/typed.json")"
    done
    run check "$tmp/typed.json"
    expect_rc 0 "--merge of a hand-written platform: it checks"
fi
run import starpu "$data/cuda_cpu.fmt45" --merge "$tmp/no-such-platform.json"
expect_rc 2 "--merge into a file that does not exist"

# usage
run import starpu "$data/cuda_cpu.fmt45"
expect_rc 2 "neither -o nor --merge"
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/x.json" --merge "$tmp/m.json"
expect_rc 2 "both -o and --merge"
run import starpu
expect_rc 2 "no file"
run import gpu "$data/cuda_cpu.fmt45" -o "$tmp/x.json"
expect_rc 2 "an unknown kind of input"
expect_err "starpu or csv" "an unknown kind of input"
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/x.json" --columns size,time
expect_rc 2 "a CSV option for a StarPU file"
expect_err "--columns does not apply" "a CSV option for a StarPU file"
run import csv "$data/cuda_cpu.fmt45" -o "$tmp/x.json" --keep-few
expect_rc 2 "a StarPU option for a CSV file"
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/x.json" --replace
expect_rc 2 "--replace without --merge"
run import starpu "$data/cuda_cpu.fmt45" -o - --json
expect_rc 2 "--json with the platform on standard output"
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/x.json" --output "$tmp/y.json"
expect_rc 2 "-o and --output"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 --element-size 4 -o "$tmp/x.json"
expect_rc 2 "--element-size without --size-unit elements"
run import starpu "$data/cuda_cpu.fmt45" --arch cpu0 -o -
expect_rc 0 "the platform on standard output"
expect_out '"cuda_cpu.cpu0"' "the platform on standard output"

# export-model usage
run import starpu "$data/cuda_cpu.fmt45" -o "$tmp/e.json"
run export-model "$tmp/e.json" --processor cuda_cpu.cpu0
expect_rc 2 "export-model without --format"
run export-model "$tmp/e.json" --format starpu
expect_rc 2 "export-model --format starpu without --processor"
run export-model "$tmp/e.json" --format starpu --processor nobody
expect_rc 2 "export-model of a processor that does not exist"
expect_err "no processor \"nobody\"" "export-model of a processor that does not exist"
run export-model "$tmp/e.json" --format csv --arch cuda0
expect_rc 2 "export-model --format csv with a StarPU option"
run export-model "$tmp/e.json" --format starpu --processor cuda_cpu.cpu0 -o "$tmp/e.txt" --output "$tmp/f.txt"
expect_rc 2 "export-model with -o and --output"
run export-model "$tmp/e.json" --format starpu --processor cuda_cpu.cpu0 --arch gpu0
expect_rc 2 "export-model --arch of no StarPU device"
run export-model "$tmp/e.json" --format starpu --processor cuda_cpu.cpu0
expect_rc 0 "export-model to standard output"
expect_out "# Performance Model Version" "export-model to standard output"

cli_summary "$py_skipped"
