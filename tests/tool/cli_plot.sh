#!/bin/sh
# Checks `dlsched plot` from the outside: every shipped example gives a complete SVG file
# (cli_plot_xml.sh checks that it is well-formed XML), the file is replaced atomically, and
# bad usage, unreadable platforms and unwritable files exit 2.
. "${top_srcdir:-.}/tests/support/cli.sh"

# The SVG is a whole document (cli_plot_xml.sh parses it as XML with python3).
check_svg() {
    [ -s "$1" ] || { fail "$2: no file written"; return; }
    sed -n 1p "$1" | grep -qs '^<?xml' || fail "$2: does not start with <?xml" "$(sed -n 1p "$1")"
    grep -qs '</svg>' "$1" || fail "$2: no </svg>"
}

# Every example, with the default scales and with each one forced.
for f in "$ex"/*.json; do
    name=$(basename "$f" .json)
    run plot "$f" -o "$tmp/$name.svg"
    expect_rc 0 "plot $name"
    [ ! -s "$tmp/out" ] || fail "plot $name: wrote to stdout" "$(cat "$tmp/out")"
    check_svg "$tmp/$name.svg" "plot $name"
    run plot "$f" --output "$tmp/$name-lin.svg" --x-scale linear --y-scale linear --title "Linear <$name>"
    expect_rc 0 "plot $name linear"
    check_svg "$tmp/$name-lin.svg" "plot $name linear"
    grep -qs "Linear &lt;$name&gt;" "$tmp/$name-lin.svg" || fail "plot $name: title not escaped"
    run plot "$f" -o "$tmp/$name-log.svg" --x-scale log --y-scale=log
    expect_rc 0 "plot $name log"
    grep -qs 'log scale' "$tmp/$name-log.svg" || fail "plot $name: --x-scale log gave no log axis"
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
run plot "$ex/star_two.json" -o "$tmp/replace.svg"
expect_rc 0 "replace"
check_svg "$tmp/replace.svg" "replace"
grep -qs 'old content' "$tmp/replace.svg" && fail "replace: the old content is still there"
ls "$tmp" | grep -qs '\.tmp\.' && fail "a temporary file was left behind" "$(ls "$tmp")"

# Usage errors and unreadable input: exit 2, nothing written.
run plot "$ex/cluster.json"
expect_refused 2 "no -o" "-o FILE is required"
run plot -o "$tmp/x.svg"
expect_rc 2 "no platform"
run plot "$ex/cluster.json" -o "$tmp/x.svg" --x-scale maybe
expect_rc 2 "--x-scale maybe"
run plot "$ex/cluster.json" -o "$tmp/x.svg" --output "$tmp/y.svg"
expect_rc 2 "-o and --output"
run plot "$tmp/missing.json" -o "$tmp/x.svg"
expect_refused 2 "missing platform" "missing.json"
printf '{"processors": [{"name": "a", "speed": -1}]}\n' > "$tmp/bad.json"
run plot "$tmp/bad.json" -o "$tmp/x.svg"
expect_rc 2 "invalid platform"
expect_err 'processor "a"' "invalid platform: message"
[ -e "$tmp/x.svg" ] && fail "a file was written after an error"

# Unwritable destinations: a missing directory, a read-only one.
run plot "$ex/cluster.json" -o "$tmp/no/such/dir/x.svg"
expect_refused 2 "missing directory" "x.svg"
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
grep -qs -- "--x-scale" "$tmp/out" || fail "help lacks --x-scale"

cli_summary
