"""The closure key of a front-end kernel: what determines its compile, read from the Python function without
running the front end (sarek.runtime.warm keys its warm-start record with it).

The parts: the function's source file text (as `linecache` gives it, what the front end reads), file, first
line and name; every global and closure cell its code names (helpers recursively, records and variants with
their fields, module constants, numpy arrays by content, sarek's, numpy's and math's own names); its annotations
and defaults; the type-variable binding of an instance. Anything else (a user module, an arbitrary object,
source given with `source=` or kept by no file) makes the kernel uncacheable ("")."""

from __future__ import annotations

import hashlib
import linecache
import os
import sys
import types
from typing import Any, cast

import numpy as np

from sarek.runtime.cache import make_key
from sarek.runtime.warm import Uncacheable

#: modules whose names a kernel may read as constants (their code is the compiler's or the interpreter's)
_STABLE_MODULES = ("sarek", "numpy", "math", "builtins", "ml_dtypes")


def closure_key(k: Any) -> str:
    """The closure key of kernel `k` ("" when it cannot be computed safely), once per kernel object (the front
    end lowers it once too)."""
    got: str | None = k.__dict__.get("_warm_closure")
    if got is None:
        got = ""
        fn = k.__dict__.get("fn")
        if fn is not None:
            w = _Keyer()
            try:
                w.function(fn)
                w.binding(k.binding)
                got = make_key(*w.parts)
            except (Uncacheable, RecursionError):  # RecursionError: nested deeper than Python walks
                got = ""
        k.__dict__["_warm_closure"] = got
    return got


def _stable_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in _STABLE_MODULES)


_FILES: dict[tuple[str, int], str] = {}  # (file, len of its lines) -> sha256 of its text


def _file_digest(fn: Any) -> str:
    code = fn.__code__
    file = code.co_filename
    lines = linecache.getlines(file, fn.__globals__)
    if not lines or not os.path.isfile(file):  # `python -c`, exec, source= text: not keyed safely
        raise Uncacheable(f"no source file for {fn.__qualname__}")
    text = "".join(lines)
    return hashlib.sha256(text.encode()).hexdigest()


def _code_names(code: types.CodeType, out: list[str]) -> None:
    out.extend(code.co_names)
    out.extend(code.co_freevars)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)


class _Keyer:
    """Walks a function's closure into a list of key parts."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.seen: set[int] = set()

    def function(self, fn: Any) -> None:
        import inspect

        fn = inspect.unwrap(fn)
        if not isinstance(fn, types.FunctionType):
            raise Uncacheable(f"{fn!r} is not a Python function")
        if id(fn) in self.seen:
            self.parts.append(f"again:{fn.__qualname__}")
            return
        self.seen.add(id(fn))
        source = sys.modules.get("sarek.frontend.source")  # source= registers there (not imported: none given)
        if source is not None and fn in source.GIVEN:
            raise Uncacheable(f"source= given for {fn.__qualname__}")
        code = fn.__code__
        self.parts += [f"fn:{code.co_filename}:{code.co_firstlineno}:{fn.__qualname__}", _file_digest(fn)]
        closure = {n: c for n, c in zip(code.co_freevars, fn.__closure__ or ())}
        names: list[str] = []
        _code_names(code, names)
        g = fn.__globals__
        builtins: Any = g.get("__builtins__", {})
        bdict = cast("dict[str, Any]", builtins if isinstance(builtins, dict) else vars(builtins))
        for n in sorted(set(names)):
            if n in closure:
                try:
                    v = closure[n].cell_contents
                except ValueError:
                    raise Uncacheable(f"closure cell {n} is empty") from None
                self.parts.append(f"cell:{n}")
                self.value(v)
            elif n in g:
                self.parts.append(f"global:{n}")
                self.value(g[n])
            elif n in bdict:
                self.parts.append(f"builtin:{n}")
            # else: an attribute name, or undefined (the front end reports it; nothing is stored)
        for n, a in sorted(getattr(fn, "__annotations__", {}).items()):
            self.parts.append(f"ann:{n}")
            if isinstance(a, str):  # `from __future__ import annotations`: the names it reads
                import re

                for w in sorted(set(re.findall(r"[A-Za-z_]\w*", a))):
                    if w in g:
                        self.parts.append(f"global:{w}")
                        self.value(g[w])
                self.parts.append(a)
            else:
                self.value(a)
        if fn.__defaults__ or fn.__kwdefaults__:
            self.value(fn.__defaults__)
            self.value(tuple(sorted((fn.__kwdefaults__ or {}).items())))

    def value(self, x: Any) -> None:  # noqa: C901 - one case per kind of value
        from sarek.frontend.api import DeviceFunction, Kernel
        from sarek.frontend.decls import record_info, variant_info
        from sarek.frontend.generics import TypeVar

        p = self.parts
        if x is None or isinstance(x, bool | int | float | complex | str | bytes):
            p.append(f"{type(x).__name__}:{x!r}")
        elif isinstance(x, tuple | list | frozenset):
            seq = cast("tuple[Any, ...] | list[Any] | frozenset[Any]", cast(object, x))
            items: list[Any] = sorted(seq, key=repr) if isinstance(seq, frozenset) else list(seq)
            p.append(f"{type(cast(object, x)).__name__}:{len(items)}")
            for e in items:
                self.value(e)
        elif isinstance(x, np.ndarray):
            a = np.ascontiguousarray(cast("np.ndarray[Any, np.dtype[Any]]", x))
            p.append(f"ndarray:{a.dtype.str}:{a.shape}:{hashlib.sha256(a.tobytes()).hexdigest()}")
        elif isinstance(x, np.generic | np.dtype):
            npx = cast(Any, cast(object, x))
            p.append(f"np:{getattr(npx, 'dtype', npx)}:{npx!r}")
        elif isinstance(x, Kernel):
            raise Uncacheable("a kernel named in a kernel")
        elif isinstance(x, DeviceFunction):
            if x.fn is None:
                raise Uncacheable(f"device function {x.name} without a function")
            p.append(f"device:{x.name}")
            self.binding(x.binding)
            self.function(x.fn)
        elif isinstance(x, TypeVar):
            p.append(f"typevar:{x.name}")
            self.value(tuple(x.constraints))
        elif isinstance(x, type) and ((ri := record_info(x)) is not None or variant_info(x) is not None):
            self.decl(x, ri)
        elif isinstance(x, types.ModuleType):
            if not _stable_module(x.__name__):
                raise Uncacheable(f"module {x.__name__}")
            p.append(f"module:{x.__name__}")
        elif isinstance(x, type | types.FunctionType | types.BuiltinFunctionType) or callable(x) and hasattr(
                x, "__qualname__"):
            mod = getattr(x, "__module__", None) or ""
            if not _stable_module(mod):
                raise Uncacheable(f"{mod}.{getattr(x, '__qualname__', x)}")
            p.append(f"def:{mod}.{x.__qualname__}")
        elif _stable_module(type(x).__module__):  # sarek's own objects (Vec[f32], sarek.f32 ...)
            r = repr(x)
            if " at 0x" in r:
                raise Uncacheable(r)
            p.append(f"obj:{type(x).__module__}.{type(x).__qualname__}:{r}")
        else:
            raise Uncacheable(f"{type(x).__module__}.{type(x).__qualname__}")

    def decl(self, cls: type, ri: Any) -> None:
        from sarek.frontend.decls import variant_info

        if id(cls) in self.seen:
            self.parts.append(f"again:{cls.__qualname__}")
            return
        self.seen.add(id(cls))
        info: Any = ri if ri is not None else variant_info(cls)
        self.parts.append(f"decl:{cls.__module__}.{cls.__qualname__}:{info.name}:{info.location}")
        if ri is not None:
            for n, t in ri.fields:
                self.parts.append(f"field:{n}")
                self.value(t)
        else:
            for c, payload in info.ctors:
                self.parts.append(f"ctor:{c}")
                self.value(tuple(payload))

    def binding(self, b: dict[Any, Any]) -> None:
        for v, t in sorted(b.items(), key=lambda kv: kv[0].name):
            self.parts.append(f"bind:{v.name}")
            self.value(t)
