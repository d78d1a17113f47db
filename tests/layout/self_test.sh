#!/bin/sh
# The layer checker, the map checker, the length, graph and request checkers must each
# reject a tree that breaks each of its rules (the length, graph and request checkers skip
# their self-test, status 77, without universal-ctags or python3: then the others still run).
sh "${top_srcdir:-.}/tests/layout/check_layers.sh" --self-test || exit 1
for c in check_lengths check_graph check_requests; do
    sh "${top_srcdir:-.}/tests/layout/$c.sh" --self-test
    rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || exit 1
done
exec sh "${top_srcdir:-.}/tests/layout/check_map.sh" --self-test
