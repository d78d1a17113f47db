#!/bin/sh
# The layer checker must reject a tree that breaks each of its rules.
exec sh "${top_srcdir:-.}/tests/layout/check_layers.sh" --self-test
