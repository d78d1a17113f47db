#!/bin/sh
# No circle between the folders of the tree. The nodes are the module folders: each
# src/MODULE, and tool, mpi, simgrid, smpi, lp, examples, fuzz and each tests/SUITE (the
# public headers of include/ belong to no folder: everyone may use them). The edges are
#   1. the includes: a file that includes "header.h" (found beside the file, then under
#      include/ and src/, then, for a bare name, as the one tracked file of that name, as
#      the -I flags of the Makefile find it) uses the header's folder;
#   2. the calls, where objects are built: an object that needs a dls__ symbol that its own
#      folder does not define uses the folder that defines it (the library's, when several do;
#      smpi/obj/FOLDER holds SMPI builds of FOLDER's sources and counts as FOLDER).
# Any cycle is printed, each step with a file (and line, or symbol) that makes it.
# tests/layout/check_layers.sh orders the modules of src/ by their layers; this check covers
# the folders around them, which have no layer.
#
# Usage: check_graph.sh [--edges] [SRCDIR [BUILDDIR]]   (defaults: $top_srcdir and
# $top_builddir, or .); --edges prints every edge with its first evidence.
# Needs python3 (skipped, exit 77, without it). Without nm or objects, the calls are not
# read (said in a message). check_graph.sh --self-test runs it on small trees and fails
# unless it accepts one without a cycle and rejects the cycles it is given.
set -u

if ! command -v python3 >/dev/null 2>&1; then
    echo "check_graph: SKIP: no python3: the graph of folders was not checked"
    exit 77
fi

check() { # SRCDIR BUILDDIR
    if command -v nm >/dev/null 2>&1; then
        nm_ok=1
    else
        nm_ok=0
    fi
    python3 - "$1" "$2" "$nm_ok" "${show:-0}" << 'EOF'
import os, re, subprocess, sys

src, build, nm_ok, show = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"
FOLDERS = ["src", "tool", "mpi", "simgrid", "smpi", "lp", "examples", "fuzz", "tests"]
SOURCE = re.compile(r"\.(c|cc|cpp|h|hh|hpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

def folder(rel):
    """The module folder of a path relative to the tree, or None (include/, tests/data)."""
    if rel.startswith("smpi/obj/"):
        rel = rel[len("smpi/obj/"):]
    parts = rel.split("/")
    if parts[0] not in FOLDERS:
        return None
    if parts[0] in ("src", "tests"):
        if len(parts) < 3:
            return parts[0]
        if parts[0] == "tests" and parts[1] == "data":
            return None
        return parts[0] + "/" + parts[1]
    return parts[0]

def tracked(root):
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True)
        if top.returncode == 0 and os.path.realpath(top.stdout.strip()) == os.path.realpath(root):
            out = subprocess.run(["git", "-C", root, "ls-files", "--"] + FOLDERS + ["include"],
                                 capture_output=True, text=True, check=True).stdout
            return [f for f in out.splitlines() if SOURCE.search(f)]
    except OSError:
        pass
    files = []
    for d in FOLDERS + ["include"]:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [x for x in dirnames if not x.startswith(".") and x != "obj"]
            for f in filenames:
                if SOURCE.search(f):
                    files.append(os.path.relpath(os.path.join(dirpath, f), root))
    return files

files = tracked(src)
known = set(files)
by_name = {}
for f in files:
    by_name.setdefault(os.path.basename(f), []).append(f)

edges = {}  # (from folder, to folder) -> the first evidence
def edge(a, b, why):
    if a and b and a != b:
        edges.setdefault((a, b), why)

# 1. includes
for f in files:
    here = folder(f)
    if here is None:
        continue
    try:
        text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        continue
    for n, line in enumerate(text, 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        inc = m.group(1)
        target = None
        for cand in (os.path.normpath(os.path.join(os.path.dirname(f), inc)),
                     "include/" + inc, "src/" + inc):
            if cand in known:
                target = cand
                break
        if target is None and "/" not in inc and len(by_name.get(inc, [])) == 1:
            target = by_name[inc][0]
        if target is not None:
            edge(here, folder(target), '%s:%d includes "%s"' % (f, n, inc))

# 2. calls, from the objects
objects = []
for d in FOLDERS:
    for dirpath, dirnames, filenames in os.walk(os.path.join(build, d)):
        dirnames[:] = [x for x in dirnames if x != ".git" and x != "data"]
        objects += [os.path.join(dirpath, x) for x in filenames if x.endswith(".o")]
if not nm_ok:
    print("check_graph: no nm: the calls between folders were not read")
elif not objects:
    print("check_graph: no objects under %s: the calls between folders were not read" % build)
else:
    defs, needs = {}, []
    out = subprocess.run(["nm", "-A"] + sorted(objects, key=lambda o: ("/smpi/obj/" in o, o)), capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"^(.*?\.o):\s*(.*)$", line)
        if not m or "dls__" not in m.group(2):
            continue
        fields = m.group(2).split()
        rel = os.path.relpath(m.group(1), build).replace("/.libs/", "/")
        fo = folder(rel)
        if fo is None:
            continue
        if len(fields) == 2 and fields[0] == "U":
            needs.append((fo, rel, fields[1]))
        elif len(fields) == 3 and fields[1] in "TDBRCG" and fields[2].startswith("dls__"):
            defs.setdefault(fields[2], set()).add(fo)
    for fo, rel, sym in needs:
        where = defs.get(sym, set())
        if not where or fo in where:
            continue
        lib = {w for w in where if w.startswith("src/")}
        for w in sorted(lib or where):
            edge(fo, w, "%s calls %s" % (rel, sym))

# cycles: the strongly connected components of more than one folder (Tarjan)
graph = {}
for a, b in edges:
    graph.setdefault(a, []).append(b)
    graph.setdefault(b, [])
index, low, stack, on, comps = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in sorted(graph[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(graph):
    if v not in index:
        visit(v)

def cycle(comp):
    """One circle through the first folder of a component (a breadth-first search back)."""
    inside, start = set(comp), comp[0]
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v]):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return comp

for comp in comps:
    path = cycle(comp)
    print("check_graph: a circle between folders: %s" % " -> ".join(path))
    for a, b in zip(path, path[1:]):
        print("    %s -> %s: %s" % (a, b, edges[(a, b)]))
if show:
    for (a, b), why in sorted(edges.items()):
        print("%s -> %s: %s" % (a, b, why))
print("check_graph: %s: %d folders, %d edges between them (%d files, %d objects read)"
      % ("%d circle(s)" % len(comps) if comps else "no circle", len(graph), len(edges),
         len(files), len(objects) if nm_ok else 0))
sys.exit(1 if comps else 0)
EOF
}

if [ "${1:-}" = "--self-test" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-graph.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    root=$tmp/tree
    mkdir -p "$root/src/low" "$root/src/high" "$root/tool" "$root/tests/low" "$root/include"
    printf '#include "dlsched.h"\n' > "$root/src/low/low.h"
    printf '#include "low/low.h"\n' > "$root/src/low/low.c"
    printf '#include "low/low.h"\n' > "$root/src/high/high.h"
    printf '#include "high/high.h"\n' > "$root/src/high/high.c"
    printf '#include "tool.h"\n#include "dlsched.h"\n' > "$root/tool/main.c"
    printf '\n' > "$root/tool/tool.h"
    printf '#include "low/low.h"\n#include "testutil.h"\n' > "$root/tests/low/test_low.c"
    printf '\n' > "$root/tests/low/testutil.h"
    printf '\n' > "$root/include/dlsched.h"
    check_copy() { check "$1" "$1"; }
    rejection() { grep circle | head -n 1; }
    . "$(dirname "$0")/selftest.sh"
    expect_accept "a tree without a circle was rejected"
    expect_reject "two modules including each other" 'printf "#include \"high/high.h\"\n" >> src/low/low.c'
    expect_reject "a circle through three folders" 'printf "#include \"../../tool/tool.h\"\n" >> src/low/low.c && printf "#include \"../tests/low/testutil.h\"\n" >> tool/main.c'
    expect_reject "a circle through a bare header name" 'printf "#include \"testutil.h\"\n" >> src/high/high.c && printf "#include \"high/high.h\"\n" >> tests/low/testutil.h'
    if can_compile; then
        obj() { compile_to "$root/$1/$2.o" "$3"; } # folder, name, C text
        obj src/low low 'void dls__low(void); void dls__low(void) {}'
        obj src/high high 'void dls__low(void); void dls__high(void); void dls__high(void) { dls__low(); }'
        expect_accept "objects without a circle rejected"
        expect_reject "a call back up, without an include" "printf 'void dls__high(void); void dls__low2(void); void dls__low2(void) { dls__high(); }\n' > x.c && ${CC:-cc} -c -o src/low/low2.o x.c"
    else
        echo "self-test: no C compiler or nm: the calls were not tried"
    fi
    exit $failed
fi

show=0
if [ "${1:-}" = "--edges" ]; then
    show=1
    shift
fi
check "${1:-${top_srcdir:-.}}" "${2:-${top_builddir:-.}}"
