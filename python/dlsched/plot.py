"""Pictures of a platform's speed functions as SVG (dlsched/plot.h, ``dlsched plot``)."""

from typing import Any, Optional

from ._dlsched import ffi, lib
from ._core import check, new_error, path_bytes, take_string
from . import _args
from .platform import as_platform

__all__ = ["plot"]


def _scale(value: Optional[str], name: str) -> int:
    if value is None:
        return lib.DLS_PLOT_AUTO
    return _args.choice(value, name, lib.dls_plot_scale_from_name, "dls_plot_scale",
                        lib.dls_plot_scale_name)


def plot(platform: Any, path: Any = None, *, x_scale: Optional[str] = None,
         y_scale: Optional[str] = None, width: Optional[float] = None,
         height: Optional[float] = None, sections: Optional[int] = None,
         title: Optional[str] = None, size_unit: Optional[str] = None,
         speed_unit: Optional[str] = None) -> Optional[str]:
    """Draws every processor's speed as a function of the size of its share, as an SVG
    document (the picture of ``dlsched plot``).

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes; at least one processor.
        path: the SVG file to write (replaced atomically); None to return the document.
        x_scale, y_scale: "auto" (the default: logarithmic when the values span more than
            two decades), "linear" or "log".
        width, height: the picture's size in pixels (defaults 900 x 560, at least 320 x 240).
        sections: sections drawn per 2-D model (default 6).
        title: the picture's title (default "Speed functions").
        size_unit, speed_unit: units in the axis titles (defaults "units", "units/s").

    Returns the SVG text when ``path`` is None, else None. Raises InvalidArgument (a
    parameter out of range), InputOutputError or WriteFailed (the file).
    """
    pl = as_platform(platform)
    par = ffi.new("dls_plot_params *")
    lib.dls_plot_params_init(par)
    par.x_scale, par.y_scale = _scale(x_scale, "x_scale"), _scale(y_scale, "y_scale")
    if width is not None:
        par.width = _args.real(width, "width")
    if height is not None:
        par.height = _args.real(height, "height")
    if sections is not None:
        par.sections = _args.count(sections, "sections", 1)
    keep = []  # the texts must live until the call returns
    for field, value in (("title", title), ("size_unit", size_unit),
                         ("speed_unit", speed_unit)):
        if value is not None:
            if not isinstance(value, str):
                raise _args.invalid("%s: a string is needed, not %r" % (field, value))
            keep.append(ffi.new("char[]", value.encode("utf-8")))
            setattr(par, field, keep[-1])
    err = new_error()
    if path is not None:
        check(lib.dls_plot_write_file(pl._ptr, par, path_bytes(path), err), err)
        return None
    out = ffi.new("char **")
    check(lib.dls_plot_to_string(pl._ptr, par, out, err), err)
    return take_string(out[0])
