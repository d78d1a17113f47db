#!/bin/sh
# dlsched(1) against the option tables (issue 37, item 4): every option of every command, as
# its help lists it (the help is generated from the command's table), is in the command's
# synopsis line of the page (the .BI lines that start with the command's name), or, for a
# command whose synopsis ends in [options], in its entry; and every option a synopsis names
# is in the command's table. So the page cannot lose or keep an option the program has not.
. "${top_srcdir:-.}/tests/support/cli.sh"

man=$top_srcdir/doc/dlsched.1
run --help
expect_rc 0 "dlsched --help"
sed -n '/^Commands:/,/^$/p' "$tmp/out" | awk 'NR > 1 && NF { print $1 }' >"$tmp/commands"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/commands")" -ge 10 ] || fail "fewer than 10 commands in dlsched --help"

# The page's text of command $1: its synopsis lines (synopsis) or its whole entry (entry),
# the font escapes taken out and \- written -.
page_text() {
    awk -v c="$1" -v what="$2" '
        /^\.SH / { on = ($2 == "COMMANDS") }
        on && /^\.BI "/ { w = $2; sub(/^"/, "", w); sub(/"$/, "", w); cur = w
                          if (cur == c) { print; next } }
        on && what == "entry" && cur == c { print }' "$man" |
        sed 's/\\-/-/g; s/\\f[A-Z]//g; s/\\f(..//g'
}

while read -r cmd; do
    run help "$cmd"
    expect_rc 0 "dlsched help $cmd"
    # "  -o, --output FILE": the long name, then the one-letter alias if any
    sed -n 's/^  \(-\([a-z]\), \)\{0,1\}--\([a-z0-9-]*\).*/\3 \2/p' "$tmp/out" |
        grep -v '^help ' >"$tmp/opts"
    page_text "$cmd" synopsis >"$tmp/synopsis"
    checks=$((checks + 1))
    [ -s "$tmp/synopsis" ] || { fail "dlsched.1 has no synopsis line for $cmd"; continue; }
    where=synopsis
    if grep -q '\[options\]' "$tmp/synopsis"; then
        page_text "$cmd" entry >"$tmp/synopsis"
        where=entry
    fi
    while read -r long short; do
        checks=$((checks + 1))
        grep -Eq -- "--$long([^a-z0-9-]|$)" "$tmp/synopsis" && continue
        [ -n "$short" ] && grep -Eq -- "(^|[^a-z0-9-])-$short([^a-z0-9-]|$)" "$tmp/synopsis" &&
            continue
        fail "dlsched.1: the $where of $cmd does not name --$long, an option of its table"
    done <"$tmp/opts"
    # the other way: an option in a synopsis that the table does not have
    page_text "$cmd" synopsis | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/named" || true
    while read -r named; do
        checks=$((checks + 1))
        grep -q "^${named#--} " "$tmp/opts" ||
            fail "dlsched.1: the synopsis of $cmd names $named, which it does not take"
    done <"$tmp/named"
done <"$tmp/commands"
cli_summary
