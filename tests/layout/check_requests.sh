#!/bin/sh
# Each command reads its command line once: in tool/cmd_*.c, the option readers (arg_*,
# tool_output, tool_require_load, tool_order_fixed, tool_schedule_options) are called only
# from functions whose names end in "_read" or start with "read_" (a command's
# <cmd>_request_read and the small readers it calls), so that the checks, the run and the
# report take the typed request, never the option table. The readers that resolve names
# against the platform (tool_order_read, tool_sequence_read, tool_installment_lp_read) run
# once the platform is read, and are not counted here.
#
# Usage: check_requests.sh [SRCDIR]   (default: $top_srcdir, or .). Without universal-ctags
# (scripts/setup-debian.sh installs it) the check is skipped (exit 77).
# check_requests.sh --self-test runs the checker on small trees and fails unless it accepts
# readers named as the rule says and rejects an option read anywhere else.
set -u

READERS='arg_[a-z_]+\(|tool_output\(|tool_require_load\(|tool_order_fixed\(|tool_schedule_options\('

check() {
    root=$1
    files=$(cd "$root" && ls tool/cmd_*.c 2>/dev/null)
    if [ -z "$files" ]; then
        echo "check_requests: no tool/cmd_*.c under $root"
        return 1
    fi
    : > "$tmp/bad"
    for f in $files; do
        # NAME FIRST LAST, one line a function of the file
        (cd "$root" && ctags --output-format=u-ctags --fields=+ne --c-kinds=f -o - "$f" 2>/dev/null) |
            awk -F'\t' '/^!_/ { next }
                { l = ""; e = ""
                  for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
                  if (l != "" && e != "") print $1, l, e }' |
            while read -r name first last; do
                case $name in *_read | read_*) continue ;; esac
                sed -n "${first},${last}p" "$root/$f" | grep -nE "$READERS" | head -n 1 |
                    while IFS=: read -r at text; do
                        call=$(echo "$text" | grep -oE "$READERS" | head -n 1)
                        echo "check_requests: $f:$((first + at - 1)): $name reads an option (${call%(}); read it in the command's *_request_read" >> "$tmp/bad"
                    done
            done
    done
    [ -s "$tmp/bad" ] || return 0
    cat "$tmp/bad"
    return 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-requests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! command -v ctags >/dev/null 2>&1 || ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "check_requests: SKIP: universal-ctags is not installed (scripts/setup-debian.sh installs it): where options are read was not checked"
    exit 77
fi

if [ "${1:-}" = "--self-test" ]; then
    root=$tmp/tree
    mkdir -p "$root/tool"
    cat > "$root/tool/cmd_x.c" <<'C'
static void x_request_read(const tool_args *a, x_request *r)
{
    r->json = arg_flag(a, "json");
    r->out = tool_output(a);
}

static void read_common(const tool_args *a, x_request *r)
{
    arg_double(a, "load", &r->load);
}

int cmd_x(const tool_args *a)
{
    x_request r;
    x_request_read(a, &r);
    return r.json;
}
C
    out=$(check "$root" 2>&1) || { echo "self-test: a tree that follows the rule was rejected: $out"; exit 1; }
    check_copy() { check "$1"; }
    . "$(dirname "$0")/selftest.sh"
    expect_reject "an option read by the command's entry" \
        "sed -i 's/return r.json;/return arg_flag(a, \"quiet\");/' tool/cmd_x.c"
    expect_reject "the output option read by a run function" \
        "printf 'static int run(const tool_args *a)\n{\n    return tool_output(a) != 0;\n}\n' >> tool/cmd_x.c"
    expect_reject "a reader not named as one" "sed -i 's/read_common/common_options/' tool/cmd_x.c"
    exit $failed
fi

if check "${1:-${top_srcdir:-.}}"; then
    echo "check_requests: every command reads its options in its *_request_read (and the readers it calls)"
    exit 0
fi
exit 1
