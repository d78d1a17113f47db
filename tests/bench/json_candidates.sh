#!/bin/sh
# Measures the candidate JSON libraries for reading big platform files (issue 13, item 4):
# compiles tests/bench/json_candidates.cc where the libraries are installed, writes a star
# platform of N processors with tests/bench/gen_star.sh, and reads it with each candidate in
# a process of its own, R times (the fastest time and its peak are kept by the reader of
# the output). Figures in doc/BENCHMARKS.md.
#
# usage: sh tests/bench/json_candidates.sh [N] [R]     (default 1000000 processors, 3 runs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000000}
r=${2:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-json.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for c in jansson:JANSSON json-c:JSONC simdjson:SIMDJSON; do
    lib=${c%%:*}
    if ! g++ -O2 -std=c++17 -DCANDIDATE_${c##*:} -o "$tmp/json_candidates_$lib" \
            "$here/json_candidates.cc" $(pkg-config --cflags --libs "$lib") 2>"$tmp/cc.err"; then
        echo "json_candidates: cannot build the $lib reader (Debian: libjansson-dev," \
            "libjson-c-dev, libsimdjson-dev):"
        cat "$tmp/cc.err"
        exit 77
    fi
done
sh "$here/gen_star.sh" "$n" >"$tmp/star.json"
echo "file: $(wc -c <"$tmp/star.json") bytes, $n processors"
for k in $(seq "$r"); do
    for c in jansson json-c simdjson; do
        "$tmp/json_candidates_$c" "$tmp/star.json"
    done
done
