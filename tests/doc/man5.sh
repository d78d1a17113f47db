#!/bin/sh
# The man pages: dlsched(1), dlsched-platform(5) and dlsched-json(5) are clean under
# `mandoc -T lint` (warnings and errors; skipped, exit 77, without mandoc); every key the
# platform reader accepts (the lists of known keys in src/io/platform_simdjson.cc) is
# documented in dlsched-platform(5); every command whose help offers --json has its section
# in dlsched-json(5); and dlsched(1) points to both.
. "${top_srcdir:-.}/tests/support/cli.sh"

if ! command -v mandoc >/dev/null 2>&1; then
    echo "$cli_name: SKIP: mandoc is not installed (the lint of the pages needs it)"
    exit 77
fi

doc=$top_srcdir/doc
pages="$doc/dlsched.1 $doc/dlsched-platform.5 $doc/dlsched-json.5"
for page in $pages; do
    checks=$((checks + 1))
    if ! mandoc -T lint -W warning "$page" >"$tmp/lint" 2>&1 || [ -s "$tmp/lint" ]; then
        fail "mandoc -T lint: ${page##*/}" "$(cat "$tmp/lint")"
    fi
done

# The keys of the platform reader: every `known[] = {"a", "b", ..., nullptr};` list.
awk '/known\[\] = \{/ { on = 1 } on { print } on && /\};/ { on = 0 }' \
    "$top_srcdir/src/io/platform_simdjson.cc" | grep -o '"[A-Za-z0-9_]*"' | tr -d '"' |
    sort -u >"$tmp/keys"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/keys")" -ge 10 ] || fail "fewer than 10 platform keys found in the reader" "$(cat "$tmp/keys")"
# A key counts as documented when it is set in bold (.B or .BR) in the page; \(dq is '"'.
sed -n 's/\\(dq/"/g; /^\.BR\{0,1\} /p' "$doc/dlsched-platform.5" >"$tmp/bold"
while read -r key; do
    checks=$((checks + 1))
    grep -Eq "(^|[^A-Za-z0-9_])$key([^A-Za-z0-9_]|$)" "$tmp/bold" ||
        fail "dlsched-platform.5 does not document the key \"$key\""
done <"$tmp/keys"

# The commands with --json, as the tool lists them.
run --help
expect_rc 0 "dlsched --help"
sed -n '/^Commands:/,/^$/p' "$tmp/out" | awk 'NR > 1 && NF { print $1 }' >"$tmp/commands"
json_commands=0
while read -r cmd; do
    "$DLSCHED" help "$cmd" >"$tmp/help" 2>&1 || fail "dlsched help $cmd"
    grep -q -- '--json' "$tmp/help" || continue
    json_commands=$((json_commands + 1))
    checks=$((checks + 1))
    grep -Eq "^\.SS (.* )?$cmd( |$)" "$doc/dlsched-json.5" ||
        fail "dlsched-json.5 has no section for $cmd --json"
done <"$tmp/commands"
checks=$((checks + 1))
[ "$json_commands" -ge 9 ] || fail "only $json_commands commands with --json found in the help"

for ref in dlsched-platform dlsched-json; do
    checks=$((checks + 1))
    grep -q "^\.BR $ref (5)" "$doc/dlsched.1" || fail "dlsched.1 does not refer to $ref(5)"
done

cli_summary
