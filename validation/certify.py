#!/usr/bin/env python3
"""Recertifies the reference suite: for each instance of validation/manifest.json (all of
them, or a fixed sample), recomputes the optimum by its certified_by method, independently
of dlsched (refmodel.py), and compares it with the manifest's string (1e-12 relative); then
runs dlsched on the instance, compares its makespan with the certified optimum under the
tolerance rule (1e-9 relative, doc/NUMERICS.md), and checks that `dlsched verify` accepts
dlsched's own output at gap 0 in its mode.

    python3 validation/certify.py --all | --sample K [--dlsched tool/dlsched]
        [--manifest validation/manifest.json] [--glpsol glpsol] [--only ID,...]
        [--no-dlsched] [--certificates]

With --certificates, only the schedules of the paper's LP (no selection) are taken, their
numbers read as the doubles dlsched reads (not the decimals the optima are stated in), and
the rational certificate of `dlsched schedule --exact` must equal the optimum rebuilt here
exactly, fraction for fraction (within the tolerance rule where dlsched stretched limits
that hold the load only within it), its loads must sum to the load and replay to its
makespan, exactly.

Exit status: 0 every instance agrees, 1 a mismatch (each named with both numbers), 77 when
glpsol (or python3) is missing, 2 bad usage or an unreadable manifest."""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refmodel as R  # noqa: E402
from refmodel import F  # noqa: E402

RECERT_TOL = F(1, 10**12)
DLS_TOL = F(1, 10**9)
SAMPLE_SEED = 17


def rel_diff(a, b):
    a, b = F(a), F(b)
    scale = max(abs(a), abs(b))
    return F(0) if scale == 0 else abs(a - b) / scale


def recompute(e, root, glpsol):
    with open(os.path.join(root, e["platform"])) as f:
        procs = json.load(f)["processors"]
    how = e["certified_by"]
    kind = e["kind"]
    if kind == "schedule":
        md = e["mode"]
        if how == "closed_form":
            seq = R.star_sequence(procs, md["order"], md["originator_computes"])
            S, C, B, lines = R.star_data(procs, seq, R.fx(e["load"]))
            if any(b is not None for b in B) or any(len(ln) != 1 for ln in lines):
                raise R.CertError("closed forms need one time line and no limit")
            if e["family"] == "homogeneous":
                keys = {(S[k], C[k], lines[k][0]) for k in range(len(S))}
                if len(keys) != 1:
                    raise R.CertError("homogeneous instance with different processors")
                a, b = lines[0][0]
                v = R.homogeneous_closed_form(len(S), S[0], C[0], a, b, R.fx(e["load"]),
                                              md["selection"])
            else:
                if md["selection"] or any(ln[0][0] != 0 for ln in lines):
                    raise R.CertError("the linear closed form is for the paper's LP, lines "
                                      "through the origin")
                r = R.linear_closed_form(S, C, [ln[0][1] for ln in lines], R.fx(e["load"]))
                v = None if r is None else r[0]
            if v is None:
                raise R.CertError("closed form undefined (a load would be negative)")
            return v
        want = "exhaustive" if md["selection"] else "glp_exact"
        if how != want:
            raise R.CertError(f"certified_by {how} for a schedule in this mode")
        return R.schedule_optimum(procs, e["load"], md, glpsol)[0]
    if how != "exhaustive":
        raise R.CertError(f"certified_by {how} for a {kind}")
    if kind == "partition":
        return R.partition_optimum(procs, e["elements"])
    if kind == "matrix":
        return R.matrix_optimum(procs, e["matrix"])
    if kind == "weighted":
        with open(os.path.join(root, e["weights"])) as f:
            w = json.load(f)
        return R.weighted_optimum(procs, w, e.get("ordered", False))
    raise R.CertError(f"unknown kind {kind}")


def dlsched_args(e, root):
    P = os.path.join(root, e["platform"])
    kind = e["kind"]
    if kind == "schedule":
        md = e["mode"]
        a = ["schedule", P, "--load", repr(float(e["load"])), "--order", md["order"]]
        v = ["--order", md["order"]]
        if md["originator_computes"]:
            a.append("--originator-computes")
            v.append("--originator-computes")
        if not md["selection"]:
            a.append("--keep-unused")
        return a + ["--json"], v
    if kind == "partition":
        return ["partition", P, "--elements", str(e["elements"]), "--json"], []
    if kind == "matrix":
        return ["partition", P, "--matrix", str(e["matrix"]), "--json"], \
            ["--matrix", str(e["matrix"])]
    if kind == "weighted":
        W = os.path.join(root, e["weights"])
        a = ["partition", P, "--weights", W, "--json"]
        v = ["--weights", W]
        if e.get("ordered"):
            a.append("--ordered")
            v.append("--ordered")
        return a, v
    raise R.CertError(f"unknown kind {kind}")


def check_dlsched(e, root, dlsched, opt, tmpdir):
    """Problems found with dlsched's answer (a list of strings)."""
    probs = []
    args, vargs = dlsched_args(e, root)
    r = subprocess.run([dlsched] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        return [f"dlsched {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}"]
    d = json.loads(r.stdout)
    mk = d["makespan"]
    if rel_diff(F(mk), opt) > DLS_TOL:
        probs.append(f"dlsched's makespan {mk!r} differs from the certified optimum "
                     f"{R.dec(opt)} by {float(rel_diff(F(mk), opt)):.3g} relative")
    if e["kind"] == "weighted" and d.get("status") != "optimal":
        probs.append(f"dlsched's status is {d.get('status')}, not optimal")
    if vargs is None:
        return probs
    out = os.path.join(tmpdir, "out.json")
    with open(out, "w") as f:
        f.write(r.stdout)
    v = subprocess.run([dlsched, "verify", os.path.join(root, e["platform"]), out]
                       + vargs + ["--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if v.returncode != 0:
        return probs + [f"dlsched verify exited {v.returncode}: "
                        f"{(v.stdout + v.stderr).strip()[:800]}"]
    vd = json.loads(v.stdout)
    if not vd.get("valid"):
        probs.append("dlsched verify: not valid")
    if e["kind"] == "schedule" and not e["mode"]["selection"]:
        # the paper's LP: its claimed makespan is the paper's optimum, which must be ours
        for key in ("claimed_makespan", "paper_optimum"):
            if rel_diff(F(vd[key]), opt) > DLS_TOL:
                probs.append(f"dlsched verify: {key} {vd[key]!r} differs from the certified "
                             f"{R.dec(opt)}")
    else:
        if rel_diff(F(vd["makespan"]), F(vd["best"])) > DLS_TOL:
            probs.append(f"dlsched verify: gap {vd['gap']!r} (makespan {vd['makespan']!r}, "
                         f"best {vd['best']!r})")
        if e["kind"] == "schedule" and rel_diff(F(vd["selection_optimum"]), opt) > DLS_TOL:
            probs.append(f"dlsched verify: selection_optimum {vd['selection_optimum']!r} "
                         f"differs from the certified {R.dec(opt)}")
    return probs


def stretched(e, root):
    """Whether the instance's limits hold its load only within the tolerance rule, exactly
    (dlsched then stretches them by its own margin: the LP differs by up to the rule)."""
    with open(os.path.join(root, e["platform"])) as f:
        procs = json.load(f)["processors"]
    if not procs or any("limit" not in p for p in procs):
        return False
    return sum(F(float(p["limit"])) for p in procs) < F(float(e["load"]))


def check_certificate(e, root, dlsched, opt):
    """Problems with dlsched's rational certificate of a paper's LP instance."""
    args, _ = dlsched_args(e, root)
    r = subprocess.run([dlsched] + args + ["--exact"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return [f"dlsched {' '.join(args)} --exact exited {r.returncode}: {r.stderr.strip()}"]
    d = json.loads(r.stdout)
    c = d.get("certificate")
    if c is None:
        return [f"no certificate: {d.get('note', '')}"]
    q = R.parse_num(c["makespan"])
    probs = []
    if stretched(e, root):
        if rel_diff(q, opt) > DLS_TOL:
            probs.append(f"certified {c['makespan']} differs from {R.dec(opt)} beyond the rule")
    elif q != opt:
        probs.append(f"certified {R.dec(q, 30)} differs from the exact optimum "
                     f"{R.dec(opt, 30)} ({float(rel_diff(q, opt)):.3g} relative)")
    with open(os.path.join(root, e["platform"])) as f:
        procs = json.load(f)["processors"]
    md = e["mode"]
    seq = R.star_sequence(procs, md["order"], md["originator_computes"])
    S, C, B, lines = R.star_data(procs, seq, R.fx(e["load"]))
    by_name = {p["name"]: R.parse_num(p["load"]) for p in c["processors"]}
    loads = [by_name.get(procs[i]["name"]) for i in seq]
    if None in loads:
        return probs + ["the certificate does not give every processor's load"]
    if sum(loads) != R.fx(e["load"]):
        probs.append("the certificate's loads do not sum to the load exactly")
    if R.replay(S, C, lines, loads) != q:
        probs.append("the certificate's loads do not replay to its makespan exactly")
    if sum(R.parse_num(p["finish_weight"]) for p in c["processors"]) != 1:
        probs.append("the certificate's dual weights do not sum to 1")
    return probs


def pick_sample(insts, k):
    """A fixed sample: families in turn (manifest order), a fixed random member of each."""
    rng = random.Random(SAMPLE_SEED)
    fams = {}
    for e in insts:
        fams.setdefault(e["family"], []).append(e)
    for members in fams.values():
        rng.shuffle(members)
    out = []
    while len(out) < min(k, len(insts)):
        for members in fams.values():
            if members and len(out) < k:
                out.append(members.pop())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--manifest", default=os.path.join(here, "manifest.json"))
    ap.add_argument("--dlsched", default=os.environ.get("DLSCHED", "tool/dlsched"))
    ap.add_argument("--glpsol", default="glpsol")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--all", action="store_true")
    g.add_argument("--sample", type=int, metavar="K")
    g.add_argument("--only", metavar="ID,...")
    ap.add_argument("--no-dlsched", action="store_true",
                    help="recertify the optima only, without running dlsched")
    ap.add_argument("--certificates", action="store_true",
                    help="check dlsched's rational certificates (schedules of the paper's "
                    "LP) against the optima rebuilt from the doubles")
    a = ap.parse_args()
    if a.certificates:
        R.EXACT_DOUBLES = True
    if shutil.which(a.glpsol) is None:
        print(f"certify: {a.glpsol} not found: skipped", file=sys.stderr)
        return 77
    if not a.no_dlsched and not os.access(a.dlsched, os.X_OK):
        print(f"certify: {a.dlsched} is not an executable program", file=sys.stderr)
        return 2
    try:
        with open(a.manifest) as f:
            man = json.load(f)
    except (OSError, ValueError) as err:
        print(f"certify: {a.manifest}: {err}", file=sys.stderr)
        return 2
    if man.get("version") != 1:
        print(f"certify: {a.manifest}: unknown version {man.get('version')}", file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.abspath(a.manifest))
    insts = man["instances"]
    if a.certificates:
        insts = [e for e in insts if e["kind"] == "schedule" and not e["mode"]["selection"]]
    if a.sample is not None:
        insts = pick_sample(insts, a.sample)
    elif a.only:
        ids = set(a.only.split(","))
        insts = [e for e in insts if e["id"] in ids]
    import tempfile
    bad = 0
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for e in insts:
            t = time.monotonic()
            want = R.parse_num(e["optimum"])
            try:
                got = recompute(e, root, a.glpsol)
            except (R.CertError, OSError, KeyError, ValueError) as err:
                print(f"FAIL {e['id']}: cannot recertify ({e['certified_by']}): {err}")
                bad += 1
                continue
            probs = []
            if rel_diff(got, want) > RECERT_TOL:
                probs.append(f"recertified optimum {R.dec(got)} ({e['certified_by']}) differs "
                             f"from the manifest's {e['optimum']}")
            if a.certificates:
                probs += check_certificate(e, root, a.dlsched, got)
            elif not a.no_dlsched:
                probs += check_dlsched(e, root, a.dlsched, got, tmp)
            if probs:
                bad += 1
                print(f"FAIL {e['id']} ({e['family']}, {e['kind']}):")
                for p in probs:
                    print(f"    {p}")
            else:
                print(f"ok   {e['id']:24s} {e['family']:12s} {e['certified_by']:12s} "
                      f"{R.dec(got, 17)}  {time.monotonic() - t:.2f}s")
    print(f"{len(insts) - bad} of {len(insts)} instances agree "
          f"({time.monotonic() - t0:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
