# dls_flags.m4: the one save/extend/restore of the compiler's and linker's flags that every
# check of a library in configure.ac goes through.
#
# DLS_WITH_FLAGS(CPPFLAGS-ADDED, LIBS-ADDED, CHECKS)
# ---------------------------------------------------
# Runs CHECKS (header checks, link tests) with CPPFLAGS followed by CPPFLAGS-ADDED and with
# LIBS-ADDED before LIBS, then puts CPPFLAGS and LIBS back as they were, so that a library
# found for one part of the build never leaks into the links of every other. An empty
# argument leaves its variable alone. Not nestable (one pair of saved values).
AC_DEFUN([DLS_WITH_FLAGS],
[dls_save_CPPFLAGS=$CPPFLAGS
dls_save_LIBS=$LIBS
m4_ifval([$1], [CPPFLAGS="$CPPFLAGS $1"
])dnl
m4_ifval([$2], [LIBS="$2 $LIBS"
])dnl
$3
CPPFLAGS=$dls_save_CPPFLAGS
LIBS=$dls_save_LIBS
])
