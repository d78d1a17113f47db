#!/bin/sh
# The one reader of name lists (issue 37, item 4): --order, --sequence, --installments and
# --return-order read NAME,NAME,... or a FILE of names by one rule: one trailing comma, an
# empty name refused, blanks (CR included) around a name ignored, '#' and blank lines of a
# file skipped; each message names the option (or FILE:LINE) and the platform.
. "${top_srcdir:-.}/tests/support/cli.sh"

cat >"$tmp/two.json" <<'JSON'
{"processors": [{"name": "a", "speed": 1, "link": {"startup": 0.5, "rate": 0.5}},
                {"name": "b", "speed": 2, "link": {"startup": 0.5, "rate": 0.5}}]}
JSON
P=$tmp/two.json

# bad WHAT PATTERN ARGS...: exit 2 and PATTERN in the messages.
bad() {
    what=$1 pattern=$2
    shift 2
    run "$@"
    expect_rc 2 "$what"
    expect_err "$pattern" "$what"
}

# The same lists are taken by every option of names.
run schedule "$P" --load 10 --order "b, a,"
expect_rc 0 "--order with a blank and a trailing comma"
run installments "$P" --load 10 --lp --sequence "b, a,a,"
expect_rc 0 "--sequence with a blank and a trailing comma"
run export "$P" --load 10 --format lp -o - --installments "b, a,"
expect_rc 0 "--installments with a blank and a trailing comma"

# A file with CRLF line ends, a comment and a blank line.
printf '# the order\r\nb\r\n\r\na, \r\n' >"$tmp/names.txt"
run schedule "$P" --load 10 --order "$tmp/names.txt"
expect_rc 0 "--order FILE with CRLF"
run installments "$P" --load 10 --lp --sequence "$tmp/names.txt"
expect_rc 0 "--sequence FILE with CRLF"

# An empty name is refused everywhere, with where it is.
bad "--order: an empty name" '--order, name 2 is empty' schedule "$P" --load 10 --order a,,b
bad "--sequence: an empty name" '--sequence, name 2 is empty' \
    installments "$P" --load 10 --lp --sequence a,,b
bad "--installments: an empty name" '--installments, name 2 is empty' \
    export "$P" --load 10 --format lp -o - --installments a,,b

# An unknown name: the option, its place and the platform.
bad "--sequence: an unknown name" "--sequence, name 2: \"x\" is not a processor of $P" \
    installments "$P" --load 10 --lp --sequence a,x
printf 'a\nx\n' >"$tmp/unknown.txt"
bad "--sequence FILE: an unknown name" "$tmp/unknown.txt:2: \"x\" is not a processor of $P" \
    installments "$P" --load 10 --lp --sequence "$tmp/unknown.txt"
printf 'a 0.1 0 1\nb 0.1 0 1\n' >"$tmp/returns.txt"
bad "--return-order: an unknown name" "--return-order, name 2: \"x\" is not a processor" \
    installments "$P" --load 10 --lp --sequence a,b --returns "$tmp/returns.txt" \
    --return-order a,x

# A value without a comma is a FILE: a missing one says so, and names the option.
bad "--sequence: no such file" \
    "installments: --sequence $tmp/none: .*(a value without a comma is a FILE of names" \
    installments "$P" --load 10 --lp --sequence "$tmp/none"
bad "--sequence: a name alone" '"a" is a processor: a list of names holds commas' \
    installments "$P" --load 10 --lp --sequence a

cli_summary
