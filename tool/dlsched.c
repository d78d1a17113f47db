/* The dlsched program: its entry point. Everything else, the dispatcher included, is in the
 * tool's convenience library (tool/local.mk), which the fuzz targets link too. */
#include <config.h>

#include "tool.h"

int main(int argc, char **argv)
{
#ifdef HAVE_MPI
    tool_bench_mpi = tool_bench_mpi_run; /* `dlsched bench --mpi` */
#endif
    return tool_main(argc, argv);
}
