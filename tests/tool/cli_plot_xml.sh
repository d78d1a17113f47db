#!/bin/sh
# The SVG files of `dlsched plot` are well-formed XML, parsed by python3 (skipped without
# it): every shipped example with the default and forced linear scales, a file that
# replaced another, and a platform with identical processors and measured points (their
# legend and the style of the extrapolated ranges). cli_plot.sh checks the rest.
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
run plot "$ex/star_two.json" -o "$tmp/replace.svg"
expect_rc 0 "replace"

# Issue 36: identical processors named together in the legend, one curve drawn for them;
# the range beyond the measured sizes dotted and lighter, with its legend key; and the
# picture turns into a PNG (with rsvg-convert, where it is installed).
cat >"$tmp/twins.json" <<'EOF'
{"processors": [
  {"name": "xeon-a", "speed": {"points": [[1e3, 2e3], [5e4, 6e3], [2e5, 1.2e3]]}, "limit": 4e5},
  {"name": "xeon-b", "speed": {"points": [[1e3, 2e3], [5e4, 6e3], [2e5, 1.2e3]]}, "limit": 4e5},
  {"name": "epyc", "time": [[0, 4e-5], [-60, 4.4e-4]]}]}
EOF
run plot "$tmp/twins.json" -o "$tmp/twins.svg"
expect_rc 0 "plot twins"
py_check "plot: identical processors and extrapolated ranges" "$tmp/twins.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
texts = [t.text for t in root.iter(ns + "text")]
assert "xeon-a = xeon-b (identical)" in texts, texts
assert "extrapolated (no measurement)" in texts, texts
paths = list(root.iter(ns + "path"))
curves = [p for p in paths if p.get("class") == "curve"]
extra = [p for p in paths if p.get("class") == "extrapolated"]
assert len(curves) == 2, "one curve for the twins, one for epyc"
assert len(extra) == 2, "below the first point and from the last one to the limit"
for p in extra:
    assert p.get("stroke-dasharray") and float(p.get("stroke-opacity")) < 1, p.attrib
    assert float(p.get("stroke-width")) < float(curves[0].get("stroke-width")), p.attrib
PY
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert "$tmp/twins.svg" -o "$tmp/twins.png" || fail "plot: rsvg-convert failed"
    py_check "plot: the PNG" "$tmp/twins.png" <<'PY'
import struct, sys
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
assert struct.unpack(">II", png[16:24]) == (900, 560), struct.unpack(">II", png[16:24])
PY
fi

for svg in "$tmp"/*.svg; do
    py_check "${svg##*/}: not well-formed XML" "$svg" <<'PY'
import sys, xml.dom.minidom
xml.dom.minidom.parse(sys.argv[1])
PY
done

cli_summary
