# smpi/smpi.mk: the build of dlsched for SimGrid's SMPI, run by `make smpi` (smpi/local.mk),
# which passes every variable below. A makefile of its own, for GNU make (pattern rules,
# dependency files): automake's rules know one compiler per source, and these sources are
# compiled a second time, with smpicc, into smpi/obj/. SMPI runs every rank of a job as a
# thread of one process, and its wrappers replace the clock (clock_gettime: the simulated
# time, in which each host's computation is rescaled to its speed), so the library's timing
# code must be compiled with them too: everything is, the library included. The programs
# are shared objects that smpirun loads (smpicc links them so).
#
#   srcdir                the top of the source tree; objects go under the current directory
#   SMPICC, SMPICXX       the wrappers
#   SMPI_CPPFLAGS         -DHAVE_CONFIG_H and the include folders
#   SMPI_CFLAGS           compiler flags (the build's CFLAGS, without sanitizers: SimGrid
#                         switches stacks between its actors, which AddressSanitizer rejects)
#   SMPI_LIB_CPPFLAGS     the library's own flags (its dependencies' headers)
#   SMPI_LIBS             what the library links with
#   SMPI_LIB_SOURCES      the library's sources (.c, .cc; headers are ignored)
#   SMPI_MPI_SOURCES      the MPI layer's
#   SMPI_TOOL_SOURCES     the program's
#   SMPI_TOOL_CPPFLAGS    the program's flags (DLS_BINDIR, jansson)
#   SMPI_EXAMPLE_CPPFLAGS the examples' flags (OpenBLAS for mpi_matmul)

OBJ := smpi/obj
obj_of = $(patsubst %.cc,$(OBJ)/%.o,$(patsubst %.c,$(OBJ)/%.o,$(filter %.c %.cc,$(1))))

LIB_OBJS := $(call obj_of,$(SMPI_LIB_SOURCES))
MPI_OBJS := $(call obj_of,$(SMPI_MPI_SOURCES))
TOOL_OBJS := $(call obj_of,$(SMPI_TOOL_SOURCES))
MATMUL_OBJS := $(OBJ)/examples/mpi_matmul.o
DIVISIBLE_OBJS := $(OBJ)/examples/mpi_divisible.o
BALANCE_OBJS := $(OBJ)/examples/mpi_balance.o
ALL_OBJS := $(LIB_OBJS) $(MPI_OBJS) $(TOOL_OBJS) $(MATMUL_OBJS) $(DIVISIBLE_OBJS) \
	$(BALANCE_OBJS)

PROGRAMS := smpi/dlsched-smpi smpi/mpi_matmul smpi/mpi_divisible smpi/mpi_balance

all: $(PROGRAMS)

# The library and the MPI layer see their private headers; the program and the examples the
# public ones only, as in the main build. HAVE_MPI: SMPI is the MPI here, whatever
# configure found for the main build.
$(LIB_OBJS): FLAGS = $(SMPI_LIB_CPPFLAGS) -I$(srcdir)/src -DDLS_BUILDING_LIBRARY
$(MPI_OBJS): FLAGS = -DDLS_BUILDING_LIBRARY
$(TOOL_OBJS): FLAGS = $(SMPI_TOOL_CPPFLAGS) -DHAVE_MPI=1
$(MATMUL_OBJS) $(DIVISIBLE_OBJS) $(BALANCE_OBJS): FLAGS = $(SMPI_EXAMPLE_CPPFLAGS)

$(OBJ)/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	@echo "  SMPICC   $<"
	@$(SMPICC) $(SMPI_CPPFLAGS) $(FLAGS) $(SMPI_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/%.o: $(srcdir)/%.cc
	@mkdir -p $(@D)
	@echo "  SMPICXX  $<"
	@$(SMPICXX) $(SMPI_CPPFLAGS) $(FLAGS) $(SMPI_CXXFLAGS) -MMD -MP -c $< -o $@

# (linked with the C++ wrapper: one source of the library is C++)
smpi/dlsched-smpi: $(TOOL_OBJS) $(MPI_OBJS) $(LIB_OBJS)
	@echo "  SMPILD   $@"
	@$(SMPICXX) -o $@ $^ $(SMPI_LIBS)

smpi/mpi_matmul: $(MATMUL_OBJS) $(MPI_OBJS) $(LIB_OBJS)
	@echo "  SMPILD   $@"
	@$(SMPICXX) -o $@ $^ $(SMPI_LIBS)

smpi/mpi_divisible: $(DIVISIBLE_OBJS) $(MPI_OBJS) $(LIB_OBJS)
	@echo "  SMPILD   $@"
	@$(SMPICXX) -o $@ $^ $(SMPI_LIBS)

smpi/mpi_balance: $(BALANCE_OBJS) $(MPI_OBJS) $(LIB_OBJS)
	@echo "  SMPILD   $@"
	@$(SMPICXX) -o $@ $^ $(SMPI_LIBS)

clean:
	rm -rf $(OBJ) $(PROGRAMS)

.PHONY: all clean
-include $(ALL_OBJS:.o=.d)
