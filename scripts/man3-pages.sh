#!/bin/sh
# Turns the man pages Doxygen wrote (doc/Doxyfile, MAN_LINKS = YES) into the man3 pages
# dlsched installs: SRC, Doxygen's man3 folder; DEST, made anew.
# - The page of each header is renamed after the header's path: common.h.3 would be
#   "common.h(3)" in a shared man3 folder; dlsched_common.h.3 says whose it is.
# - Doxygen also writes a link page (a single .so line) for every struct member, named
#   after the member alone (size.3, time.3): such names would shadow the system's pages.
#   Only the link pages of dls_ and DLS_ names are kept (functions, types, enum values,
#   macros), each pointing at the renamed header page.
# - Doxygen marks code with \fC, which is not a roff font; man pages set code in bold.
set -eu
src=$1
dest=$2
rm -rf "$dest"
mkdir -p "$dest"
renamed() { # PAGE: its installed name
    case $1 in
        dlsched.h.3) echo "$1" ;;
        *.h.3) echo "dlsched_$1" ;;
        *) echo "$1" ;;
    esac
}
for f in "$src"/*.3; do
    page=${f##*/}
    first=$(sed -n 1p "$f")
    if [ "$(wc -l <"$f")" -le 1 ] && [ "${first#.so }" != "$first" ]; then
        case $page in dls_*|DLS_*) ;; *) continue ;; esac
        target=${first#.so man3/}
        echo ".so man3/$(renamed "$target")" >"$dest/$page"
    else
        sed 's/\\fC/\\fB/g' "$f" >"$dest/$(renamed "$page")"
    fi
done
