"""Platforms: the processors, each with its performance model, optional size limit and
optional link, as in dlsched's platform files (dlsched-platform(5))."""

import json
import math
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import as_doubles, check, new_error, path_bytes, ptr_of, take_string, text
from ._dlsched import ffi, lib
from .errors import Error, InvalidArgument

__all__ = ["Platform", "Processor", "read_platform"]

PathLike = Union[str, bytes, "os.PathLike[str]"]


def _own(ptr) -> Any:
    """Ties a new ``dls_platform *`` to Python's memory management."""
    return ffi.gc(ptr, lib.dls_platform_free)


def _invalid(message: str) -> InvalidArgument:
    return InvalidArgument(message, status=lib.DLS_EINVAL)


class Processor:
    """One processor of a :class:`Platform`, a view (it reads the platform each time).

    ``name``; ``index`` (0-based); ``limit`` (the largest load it may take, in units of
    load; ``inf`` when it has none); ``link`` (``(startup, rate)``: seconds, and seconds per
    unit, or ``None`` when the file sets none); ``release`` (seconds); ``model_kind``
    ("constant", "points", "time"...); ``speed(x)`` (units per second at load ``x``) and
    ``time(x)`` (seconds to compute ``x`` units).
    """

    __slots__ = ("_platform", "index")

    def __init__(self, platform: "Platform", index: int):
        self._platform = platform
        self.index = index

    @property
    def name(self) -> str:
        """The processor's name, unique in its platform."""
        return text(lib.dls_platform_name(self._platform._ptr, self.index))

    @property
    def limit(self) -> float:
        """The largest load it may take, in units of load; ``inf`` when it has none."""
        return float(lib.dls_platform_limit(self._platform._ptr, self.index))

    @property
    def link(self) -> Optional[Tuple[float, float]]:
        """``(startup, rate)``: the seconds a transfer from the source starts with and the
        seconds per unit it then takes; ``None`` when the platform sets no link."""
        if not lib.dls_platform_has_link(self._platform._ptr, self.index):
            return None
        startup = ffi.new("double *")
        rate = ffi.new("double *")
        lib.dls_platform_link(self._platform._ptr, self.index, startup, rate)
        return (startup[0], rate[0])

    @property
    def release(self) -> float:
        """The time in seconds from which it can start (0 unless the platform says)."""
        return float(lib.dls_platform_release(self._platform._ptr, self.index))

    @property
    def model_kind(self) -> str:
        """The kind of its performance model: "constant", "points", "time"..."""
        model = lib.dls_platform_model(self._platform._ptr, self.index)
        return text(lib.dls_model_kind_name(lib.dls_model_get_kind(model)))

    def speed(self, x: Union[float, Sequence[float], np.ndarray]) -> Union[float, np.ndarray]:
        """The speed in units per second at load ``x`` (a number or an array of them)."""
        return self._apply(lib.dls_model_speed, x)

    def time(self, x: Union[float, Sequence[float], np.ndarray]) -> Union[float, np.ndarray]:
        """The time in seconds to compute ``x`` units (a number or an array of them)."""
        return self._apply(lib.dls_model_time, x)

    def _apply(self, fn, x):
        model = lib.dls_platform_model(self._platform._ptr, self.index)
        if np.ndim(x) == 0:
            return float(fn(model, float(x)))
        arr = np.asarray(x, dtype=np.float64)
        return np.fromiter((fn(model, v) for v in arr.ravel()), dtype=np.float64,
                           count=arr.size).reshape(arr.shape)

    def to_dict(self) -> Dict[str, Any]:
        """This processor's entry of the platform file, as a dict."""
        return self._platform.to_dict()["processors"][self.index]

    def __repr__(self) -> str:
        limit = "" if math.isinf(self.limit) else ", limit=%g" % self.limit
        link = "" if self.link is None else ", link=(%g s, %g s/unit)" % self.link
        return "<Processor %d %r: %s model%s%s>" % (self.index, self.name, self.model_kind,
                                                    limit, link)


class Platform:
    """A heterogeneous platform: the processors dlsched shares work among.

    ``Platform(source)`` reads ``source``: a path of a platform file (JSON,
    dlsched-platform(5)) or a dict in the same shape. See also :meth:`read`,
    :meth:`from_json`, :meth:`from_dict` and :meth:`from_arrays`.

    A platform is a sequence of :class:`Processor`: ``len(p)``, ``p[0]``, ``p["gpu0"]``,
    ``for proc in p``; ``p.names`` lists the names. Errors in a file raise
    :class:`dlsched.MalformedInput` or :class:`dlsched.InvalidData` whose message starts
    with ``FILE:LINE:COLUMN:`` (also in the exception's ``file``, ``line``, ``column``).
    """

    def __init__(self, source: Union[PathLike, Dict[str, Any], "Platform", None] = None):
        if source is None:
            out = ffi.new("dls_platform **")
            err = new_error()
            check(lib.dls_platform_create(out, err), err)
            self._ptr = _own(out[0])
        elif isinstance(source, Platform):
            self._ptr = source.copy()._ptr
        elif isinstance(source, dict):
            self._ptr = Platform.from_dict(source)._ptr
        elif isinstance(source, (str, bytes, os.PathLike)):
            self._ptr = Platform.read(source)._ptr
        else:
            raise TypeError("Platform(): a path, a dict or a Platform, not %s"
                            % type(source).__name__)

    @classmethod
    def _adopt(cls, ptr) -> "Platform":
        self = cls.__new__(cls)
        self._ptr = _own(ptr)
        return self

    @classmethod
    def read(cls, path: PathLike) -> "Platform":
        """Reads a platform file (JSON; dlsched-platform(5))."""
        out = ffi.new("dls_platform **")
        err = new_error()
        check(lib.dls_platform_read_file(path_bytes(path), out, err), err)
        return cls._adopt(out[0])

    @classmethod
    def from_json(cls, text_: Union[str, bytes], source: str = "<string>") -> "Platform":
        """Reads a platform from JSON text; ``source`` names it in error messages (they
        start ``SOURCE:LINE:COLUMN:``)."""
        data = text_.encode("utf-8") if isinstance(text_, str) else bytes(text_)
        out = ffi.new("dls_platform **")
        err = new_error()
        check(lib.dls_platform_read_string(data, len(data), source.encode(), out, err), err)
        return cls._adopt(out[0])

    @classmethod
    def from_dict(cls, data: Dict[str, Any], source: str = "<dict>") -> "Platform":
        """A platform from a dict in the platform file's shape, e.g.
        ``{"processors": [{"name": "a", "speed": 100.0, "limit": 5e4}]}``. The dict is
        written as JSON (indented, so that an error's line names the processor) and read
        as a file is."""
        try:
            text_ = json.dumps(data, indent=1, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise _invalid("%s: not a platform in JSON terms (%s)" % (source, e)) from None
        return cls.from_json(text_, source)

    @classmethod
    def from_arrays(cls, speeds: Any, limits: Any = None, startup: Any = None,
                    rate: Any = None, names: Optional[Sequence[str]] = None,
                    sizes: Any = None) -> "Platform":
        """A platform from numpy arrays, one value per processor (shape ``(p,)``).

        ``speeds``: units per second, constant models; or, with ``sizes`` of the same
        shape ``(p, k)``, speed functions of k points each (sizes in units, increasing).
        ``limits``: the largest load of each processor in units (``inf``: none).
        ``startup`` (seconds) and ``rate`` (seconds per unit): the links from the source.
        ``names``: p distinct names (default ``p0``, ``p1``...).
        """
        speeds_arr, sizes_arr, n, k = cls._speed_arrays(speeds, sizes)
        keep = [as_doubles(v, name, n) if v is not None else None
                for v, name in ((limits, "limits"), (startup, "startup"), (rate, "rate"))]
        blob = cls._names_blob(names, n)
        out = ffi.new("dls_platform **")
        err = new_error()
        status = lib.dlspy_platform_from_arrays(
            n, ptr_of(speeds_arr), k, ptr_of(sizes_arr) if k else ffi.NULL,
            *[ptr_of(v) if v is not None else ffi.NULL for v in keep],
            blob, out, err)
        if status != lib.DLS_OK and err.processor >= 0:
            i = int(err.processor)
            who = names[i] if names is not None else "p%d" % i
            raise type(_error_of(status, err))(
                "Platform.from_arrays: processor %d (%s): %s" % (i, who, text(err.message)),
                status=status, origin=text(err.origin), processor=i)
        check(status, err)
        return cls._adopt(out[0])

    @staticmethod
    def _speed_arrays(speeds: Any, sizes: Any):
        if sizes is None:
            arr = as_doubles(speeds, "speeds")
            return arr, None, arr.shape[0], 0
        arr = np.ascontiguousarray(speeds, dtype=np.float64)
        sz = np.ascontiguousarray(sizes, dtype=np.float64)
        if arr.ndim != 2 or sz.shape != arr.shape or arr.shape[1] == 0:
            raise _invalid("Platform.from_arrays: sizes and speeds must have the same shape "
                           "(p, k), k >= 1, not %s and %s" % (sz.shape, arr.shape))
        return arr, sz, arr.shape[0], arr.shape[1]

    @staticmethod
    def _names_blob(names: Optional[Sequence[str]], n: int):
        if names is None:
            return ffi.NULL
        names = list(names)
        if len(names) != n:
            raise _invalid("Platform.from_arrays: %d names for %d processors" % (len(names), n))
        parts = []
        for i, name in enumerate(names):
            if not isinstance(name, str) or "\0" in name:
                raise _invalid("Platform.from_arrays: names[%d] is not a name: %r" % (i, name))
            parts.append(name.encode("utf-8"))
        return ffi.new("char[]", b"\0".join(parts) + b"\0")

    # --- the sequence of processors -------------------------------------------------
    def __len__(self) -> int:
        return int(lib.dls_platform_count(self._ptr))

    @property
    def names(self) -> List[str]:
        """The processors' names, in order."""
        return [text(lib.dls_platform_name(self._ptr, i)) for i in range(len(self))]

    def index(self, name: str) -> int:
        """The index of the processor called ``name`` (KeyError when there is none)."""
        at = ffi.new("size_t *")
        if not lib.dls_platform_find(self._ptr, name.encode("utf-8"), at):
            raise KeyError("no processor called %r" % name)
        return int(at[0])

    def __getitem__(self, key: Union[int, str]) -> Processor:
        if isinstance(key, str):
            return Processor(self, self.index(key))
        n = len(self)
        i = int(key)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("processor %d of a platform of %d" % (key, n))
        return Processor(self, i)

    def __iter__(self) -> Iterator[Processor]:
        return (Processor(self, i) for i in range(len(self)))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and bool(
            lib.dls_platform_find(self._ptr, name.encode("utf-8"), ffi.NULL))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Platform):
            return NotImplemented
        return bool(lib.dls_platform_equal(self._ptr, other._ptr))

    __hash__ = None  # type: ignore[assignment]  (mutable)

    # --- arrays of the whole platform -------------------------------------------------
    @property
    def limits(self) -> np.ndarray:
        """The limits in units of load, shape (p,); ``inf`` where none."""
        return np.array([lib.dls_platform_limit(self._ptr, i) for i in range(len(self))],
                        dtype=np.float64)

    # --- changes ----------------------------------------------------------------------
    def set_limit(self, key: Union[int, str], limit: float) -> None:
        """Sets a processor's limit (units of load; ``inf`` removes it)."""
        err = new_error()
        check(lib.dls_platform_set_limit(self._ptr, self[key].index, float(limit), err), err)

    def set_link(self, key: Union[int, str], startup: float, rate: float) -> None:
        """Sets a processor's link: ``startup`` seconds, ``rate`` seconds per unit."""
        err = new_error()
        check(lib.dls_platform_set_link(self._ptr, self[key].index, float(startup),
                                        float(rate), err), err)

    def copy(self) -> "Platform":
        """An independent copy (changes to one leave the other as it is)."""
        out = ffi.new("dls_platform **")
        err = new_error()
        check(lib.dls_platform_copy(self._ptr, out, err), err)
        return Platform._adopt(out[0])

    # --- writing ----------------------------------------------------------------------
    def to_json(self) -> str:
        """The platform file's text (reading it back gives an equal platform)."""
        out = ffi.new("char **")
        err = new_error()
        check(lib.dls_platform_to_string(self._ptr, out, err), err)
        return take_string(out[0])

    def to_dict(self) -> Dict[str, Any]:
        """The platform file's content as a dict (:meth:`from_dict` reads it back)."""
        return json.loads(self.to_json())

    def write(self, path: PathLike) -> None:
        """Writes the platform file (replaced atomically)."""
        err = new_error()
        check(lib.dls_platform_write_file(self._ptr, path_bytes(path), err), err)

    def __repr__(self) -> str:
        names = self.names
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return "<Platform of %d processors: %s>" % (len(names), shown)


def _error_of(status: int, err) -> Error:
    from .errors import from_error
    return from_error(status, err)


def read_platform(path: PathLike) -> Platform:
    """Reads a platform file: the same as ``Platform.read(path)``."""
    return Platform.read(path)


def as_platform(source: Any) -> Platform:
    """``source`` itself when it is a :class:`Platform`, else ``Platform(source)``."""
    return source if isinstance(source, Platform) else Platform(source)
