"""What every module of the binding shares: the cffi handles, error checking and the
conversions between numpy arrays and the library's C arrays. Internal."""

import json
import os
from typing import Any, Optional

import numpy as np

from ._dlsched import ffi, lib
from .errors import from_error, InvalidArgument


def new_error():
    """A cleared ``dls_error`` record for one call."""
    return ffi.new("dls_error *")


def check(status: int, err) -> None:
    """Raises the exception of ``status`` unless it is DLS_OK."""
    if status != lib.DLS_OK:
        raise from_error(status, err)


def text(ptr) -> Optional[str]:
    """A C string as str (None for NULL)."""
    if ptr == ffi.NULL:
        return None
    return ffi.string(ptr).decode("utf-8", "replace")


def take_string(ptr) -> str:
    """A string the library allocated (the ``*_to_string`` calls), freed here."""
    try:
        return ffi.string(ptr).decode("utf-8")
    finally:
        lib.dls_free(ptr)


def text_or_file(to_string, write_file, path: Any, *args) -> Optional[str]:
    """The library's text writers in pairs: ``to_string(*args, char **out, err)`` when
    ``path`` is None (the text is returned), else ``write_file(*args, path, err)`` (the
    file is replaced atomically; None is returned)."""
    err = new_error()
    if path is None:
        out = ffi.new("char **")
        check(to_string(*args, out, err), err)
        return take_string(out[0])
    check(write_file(*args, path_bytes(path), err), err)
    return None


def doubles(ptr, n: int) -> np.ndarray:
    """A copy of ``n`` doubles at ``ptr`` as a float64 array (empty for NULL)."""
    if ptr == ffi.NULL or n == 0:
        return np.zeros(0 if ptr == ffi.NULL else n, dtype=np.float64)
    return np.frombuffer(ffi.buffer(ptr, n * 8), dtype=np.float64).copy()


def uint64s(ptr, n: int) -> np.ndarray:
    if ptr == ffi.NULL:
        return np.zeros(0, dtype=np.uint64)
    return np.frombuffer(ffi.buffer(ptr, n * 8), dtype=np.uint64).copy()


def sizes(ptr, n: int) -> np.ndarray:
    """``n`` size_t values as an int64 array (indices)."""
    if ptr == ffi.NULL:
        return np.zeros(0, dtype=np.int64)
    return np.frombuffer(ffi.buffer(ptr, n * ffi.sizeof("size_t")),
                         dtype=np.uintp).astype(np.int64)


def ints(ptr, n: int) -> np.ndarray:
    if ptr == ffi.NULL:
        return np.zeros(0, dtype=np.int32)
    return np.frombuffer(ffi.buffer(ptr, n * ffi.sizeof("int")), dtype=np.intc).astype(np.int32)


def as_doubles(values: Any, name: str, n: Optional[int] = None) -> np.ndarray:
    """``values`` as a C-contiguous float64 array of ``n`` elements (when given); keep the
    array alive while the pointer from :func:`ptr_of` is used."""
    try:
        arr = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise InvalidArgument("%s: not an array of numbers (%s)" % (name, e),
                              status=lib.DLS_EINVAL) from None
    if arr.ndim != 1:
        raise InvalidArgument("%s: a one-dimensional array is needed, not shape %s"
                              % (name, arr.shape), status=lib.DLS_EINVAL)
    if n is not None and arr.shape[0] != n:
        raise InvalidArgument("%s: %d values for %d processors" % (name, arr.shape[0], n),
                              status=lib.DLS_EINVAL)
    return arr


def ptr_of(arr: np.ndarray, ctype: str = "double[]"):
    """A pointer into ``arr``'s data (no copy), NULL for an empty array."""
    if arr.size == 0:
        return ffi.NULL
    return ffi.from_buffer(ctype, arr)


def path_bytes(path: Any) -> bytes:
    """A path (str, bytes or os.PathLike) as the bytes the C library opens."""
    return os.fsencode(path)


def to_json_text(data: Any, indent: Optional[int] = 2) -> str:
    """JSON as the program writes it: two-space indent, keys in the order given."""
    return json.dumps(data, indent=indent, allow_nan=False)
