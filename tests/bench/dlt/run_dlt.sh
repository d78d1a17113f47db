#!/bin/sh
# Runs DLT-Studio (github.com/HiPERACT-Scheduling/DLT-Studio, built as in README.md) on
# one DLT instance (e.g. from gen_star.py) and prints one line per method:
#
#   method  makespan  wall_s  installments  replay  note
#
# makespan: DLT's own (its LP over the sequence, or a solver's closed form); wall_s: the
# command's wall-clock seconds; installments: chunks with load > 0 (of the sequence
# length, "n/L"); replay: the same loads replayed in sequence order, each send S + C x
# (every listed installment pays S, as DLT charges), each chunk computing for
# max over pieces (a + b x) after its arrival and after the processor's previous chunk
# (per chunk, overlapping later sends) -- equal to DLT's model for one chunk per
# processor; note: DLT's status, what `auto` chose, "LIMIT!" when a chunk exceeds its
# processor's B (by more than 1e-5 relative), how many limited processors get more
# than B over all their installments (allowed by DLT, whose B bounds the load held at
# one installment; not by dlsched, whose limit bounds the whole share), "killed" past
# the time limit.
#
# DLT-Studio has no time limit of its own: TIME is a wall-clock kill (timeout(1)).
# Its GA evaluates each sequence with its dense simplex capped at 500 iterations (not
# settable from its CLI), which fails for most sequences past about 64 installments
# (N = 100); `ga` then finds little or nothing, and `auto` (GA with max(N, 5)
# installments) may fall back to best-rate.
#
# usage: run_dlt.sh [-t TIME] [-L GA_INSTALLMENTS] [-s SEED] [-m "METHODS"]
#                   [-o SEQFILE] [-b DLS_BINARY] INSTANCE.dlt
#   -t  seconds per method (default 300)
#   -L  GA chromosome length (installments) for `ga` (default min(N, 60)); `auto` picks
#       its own (max(N, 5))
#   -s  seed for the GA (default 1)
#   -m  methods, any of DLT's solver names (default "auto ga single-round best-rate
#       online", plus exact-milp when the build has HiGHS)
#   -o  write the installments (order, processor p<i>, size) of the best schedule
#       (least DLT makespan among methods whose model holds the instance) to SEQFILE;
#       sizes in dlsched units (times the file's "# dlsched-unit K", see gen_star.py)
#   -b  the dls binary (default $DLT_DLS, else /tmp/dlt/build/bin/dls)
set -eu
limit=300 ginst= seed=1 methods= seqfile=
dls=${DLT_DLS:-/tmp/dlt/build/bin/dls}
while getopts t:L:s:m:o:b: opt; do
    case $opt in
        t) limit=$OPTARG ;; L) ginst=$OPTARG ;; s) seed=$OPTARG ;;
        m) methods=$OPTARG ;; o) seqfile=$OPTARG ;; b) dls=$OPTARG ;;
        *) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: run_dlt.sh [-t TIME] [-L N] [-s SEED] [-m METHODS] [-o FILE] INSTANCE.dlt" >&2; exit 2; }
inst=$1
[ -r "$inst" ] || { echo "run_dlt.sh: cannot read $inst" >&2; exit 2; }
[ -x "$dls" ] || { echo "run_dlt.sh: no DLT-Studio binary at $dls (see README.md)" >&2; exit 2; }
if [ -z "$methods" ]; then
    methods="auto ga single-round best-rate online"
    "$dls" list 2>/dev/null | grep -q 'solver=exact-milp' && methods="$methods exact-milp"
fi
n=$(grep -Ecv '^[[:space:]]*(#|$|[Vv][[:space:]]|beta|pieces|power|energy|originator)' "$inst")
[ -n "$ginst" ] || { ginst=$n; [ "$ginst" -le 60 ] || ginst=60; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-13s %14s %9s %11s %14s  %s\n' method makespan wall_s installments replay note
for m in $methods; do
    extra=
    [ "$m" = ga ] && extra="--installments=$ginst"
    t0=$(date +%s.%N)
    rc=0
    timeout "$limit" "$dls" solve --solver="$m" --seed="$seed" $extra --json "$inst" \
        > "$tmp/$m.json" 2> "$tmp/$m.err" || rc=$?
    t1=$(date +%s.%N)
    python3 - "$inst" "$tmp/$m.json" "$m" "$rc" "$t0" "$t1" "$tmp/$m.seq" <<'PY'
import json, sys
inst, jpath, method, rc, t0, t1, seqout = sys.argv[1:8]
rc = int(rc); wall = float(t1) - float(t0)
procs, pieces_any, finite_b, unit = [], False, False, 1.0
for line in open(inst):
    if line.startswith('# dlsched-unit'):
        unit = float(line.split()[2])
    line = line.split('#')[0].split()
    if not line:
        continue
    if line[0] == 'pieces':
        procs[-1]['pieces'] = [tuple(map(float, t.split(','))) for t in line[1:]]
        pieces_any = pieces_any or len(procs[-1]['pieces']) > 1
    elif line[0] in ('V', 'v', 'beta', 'power', 'energy', 'originator'):
        continue
    else:
        v = list(map(float, line))
        procs.append({'S': v[0], 'C': v[1], 'A': v[2], 'B': v[3],
                      'p': v[4] if len(v) > 4 else 0.0, 'pieces': None})
        finite_b = finite_b or 0 < v[3] < 1e17
def ptime(p, x):
    pcs = p['pieces'] or [(p['p'], p['A'])]
    return max(max(a + b * x for a, b in pcs), 0.0)
def line(ms, inst_s, replay, note):
    print('%-13s %14s %9.2f %11s %14s  %s' % (method, ms, wall, inst_s, replay, note))
if rc in (124, 137):
    line('-', '-', '-', 'killed at the time limit'); sys.exit(0)
try:
    d = json.load(open(jpath)); s = d['solution']
except Exception:
    line('-', '-', '-', 'no output (exit %d)' % rc); sys.exit(0)
if not s.get('feasible'):
    line('-', '-', '-', 'status %s' % s.get('status')); sys.exit(0)
fr = s['fragments']
t = 0.0; busy = {}; over = False; mk = 0.0; held = {}
for f in fr:
    p = procs[f['proc']]; x = f['load']
    t += p['S'] + p['C'] * x
    if x > 1e-9:
        start = max(t, busy.get(f['proc'], 0.0))
        busy[f['proc']] = start + ptime(p, x)
        mk = max(mk, busy[f['proc']])
        held[f['proc']] = held.get(f['proc'], 0.0) + x
        if 0 < p['B'] < 1e17 and x > p['B'] * (1 + 1e-5):
            over = True
used = sum(1 for f in fr if f['load'] > 1e-9)
notes = [s['status']]
valid = True
if method == 'single-round' and (pieces_any or finite_b):
    notes.append('closed form with linear A, no limits: not this instance\'s model')
    valid = False
if method == 'auto':
    # auto's rule (heuristics/auto/auto_solver.hpp): N<=6 exact; sum B < V best-rate;
    # all S = 0 single-round; else GA(max(N,5)) with best-rate as the fallback.
    N = len(procs)
    notes.append('chose exact' if N <= 6 else
                 'chose best-rate' if sum(p['B'] if p['B'] > 0 else float('inf') for p in procs) < d['instance']['totalLoad'] else
                 'chose single-round' if all(p['S'] == 0 for p in procs) else
                 'chose ga(%d)%s' % (max(N, 5), '' if len(fr) == max(N, 5) else ' -> fell back to best-rate'))
    notes[-1] += ' (inferred from its rules)'
if over:
    notes.append('LIMIT!')
tot = sum(1 for i, h in held.items() if 0 < procs[i]['B'] < 1e17 and h > procs[i]['B'] * (1 + 1e-5))
if tot:
    notes.append('%d limited processors get more than B in total' % tot)
line('%.6f' % s['makespan'], '%d/%d' % (used, len(fr)), '%.6f' % mk, '; '.join(notes))
with open(seqout, 'w') as o:
    o.write('%r %d\n' % (s['makespan'], 1 if valid else 0))
    for k, f in enumerate(fr):
        o.write('%d p%d %r\n' % (k, f['proc'], f['load'] * unit))
PY
done

if [ -n "$seqfile" ]; then
    best= bestv=
    for m in $methods; do
        [ -s "$tmp/$m.seq" ] || continue
        set -- $(head -1 "$tmp/$m.seq")
        [ "$2" = 1 ] || continue
        if [ -z "$best" ] || awk -v a="$1" -v b="$bestv" 'BEGIN { exit !(a < b) }'; then
            best=$m bestv=$1
        fi
    done
    if [ -n "$best" ]; then
        { echo "# DLT-Studio $best on $inst: makespan $bestv; columns: order processor size"
          tail -n +2 "$tmp/$best.seq"; } > "$seqfile"
        echo "best: $best ($bestv), installments written to $seqfile"
    else
        echo "best: none (no valid schedule); $seqfile not written" >&2
    fi
fi
