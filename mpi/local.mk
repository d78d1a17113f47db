# mpi/: libdlsched_mpi, the optional MPI layer (include/dlsched/mpi.h), built when configure
# finds MPI. It is a library of its own on the public API of libdlsched only, so that
# neither libdlsched nor the dlsched program without --mpi ever needs MPI.
EXTRA_DIST += dlsched-mpi.pc.in
if HAVE_MPI
lib_LTLIBRARIES += libdlsched_mpi.la
dlschedinclude_HEADERS += include/dlsched/mpi.h
libdlsched_mpi_la_SOURCES = \
	mpi/mpi_impl.h \
	mpi/common.c \
	mpi/bench.c \
	mpi/partition.c \
	mpi/plan.c \
	mpi/links.c \
	mpi/balance.c
libdlsched_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) -DDLS_BUILDING_LIBRARY $(MPI_CFLAGS)
libdlsched_mpi_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libdlsched_mpi_la_LIBADD = libdlsched.la $(MPI_LIBS) -lm
libdlsched_mpi_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(DLS_LT_VERSION) -no-undefined
pkgconfig_DATA += dlsched-mpi.pc
else
EXTRA_DIST += include/dlsched/mpi.h
endif
