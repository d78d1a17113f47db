"""dlsched: how much work each processor of a heterogeneous platform should get, so that
all of them finish as early as possible.

The Python binding of the dlsched C library (cffi, API mode). Every computation of the
program ``dlsched`` is here, on numpy arrays, with the library's defaults as keyword
arguments and exceptions (:class:`dlsched.Error` and its subclasses) for refusals. Calls
into the library release the GIL, so threads compute at once.
"""

from ._dlsched import ffi as _ffi, lib as _lib
from .errors import *  # noqa: F401,F403
from .platform import *  # noqa: F401,F403
from .schedule import *  # noqa: F401,F403
from .partition import *  # noqa: F401,F403
from .installments import *  # noqa: F401,F403
from .verify import *  # noqa: F401,F403
from .lu import *  # noqa: F401,F403
from .crosscheck import *  # noqa: F401,F403
from .plot import *  # noqa: F401,F403
from .balance import *  # noqa: F401,F403
from .bench import *  # noqa: F401,F403

__version__ = _ffi.string(_lib.dls_version()).decode()
