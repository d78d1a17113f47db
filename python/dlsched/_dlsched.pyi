# Type stub of the compiled extension dlsched._dlsched (cffi, API mode). Its two objects
# are cffi's: `ffi` (types, allocation, buffers) and `lib` (every public C function and
# constant of include/dlsched/*.h, e.g. lib.dls_schedule_solve, lib.DLS_EINVAL). The
# package's modules wrap them; programs use the package, not this module.
from typing import Any

ffi: Any
lib: Any
