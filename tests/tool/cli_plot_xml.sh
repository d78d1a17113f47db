#!/bin/sh
# The SVG files of `dlsched plot` are well-formed XML, parsed by python3 (skipped without
# it): every shipped example with the default and forced linear scales, and a file that
# replaced another. cli_plot.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

for f in "$ex"/*.json; do
    name=$(basename "$f" .json)
    run plot "$f" -o "$tmp/$name.svg"
    expect_rc 0 "plot $name"
    run plot "$f" --output "$tmp/$name-lin.svg" --x-scale linear --y-scale linear --title "Linear <$name>"
    expect_rc 0 "plot $name linear"
done
printf 'old content that is longer than nothing\n' > "$tmp/replace.svg"
run plot "$ex/paper003_two.json" -o "$tmp/replace.svg"
expect_rc 0 "replace"

for svg in "$tmp"/*.svg; do
    py_check "${svg##*/}: not well-formed XML" "$svg" <<'PY'
import sys, xml.dom.minidom
xml.dom.minidom.parse(sys.argv[1])
PY
done

cli_summary
