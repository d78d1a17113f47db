"""The package imports, and a failed call raises the exception of its status."""

import pickle

import pytest

import dlsched
from dlsched._core import check, new_error
from dlsched._dlsched import ffi, lib


def test_version():
    assert dlsched.__version__.count(".") == 2


def test_missing_file_raises_input_output_error(tmp_path):
    err = new_error()
    out = ffi.new("dls_platform **")
    path = str(tmp_path / "none.json").encode()
    with pytest.raises(dlsched.InputOutputError) as info:
        check(lib.dls_platform_read_file(path, out, err), err)
    e = info.value
    assert isinstance(e, dlsched.Error) and isinstance(e, OSError)
    assert e.status == lib.DLS_EIO and e.status_name == "EIO"
    assert "none.json" in str(e) and e.processor is None


def test_every_status_has_its_class():
    for status in range(1, 13):
        name = ffi.string(lib.dls_status_name(status)).decode()
        err = new_error()
        err.processor = -1
        with pytest.raises(dlsched.Error) as info:
            check(status, err)
        assert info.value.status == status and info.value.status_name == name
        assert type(info.value) is not dlsched.Error


def test_error_pickles():
    e = dlsched.MalformedInput("a.json:3:7: expected ','", status=lib.DLS_ESYNTAX,
                               line=3, column=7)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is dlsched.MalformedInput
    assert (back.file, back.line, back.column) == ("a.json", 3, 7)


def _public_members():
    """Every public function, class, method and property the package exports."""
    import inspect
    for name in sorted(dir(dlsched)):
        obj = getattr(dlsched, name)
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        if not getattr(obj, "__module__", "").startswith("dlsched"):
            continue
        yield name, obj
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for mname, member in vars(obj).items():
                if mname.startswith("_"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if callable(member) or isinstance(member, property):
                    yield "%s.%s" % (name, mname), member


def test_everything_public_has_a_docstring():
    missing = [name for name, obj in _public_members() if not (obj.__doc__ or "").strip()]
    assert not missing, "no docstring: " + ", ".join(missing)


def test_exports_are_the_modules_all():
    import importlib
    for mod in ["errors", "platform", "schedule", "partition", "installments", "verify",
                "lu", "crosscheck", "balance", "bench", "plot"]:
        m = importlib.import_module("dlsched." + mod)
        for name in getattr(m, "__all__", []):
            assert getattr(dlsched, name) is getattr(m, name), name
