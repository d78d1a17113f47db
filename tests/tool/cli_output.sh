#!/bin/sh
# Every output option of the program (export -o, plot -o, bench -o, and --gantt of
# schedule, evaluate and installments) must never destroy what its path names:
#   - a regular file is replaced whole, keeping its mode; a new file gets 0666 less the umask;
#   - a symbolic link stays a link and its target is replaced (a dangling one gets its
#     target created);
#   - a FIFO stays a FIFO and its reader gets the document;
#   - a character device stays one: written to like a stream (a null device swallows the
#     document, a full one makes the command fail with exit 3, the path and the reason);
#   - "-" is standard output, with the same bytes as the file;
#   - a directory, or a path in a missing directory, is refused with exit 2.
# Device nodes are made here with mknod in the temporary directory (as root; the device
# checks are skipped otherwise): nothing here can reach the machine's own /dev.
. "${top_srcdir:-.}/tests/support/cli.sh"

star=$ex/star_cluster.json
paper=$ex/star_two.json

# Each writer as "name|arguments before the output path|the option that takes the path|a
# line its document starts with". The output path is appended.
writers="export-lp|export $star --load 1e6 --format lp|-o|\\* Problem
export-mps|export $star --load 1e6 --format mps|-o|* The divisible-load LP
export-glpk|export $star --load 1e6 --format glpk|-o|p lp min
export-mathprog|export $star --load 1e6 --format mathprog|-o|/* Data for lp/star.mod
plot|plot $star|-o|<?xml
bench|bench --kernel synthetic --name sim --max-points 5 --quiet|-o|{
schedule|schedule $star --load 1e6|--gantt|<?xml
evaluate|evaluate $paper --loads 1,1|--gantt|<?xml
installments|installments $paper --load 10 --chunk 1|--gantt|<?xml"

# run_writer LINE PATH: runs the writer of LINE with its output at PATH.
run_writer() {
    w_args=$(echo "$1" | cut -d'|' -f2)
    w_opt=$(echo "$1" | cut -d'|' -f3)
    w_log=
    case $1 in bench*) w_log="--log $tmp/bench.log" ;; esac
    # shellcheck disable=SC2086
    run $w_args $w_log "$w_opt" "$2"
}

first_line() {
    echo "$1" | cut -d'|' -f4
}

# starts FILE PREFIX: whether the file's first line starts with PREFIX (taken literally).
starts() {
    [ -s "$1" ] || return 1
    case $(head -n 1 "$1") in
    "$2"*) return 0 ;;
    esac
    return 1
}

if [ "$(id -u)" -eq 0 ] && mknod "$tmp/probe-null" c 1 3 2>/dev/null; then
    devices=yes
    rm -f "$tmp/probe-null"
else
    devices=no
fi

while IFS= read -r line; do
    name=${line%%|*}
    head=$(first_line "$line")
    d=$tmp/$name
    mkdir "$d"

    # a new file, under a umask of 027: mode 640
    (umask 027 && run_writer "$line" "$d/new" && [ "$rc" -eq 0 ] &&
        [ "$(stat -c %a "$d/new")" = 640 ]) ||
        fail "$name: a new file does not get 0666 less the umask ($(stat -c %a "$d/new" 2>&1))"
    starts "$d/new" "$head" || fail "$name: the new file does not start with $head"

    # a file replaced keeps its mode, and no temporary file is left behind
    echo old > "$d/kept"
    chmod 604 "$d/kept"
    run_writer "$line" "$d/kept"
    expect_rc 0 "$name over a file"
    [ "$(stat -c %a "$d/kept")" = 604 ] || fail "$name: the mode of the file replaced was not kept"
    starts "$d/kept" "$head" || fail "$name: the file was not replaced"
    [ -z "$(ls "$d" | grep '\.tmp\.')" ] || fail "$name: a temporary file was left" "$(ls "$d")"

    # standard output: the same bytes as the file
    run_writer "$line" -
    expect_rc 0 "$name to standard output"
    [ ! -e ./- ] && [ ! -e "$d/-" ] || fail "$name: wrote a file named '-'"
    case $name in
    bench) grep -qs '"processors"' "$tmp/out" || fail "$name: no platform on standard output" ;;
    *) cmp -s "$tmp/out" "$d/kept" || fail "$name: standard output differs from the file" ;;
    esac

    # a symbolic link stays a link; its target is replaced
    echo old > "$d/target"
    ln -s target "$d/link"
    run_writer "$line" "$d/link"
    expect_rc 0 "$name through a link"
    [ -L "$d/link" ] || fail "$name: the symbolic link was replaced by a file"
    starts "$d/target" "$head" || fail "$name: the link's target was not written"
    # a dangling link: its target is created
    ln -s "$d/sub-target" "$d/dangling"
    run_writer "$line" "$d/dangling"
    expect_rc 0 "$name through a dangling link"
    [ -L "$d/dangling" ] && [ -f "$d/sub-target" ] ||
        fail "$name: a dangling link did not get its target written"

    # a FIFO stays a FIFO, and its reader gets the document
    mkfifo "$d/fifo"
    cat "$d/fifo" > "$d/from-fifo" &
    reader=$!
    run_writer "$line" "$d/fifo"
    expect_rc 0 "$name into a FIFO"
    wait "$reader" || true
    [ -p "$d/fifo" ] || fail "$name: the FIFO was replaced"
    starts "$d/from-fifo" "$head" || fail "$name: the FIFO's reader got nothing"

    # a directory, and a missing directory, are refused
    mkdir "$d/dir"
    run_writer "$line" "$d/dir"
    expect_rc 2 "$name onto a directory"
    expect_err "$d/dir" "$name onto a directory names it"
    run_writer "$line" "$d/missing/x"
    expect_rc 2 "$name into a missing directory"

    # character devices made here: written to, never replaced
    if [ "$devices" = yes ]; then
        mknod "$d/null" c 1 3
        mknod "$d/full" c 1 7
        run_writer "$line" "$d/null"
        expect_rc 0 "$name into a null device"
        [ -c "$d/null" ] || fail "$name: the null device was replaced by a file"
        run_writer "$line" "$d/full"
        expect_rc 3 "$name into a full device"
        expect_err "$d/full: write failed" "$name into a full device names the path"
        [ -c "$d/full" ] || fail "$name: the full device was replaced by a file"
        # and through a link to it
        ln -s null "$d/to-null"
        run_writer "$line" "$d/to-null"
        expect_rc 0 "$name through a link to a device"
        [ -L "$d/to-null" ] && [ -c "$d/null" ] || fail "$name: the link to the device broke"
    fi
    checks=$((checks + 8))  # the file checks made with test rather than run
done <<EOF
$writers
EOF

note="device nodes made with mknod"
[ "$devices" = yes ] || note="device checks skipped: mknod needs root"
cli_summary "$note"
