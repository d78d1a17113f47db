#!/bin/sh
# Checks `dlsched plot` from the outside: every shipped example gives a complete SVG file
# (well-formed XML when python3 is there), the file is replaced atomically, and bad usage,
# unreadable platforms and unwritable files exit 2.
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-plot.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
# The SVG is a complete XML document.
check_svg() {
    [ -s "$1" ] || { fail "$2: no file written"; return; }
    sed -n 1p "$1" | grep -qs '^<?xml' || fail "$2: does not start with <?xml" "$(sed -n 1p "$1")"
    grep -qs '</svg>' "$1" || fail "$2: no </svg>"
    if [ "$have_python" = yes ]; then
        python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$1" \
            2>"$tmp/xml" || fail "$2: not well-formed XML" "$(cat "$tmp/xml")"
    fi
}

# Every example, with the default scales and with each one forced.
for f in "$ex"/*.json; do
    name=$(basename "$f" .json)
    run plot "$f" -o "$tmp/$name.svg"
    expect_rc 0 "plot $name"
    [ ! -s "$tmp/out" ] || fail "plot $name: wrote to stdout" "$(cat "$tmp/out")"
    check_svg "$tmp/$name.svg" "plot $name"
    run plot "$f" --output "$tmp/$name-lin.svg" --log-x no --log-y no --title "Linear <$name>"
    expect_rc 0 "plot $name linear"
    check_svg "$tmp/$name-lin.svg" "plot $name linear"
    grep -qs "Linear &lt;$name&gt;" "$tmp/$name-lin.svg" || fail "plot $name: title not escaped"
    run plot "$f" -o "$tmp/$name-log.svg" --log-x yes --log-y=yes
    expect_rc 0 "plot $name log"
    grep -qs 'log scale' "$tmp/$name-log.svg" || fail "plot $name: --log-x yes gave no log axis"
done

# What the picture holds: legend entries, a limit line, sections of the 2-D model.
run plot "$ex/cluster.json" -o "$tmp/c.svg"
for label in '>cpu0<' '>node7<' '>w1<' '>gpu0 at x = 64<' '>gpu0 at x = 8192<'; do
    grep -qs "$label" "$tmp/c.svg" || fail "cluster: no legend entry $label"
done
grep -qs 'class="limit"' "$tmp/c.svg" || fail "cluster: no limit line"

# The same input gives the same file.
run plot "$ex/cluster.json" -o "$tmp/c2.svg"
cmp -s "$tmp/c.svg" "$tmp/c2.svg" || fail "two runs gave different files"

# The file is replaced, not appended to, and no temporary file is left behind.
printf 'old content that is longer than nothing\n' > "$tmp/replace.svg"
run plot "$ex/paper003_two.json" -o "$tmp/replace.svg"
expect_rc 0 "replace"
check_svg "$tmp/replace.svg" "replace"
grep -qs 'old content' "$tmp/replace.svg" && fail "replace: the old content is still there"
ls "$tmp" | grep -qs '\.tmp\.' && fail "a temporary file was left behind" "$(ls "$tmp")"

# Usage errors and unreadable input: exit 2, nothing written.
run plot "$ex/cluster.json"
expect_rc 2 "no -o"
grep -qs -- "-o FILE is required" "$tmp/err" || fail "no -o: message" "$(cat "$tmp/err")"
run plot -o "$tmp/x.svg"
expect_rc 2 "no platform"
run plot "$ex/cluster.json" -o "$tmp/x.svg" --log-x maybe
expect_rc 2 "--log-x maybe"
run plot "$ex/cluster.json" -o "$tmp/x.svg" --output "$tmp/y.svg"
expect_rc 2 "-o and --output"
run plot "$tmp/missing.json" -o "$tmp/x.svg"
expect_rc 2 "missing platform"
grep -qs "missing.json" "$tmp/err" || fail "missing platform: message" "$(cat "$tmp/err")"
printf '{"processors": [{"name": "a", "speed": -1}]}\n' > "$tmp/bad.json"
run plot "$tmp/bad.json" -o "$tmp/x.svg"
expect_rc 2 "invalid platform"
grep -qs 'processor "a"' "$tmp/err" || fail "invalid platform: message" "$(cat "$tmp/err")"
[ -e "$tmp/x.svg" ] && fail "a file was written after an error"

# Unwritable destinations: a missing directory, a read-only one.
run plot "$ex/cluster.json" -o "$tmp/no/such/dir/x.svg"
expect_rc 2 "missing directory"
grep -qs "x.svg" "$tmp/err" || fail "missing directory: message" "$(cat "$tmp/err")"
mkdir "$tmp/ro"
chmod a-w "$tmp/ro"
if ! touch "$tmp/ro/probe" 2>/dev/null; then # root may write anywhere
    run plot "$ex/cluster.json" -o "$tmp/ro/x.svg"
    expect_rc 2 "read-only directory"
    [ -z "$(ls "$tmp/ro")" ] || fail "read-only directory: something was written" "$(ls "$tmp/ro")"
fi
chmod u+w "$tmp/ro"
run plot "$ex/cluster.json" -o "$tmp/ro" # a directory
expect_rc 2 "destination is a directory"
ls "$tmp" | grep -qs '\.tmp\.' && fail "a temporary file was left behind" "$(ls "$tmp")"

run help plot
expect_rc 0 "help plot"
grep -qs -- "--log-x" "$tmp/out" || fail "help lacks --log-x"

if [ "$failures" -ne 0 ]; then
    echo "cli_plot: $failures check(s) failed"
    exit 1
fi
echo "cli_plot: all checks passed"
