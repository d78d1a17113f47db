# Sourced (POSIX sh) by the scripts that start MPI programs on one machine: $mpi_flags, the
# launcher's flags for that (Open MPI: --oversubscribe, and --allow-run-as-root as root).
mpi_flags=
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    mpi_flags="--oversubscribe"
    [ "$(id -u)" = 0 ] && mpi_flags="$mpi_flags --allow-run-as-root"
fi
