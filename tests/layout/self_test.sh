#!/bin/sh
# The layer checker and the map checker must each reject a tree that breaks each of its rules.
sh "${top_srcdir:-.}/tests/layout/check_layers.sh" --self-test || exit 1
exec sh "${top_srcdir:-.}/tests/layout/check_map.sh" --self-test
