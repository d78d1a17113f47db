"""The exceptions of dlsched: one class per status code of the library, all under Error.

Every failed call raises the class of its status (``InvalidArgument`` for ``DLS_EINVAL``,
``MalformedInput`` for ``DLS_ESYNTAX``...), carrying what the library said: the
whole message, the status code and name, the position in the input file (``line``,
``column``, 1-based, 0 when the error is not about a file), the processor concerned
(0-based, ``None`` when none) and ``origin``, the public C function that failed.
"""

from typing import Optional

from ._dlsched import ffi, lib

__all__ = ["Error", "InvalidArgument", "OutOfMemory", "InputOutputError", "MalformedInput",
           "InvalidData", "OutOfRange", "SolverFailure", "NumericalFailure",
           "LimitExceeded", "Canceled", "NotSupported", "WriteFailed"]


class Error(Exception):
    """A call of dlsched failed. ``str(e)`` is the library's whole message, e.g.
    ``platform.json:14:9: processor "gpu0": speed point 3 has a negative speed``.

    Attributes: ``status`` (int, the ``DLS_E*`` value), ``status_name`` ("EINVAL"),
    ``message`` (str), ``origin`` (str, "" when the message names no function),
    ``line`` and ``column`` (int, 0 when not about a file), ``processor`` (int or None),
    ``file`` (the file name the message starts with, or None).
    """

    status = -1
    status_name = "ERROR"

    def __init__(self, message: str, *, status: Optional[int] = None, origin: str = "",
                 line: int = 0, column: int = 0, processor: Optional[int] = None):
        super().__init__(message)
        if status is not None:
            self.status = status
            self.status_name = ffi.string(lib.dls_status_name(status)).decode()
        self.message = message
        self.origin = origin
        self.line = line
        self.column = column
        self.processor = processor
        self.file = _file_of(message, line, column)

    def __reduce__(self):
        return (_rebuild, (type(self), self.message, self.status, self.origin, self.line,
                           self.column, self.processor))


def _rebuild(cls, message, status, origin, line, column, processor):
    return cls(message, status=status, origin=origin, line=line, column=column,
               processor=processor)


def _file_of(message: str, line: int, column: int) -> Optional[str]:
    """The file an error located in a file names: the message starts "FILE:LINE:COLUMN:"
    (or "FILE:LINE:" when the column is unknown)."""
    if line <= 0:
        return None
    tail = ":%d:%d:" % (line, column) if column > 0 else ":%d:" % line
    at = message.find(tail)
    return message[:at] if at > 0 else None


class InvalidArgument(Error, ValueError):
    """DLS_EINVAL: an argument the call cannot take (a negative load, an unknown name)."""


class OutOfMemory(Error, MemoryError):
    """DLS_ENOMEM: the library could not allocate what the call needs."""


class InputOutputError(Error, OSError):
    """DLS_EIO: a file could not be read or written (the message has the path and why)."""


class MalformedInput(Error, ValueError):
    """DLS_ESYNTAX: an input that is not well formed (JSON, CSV); located by file, line
    and column."""


class InvalidData(Error, ValueError):
    """DLS_EDATA: a well-formed input with values dlsched cannot take (a negative speed)."""


class OutOfRange(Error, ValueError):
    """DLS_ERANGE: a value outside the domain dlsched computes in."""


class SolverFailure(Error):
    """DLS_ESOLVER: a solver failed (GLPK, the chain solver) and no other method answered."""


class NumericalFailure(Error, ArithmeticError):
    """DLS_ENUMERIC: a result the independent check refused (residuals too large)."""


class LimitExceeded(Error):
    """DLS_ELIMIT: a resource limit (time, iterations, size) was reached."""


class Canceled(Error):
    """DLS_ECANCELED: the caller's callback stopped the call (an exception it raised is
    chained as ``__cause__``)."""


class NotSupported(Error, NotImplementedError):
    """DLS_ENOTSUP: the method does not apply to these models."""


class WriteFailed(Error, OSError):
    """DLS_EWRITE: an output could not be written in full (the file replaced is intact)."""


_BY_STATUS = {
    lib.DLS_EINVAL: InvalidArgument, lib.DLS_ENOMEM: OutOfMemory, lib.DLS_EIO: InputOutputError,
    lib.DLS_ESYNTAX: MalformedInput, lib.DLS_EDATA: InvalidData,
    lib.DLS_ERANGE: OutOfRange, lib.DLS_ESOLVER: SolverFailure,
    lib.DLS_ENUMERIC: NumericalFailure, lib.DLS_ELIMIT: LimitExceeded,
    lib.DLS_ECANCELED: Canceled, lib.DLS_ENOTSUP: NotSupported,
    lib.DLS_EWRITE: WriteFailed,
}
for _status, _cls in _BY_STATUS.items():
    _cls.status = _status
    _cls.status_name = ffi.string(lib.dls_status_name(_status)).decode()


def from_error(status: int, err) -> Error:
    """The exception for a failed call: ``err`` is the call's ``dls_error *``."""
    message = ffi.string(err.message).decode("utf-8", "replace")
    if not message:
        message = ffi.string(lib.dls_strerror(status)).decode()
    cls = _BY_STATUS.get(status, Error)
    processor = int(err.processor)
    return cls(message, status=status, origin=ffi.string(err.origin).decode(),
               line=int(err.line), column=int(err.column),
               processor=None if processor < 0 else processor)
