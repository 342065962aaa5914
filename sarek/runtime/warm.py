"""Warm starts: a persistent record of each kernel's compile, found *before* the front end runs.

A fresh process launching a kernel it launched before should not lower its Python again. The record's key is
computed from the kernel function without the front end: its source file's text (as `linecache` gives it, what
the front end reads), first line and name, and everything it closes over: the globals and closure cells its code
names (helpers recursively, records and variants with their fields, module constants, numpy arrays by content,
sarek's own names), its annotations, the type-variable binding of an instance, the declared block, the
process's extra passes (and their code) and the compiler's fingerprint. A value it cannot fingerprint safely
(a user module, an arbitrary object, source Python does not keep) makes the kernel uncacheable: it takes the
ordinary path, never a stale record.

The record (`warm` entries of sarek.runtime.cache, atomic, checksummed; a damaged one is a miss) holds the
module's generic IR text with locations and what a launch needs from it: each parameter (name, kind, type as
IR text, dtype, written, tags, rank), the IR hash, guards, cooperative matrices, whether it prints. A warm
launch builds a `WarmSpec` from it, whose module is parsed from the text only when something needs it (an
interpreter, a cache miss of a compiled artifact, a debug launch); the artifact caches, keyed by the IR hash,
then hit with neither the front end nor the pipeline. `Kernel.module` reads the text too (no front end).
"""

from __future__ import annotations

import hashlib
import json
import linecache
import os
import types
import weakref
from typing import Any

import numpy as np

from sarek.runtime import cache
from sarek.runtime.specs import KernelSpec, Param

_FORMAT = "sarek-warm-1"
#: modules whose names a kernel may read as constants (their code is the compiler's or the interpreter's)
_STABLE_MODULES = ("sarek", "numpy", "math", "builtins", "ml_dtypes")


class Uncacheable(Exception):
    """A value the key cannot fingerprint safely."""


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
        from sarek.frontend.source import GIVEN

        if fn in GIVEN:
            raise Uncacheable(f"source= given for {fn.__qualname__}")
        code = fn.__code__
        self.parts += [f"fn:{code.co_filename}:{code.co_firstlineno}:{fn.__qualname__}", _file_digest(fn)]
        closure = {n: c for n, c in zip(code.co_freevars, fn.__closure__ or ())}
        names: list[str] = []
        _code_names(code, names)
        g = fn.__globals__
        builtins = g.get("__builtins__", {})
        bdict: dict[str, Any] = builtins if isinstance(builtins, dict) else vars(builtins)
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
            items = sorted(x, key=repr) if isinstance(x, frozenset) else x
            p.append(f"{type(x).__name__}:{len(items)}")
            for e in items:
                self.value(e)
        elif isinstance(x, np.ndarray):
            a = np.ascontiguousarray(x)
            p.append(f"ndarray:{a.dtype.str}:{a.shape}:{hashlib.sha256(a.tobytes()).hexdigest()}")
        elif isinstance(x, np.generic | np.dtype):
            p.append(f"np:{getattr(x, 'dtype', x)}:{x!r}")
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
        info = ri if ri is not None else variant_info(cls)
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


def record_key(k: Any) -> str | None:
    """The warm record's key of front-end kernel `k`, or None when it cannot be computed safely. The closure is
    walked once per kernel object (as the front end lowers it once); the extra passes are read at every call."""
    closure = k.__dict__.get("_warm_closure")
    if closure is None:
        closure = ""
        fn = k.__dict__.get("fn")
        if fn is not None:
            w = _Keyer()
            try:
                w.function(fn)
                w.binding(k.binding)
                closure = cache.make_key(*w.parts)
            except (Uncacheable, RecursionError):  # RecursionError: nested deeper than Python walks
                closure = ""
        k.__dict__["_warm_closure"] = closure
    if not closure or not cache.enabled():
        return None
    from sarek.runtime.compile import extra_passes

    passes = extra_passes()
    got = k.__dict__.get("_warm_key")
    if got is not None and got[0] == passes:
        return got[1]
    from sarek.plugins import code_fingerprint

    key = cache.make_key(_FORMAT, k.name, k.declared_block, passes, code_fingerprint(passes),
                         cache.compiler_fingerprint(), closure)
    k.__dict__["_warm_key"] = (passes, key)
    return key


def _load(key: str) -> dict[str, Any] | None:
    raw = cache.get("warm", key)
    if raw is None:
        return None
    try:
        rec = json.loads(raw)
        if rec.get("format") != _FORMAT:
            return None
        return rec
    except ValueError:
        return None


def module_from_cache(k: Any) -> Any:
    """The module of `k` parsed from its warm record (no front end), or None."""
    key = record_key(k)
    rec = _load(key) if key else None
    if rec is None:
        return None
    from sarek.registry import parse_module

    try:
        return parse_module(rec["ir"], f"<kernel {k.name}>")
    except Exception:  # noqa: BLE001 - a record that does not parse (damaged): the front end builds it
        return None


class WarmSpec(KernelSpec):
    """A KernelSpec read from a warm record: the module is parsed from the record's IR text at first use."""

    def __init__(self, k: Any, rec: dict[str, Any]):
        self._kernel = weakref.ref(k)
        self._text: str = rec["ir"]
        self._module: Any = None
        self.name = k.name
        self.ir_hash = rec["ir_hash"]
        self.cache, self.dims, self.plans = {}, {}, {}
        self.guards = [tuple(g) for g in rec["guards"]]
        self.coop = bool(rec["coop"])
        self.prints = bool(rec["prints"])
        self.params = [WarmParam(self, i, p) for i, p in enumerate(rec["params"])]
        _WARM.append(weakref.ref(self))

    @property
    def module(self) -> Any:  # pyright: ignore[reportIncompatibleVariableOverride]
        if self._module is None:
            from sarek.registry import parse_module

            self._module = parse_module(self._text, f"<kernel {self.name}>")
        return self._module

    def __repr__(self) -> str:
        return f"WarmSpec({self.signature})"

    __hash__ = object.__hash__


_WARM: list[weakref.ref[WarmSpec]] = []


def live_warm_specs() -> list[KernelSpec]:
    """The warm specs still alive (sarek.runtime.compile drops their programs when the extra passes change)."""
    return [s for r in _WARM if (s := r()) is not None]


_SCALAR_TYPES: dict[str, Any] = {}


def _scalar_type(text: str) -> Any:
    if not _SCALAR_TYPES:
        from sarek.dialect import scalars as sc
        from xdsl.dialects.builtin import Float16Type, Float64Type, IntegerType

        for t in (sc.U8, sc.I8, sc.I16, sc.U16, sc.U32, sc.U64, sc.BF16, sc.F32, Float16Type(), Float64Type(),
                  IntegerType(1), IntegerType(32), IntegerType(64)):
            _SCALAR_TYPES[str(t)] = t
    return _SCALAR_TYPES.get(text)


class WarmParam(Param):
    """A Param whose IR type is parsed from the record only when asked for (scalars: from a table)."""

    def __init__(self, spec: WarmSpec, i: int, p: dict[str, Any]):
        from numpy.lib.format import descr_to_dtype

        dt = descr_to_dtype(p["dtype"]) if isinstance(p["dtype"], list) else np.dtype(p["dtype"])
        for n, v in (("index", i), ("name", p["name"]), ("kind", p["kind"]), ("dtype", dt),
                     ("written", p["written"]), ("ntags", p["ntags"]), ("rank", p["rank"]), ("_spec", spec),
                     ("_type_text", p["type"])):
            object.__setattr__(self, n, v)

    @property
    def type(self) -> Any:  # pyright: ignore[reportIncompatibleVariableOverride]
        t = self.__dict__.get("_type")
        if t is None:
            t = _scalar_type(self.__dict__["_type_text"])
            if t is None:
                from sarek.dialect.sarek import KernelOp

                spec: WarmSpec = self.__dict__["_spec"]
                k = next(op for op in spec.module.ops if isinstance(op, KernelOp) and op.sym_name.data == spec.name)
                t = k.params[self.index][1].type
            object.__setattr__(self, "_type", t)
        return t

    __hash__ = object.__hash__


def _dtype_json(d: np.dtype[Any]) -> Any:
    from numpy.lib.format import descr_to_dtype, dtype_to_descr

    if d.fields is None and d.subdtype is None:
        return d.str
    descr = dtype_to_descr(d)
    if descr_to_dtype(descr) != d:
        raise Uncacheable(f"dtype {d} does not round-trip")
    return json.loads(json.dumps(descr))


def store(k: Any, key: str, spec: KernelSpec) -> None:
    """Write the warm record of `k` from its (front-end built) spec; a kernel whose record cannot be written
    exactly stays uncached."""
    from sarek.frontend.api import kernel_ir_text
    from sarek.runtime.debug import has_prints

    try:
        params = [{"name": p.name, "kind": p.kind, "type": str(p.type), "dtype": _dtype_json(p.dtype),
                   "written": p.written, "ntags": p.ntags, "rank": p.rank} for p in spec.params]
    except Uncacheable:
        return
    rec = {"format": _FORMAT, "ir": kernel_ir_text(k), "ir_hash": spec.ir_hash, "guards": spec.guards,
           "coop": spec.coop, "prints": has_prints(spec.module), "params": params}
    cache.put("warm", key, json.dumps(rec).encode())


def cached_spec(k: Any) -> KernelSpec | None:
    """The spec of front-end kernel `k` from its warm record (no front end), None without one."""
    key = record_key(k)
    if key is None:
        return None
    got = k.__dict__.get("_warm_spec")
    if got is not None and got[0] == key:
        return got[1]
    rec = _load(key)
    if rec is None:
        return None
    try:
        spec = WarmSpec(k, rec)
    except (KeyError, TypeError, ValueError):  # a record of another shape: rebuilt by launch_spec
        return None
    k.__dict__["_warm_spec"] = (key, spec)
    return spec


def launch_spec(k: Any) -> KernelSpec | None:
    """The spec a plain launch of front-end kernel `k` runs: from its warm record when there is one (no front
    end), else built by the front end and recorded; None when `k` is not cacheable (the ordinary path)."""
    spec = cached_spec(k)
    key = record_key(k)
    if spec is None and key is not None:
        from sarek.runtime.specs import kernel_spec

        spec = kernel_spec(k.module, k.name)
        store(k, key, spec)
    k.__dict__["_warm_spec"] = (key, spec)
    return spec


def prints(spec: KernelSpec) -> bool:
    """Whether the kernel of `spec` prints (a warm spec knows without its module)."""
    if isinstance(spec, WarmSpec):
        return spec.prints
    from sarek.runtime.debug import has_prints

    return has_prints(spec.module)
