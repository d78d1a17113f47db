# Sourced by the checkers of tests/layout/ for their --self-test: expect_reject WHAT COMMAND
# runs COMMAND in a fresh copy of the tree $root (inside $tmp) and fails the self-test
# unless the checker rejects the copy. The checker says how it is run on a tree
# (check_copy DIR) and which line of its output names the rejection (rejection, a filter;
# the first line unless it says otherwise). Sets failed=1 on a miss.
failed=0
command -v rejection >/dev/null 2>&1 || rejection() { head -n 1; }
expect_reject() { # what, then a command that breaks a copy
    rm -rf "$tmp/broken"
    cp -R "$root" "$tmp/broken"
    (cd "$tmp/broken" && eval "$2")
    if out=$(check_copy "$tmp/broken" 2>&1); then
        echo "self-test: not rejected: $1"
        failed=1
    else
        echo "self-test: rejected as it should: $1: $(echo "$out" | rejection)"
    fi
}
# expect_accept MESSAGE: the checker passes $root itself, or the self-test stops, saying
# "self-test: MESSAGE: " and the checker's output.
expect_accept() {
    out=$(check_copy "$root" 2>&1) || { echo "self-test: $1: $out"; exit 1; }
}
# The checks of calls read objects: can_compile says whether a C compiler and nm are here,
# compile_to PATH 'C text' writes one object (the self-test stops if it cannot).
can_compile() { command -v "${CC:-cc}" >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; }
compile_to() {
    printf '%s\n' "$2" > "$tmp/o.c"
    "${CC:-cc}" -c -o "$1" "$tmp/o.c" || exit 1
}
