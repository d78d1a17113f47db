# simgrid/: dlsched-simgrid, the replay of a schedule in SimGrid that `dlsched simulate`
# runs (a program of its own: SimGrid's engine starts once per process). Built when
# configure found SimGrid; it uses no part of dlsched. It is built without the sanitizers:
# SimGrid switches stacks between its actors, which AddressSanitizer takes for overflows,
# and the replay is SimGrid's code, not dlsched's under test.
EXTRA_DIST += simgrid/replay.cc
if HAVE_SIMGRID
bin_PROGRAMS += simgrid/dlsched-simgrid
simgrid_dlsched_simgrid_SOURCES = simgrid/replay.cc
simgrid_dlsched_simgrid_CXXFLAGS = $(WARN_CXXFLAGS) $(SIMGRID_CFLAGS)
simgrid_dlsched_simgrid_LDFLAGS =
simgrid_dlsched_simgrid_LDADD = $(SIMGRID_LIBS)
endif
