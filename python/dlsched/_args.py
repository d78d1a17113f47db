"""Keyword arguments into the library's parameter structs, and results into the JSON the
program writes: what partition, lu, crosscheck and plot share. Internal."""

import math
import numbers
from typing import Any, Callable, List, Optional

from ._dlsched import ffi, lib
from .errors import InvalidArgument


def invalid(message: str) -> InvalidArgument:
    """An InvalidArgument for a refused keyword argument (the message names it)."""
    return InvalidArgument(message, status=lib.DLS_EINVAL)


def count(value: Any, name: str, minimum: int = 0, maximum: Optional[int] = None) -> int:
    """A whole number of things (elements, columns, bytes) as an int; a float is taken
    when it is whole (1e6), as the program takes "1e6"."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise invalid("%s: a whole number is needed, not %r" % (name, value))
    if not isinstance(value, numbers.Integral):
        if not math.isfinite(value) or value != math.floor(value):
            raise invalid("%s: a whole number is needed, not %r" % (name, value))
    v = int(value)
    if v < minimum:
        raise invalid("%s must be at least %d, not %d" % (name, minimum, v))
    if maximum is not None and v > maximum:
        raise invalid("%s must be at most %d, not %d" % (name, maximum, v))
    return v


def real(value: Any, name: str) -> float:
    """A real number (a load, a tolerance, seconds) as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise invalid("%s: a number is needed, not %r" % (name, value))
    return float(value)


def names_of(name_fn: Callable[[int], Any]) -> List[str]:
    """Every name of an enum of the library, from its *_name function (values 0, 1, ...
    until the function answers "unknown")."""
    out = []
    while True:
        s = ffi.string(name_fn(len(out))).decode()
        if s == "unknown":
            return out
        out.append(s)


def choice(value: Any, name: str, from_name: Callable, ctype: str,
           name_fn: Callable[[int], Any]) -> int:
    """A name (as the program's option takes it) as the library's enum value, through its
    *_from_name function, so that the names are the program's."""
    if isinstance(value, str):
        out = ffi.new(ctype + " *")
        if from_name(value.encode("utf-8"), out) == lib.DLS_OK:
            return int(out[0])
    raise invalid("%s: %r is not one of %s" % (name, value, ", ".join(names_of(name_fn))))


def number(v: float) -> Optional[float]:
    """A real as the program's JSON writes it: null when it is not finite."""
    v = float(v)
    return v if math.isfinite(v) else None


def status_name(status: int) -> str:
    """The name of a dls_solution_status ("optimal", "feasible", ...)."""
    return ffi.string(lib.dls_solution_status_name(status)).decode()


def name_text(ptr) -> str:
    """A name from the library as the program's JSON writes it: stray bytes that are not
    UTF-8 as \\xNN (tool_json_text)."""
    return ffi.string(ptr).decode("utf-8", "backslashreplace")


class Progress:
    """A Python callable as a dls_progress_fn: called with the fraction done (0 to 1); a
    true return stops the computation (the call then raises Canceled). An exception it
    raises stops it too and is raised again by :meth:`reraise`."""

    def __init__(self, fn: Optional[Callable[[float], Any]]):
        self.fn = fn
        self.error: Optional[BaseException] = None
        self.c = ffi.NULL
        if fn is not None:
            if not callable(fn):
                raise invalid("progress: a callable is needed, not %r" % (fn,))
            self.c = ffi.callback("int(double, void *)", self._call)

    def _call(self, fraction, data):
        try:
            return 1 if self.fn(fraction) else 0
        except BaseException as e:  # noqa: B902 - KeyboardInterrupt stops the call too
            self.error = e
            return 1

    def reraise(self) -> None:
        if self.error is not None:
            e, self.error = self.error, None
            raise e
