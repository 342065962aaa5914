"""Warm starts: a persistent record of each kernel's compile, found *before* the front end runs.

A fresh process launching a kernel it launched before should not lower its Python again. The record's key is
the kernel's closure key (`k.warm_closure()`, sarek.frontend.warm_key: computed from the Python function
without the front end; "" when a value in it cannot be fingerprinted safely, and the kernel takes the ordinary
path, never a stale record), its name and declared block, the process's extra passes (and their code) and the
compiler's fingerprint. A kernel here is any object with `name`, `declared_block`, `module`, `warm_closure()`
and `ir_text()` (the runtime does not import the front end).

The record (`warm` entries of sarek.runtime.cache, atomic, checksummed; a damaged one is a miss) holds the
module's generic IR text with locations and what a launch needs from it: each parameter (name, kind, type as
IR text, dtype, written, tags, rank), the IR hash, guards, cooperative matrices, whether it prints. A warm
launch builds a `WarmSpec` from it, whose module is parsed from the text only when something needs it (an
interpreter, a cache miss of a compiled artifact, a debug launch); the artifact caches, keyed by the IR hash,
then hit with neither the front end nor the pipeline. `Kernel.module` reads the text too (no front end).
"""

from __future__ import annotations

import marshal
import weakref
from typing import Any, cast

import numpy as np

from sarek.runtime import cache
from sarek.runtime.specs import KernelSpec, Param, add_live

_FORMAT = "sarek-warm-2"  # 2: marshal (json cost a fresh process its import on the warm path)


class Uncacheable(Exception):
    """A value the key cannot fingerprint safely (sarek.frontend.warm_key), or a record that cannot be written
    exactly."""


def record_key(k: Any) -> str | None:
    """The warm record's key of front-end kernel `k`, or None when it cannot be computed safely. The closure is
    walked once per kernel object (as the front end lowers it once); the extra passes are read at every call."""
    closure = k.warm_closure()
    if not closure or not cache.enabled():
        return None
    from sarek.runtime.compile import extra_passes

    passes = extra_passes()
    got = k.__dict__.get("_warm_key")
    if got is not None and got[0] == (passes, k.declared_block):
        return got[1]
    from sarek.plugins import code_fingerprint

    key = cache.make_key(_FORMAT, k.name, k.declared_block, passes, code_fingerprint(passes),
                         cache.compiler_fingerprint(), closure)
    k.__dict__["_warm_key"] = ((passes, k.declared_block), key)
    return key


def _load(key: str) -> dict[str, Any] | None:
    raw = cache.get("warm", key)
    if raw is None:
        return None
    try:
        rec: Any = marshal.loads(raw)
    except (ValueError, EOFError, TypeError):  # another Python's marshal, or not a record
        return None
    if not isinstance(rec, dict):
        return None
    got = cast("dict[str, Any]", rec)
    return got if got.get("format") == _FORMAT else None


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
        self.coop = int(rec["coop"])
        self.grid_sync = bool(rec.get("grid_sync"))
        self.prints = bool(rec["prints"])
        self.params = [WarmParam(self, i, p) for i, p in enumerate(rec["params"])]
        self.cache["shared-bytes"] = int(rec["shared"])
        add_live(self)

    @property
    def module(self) -> Any:  # pyright: ignore[reportIncompatibleVariableOverride]
        if self._module is None:
            from sarek.registry import parse_module

            self._module = parse_module(self._text, f"<kernel {self.name}>")
        return self._module

    def __repr__(self) -> str:
        return f"WarmSpec({self.signature})"

    __hash__ = object.__hash__  # pyright: ignore[reportAssignmentType] - identity, like a module's spec


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
        dt = _dtype_from_data(p["dtype"])
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

    @property
    def is_bf16(self) -> bool:
        return self.__dict__["_type_text"] == "bf16"  # (no IR type: a launch imports no dialect)

    __hash__ = object.__hash__


def _dtype_data(d: np.dtype[Any]) -> Any:
    """A dtype as plain data: its string for a plain one, names/formats/offsets/itemsize for a structured one (the
    aligned layouts of records and variants, whose payloads overlap), [base, shape] for a sub-array."""
    if d.subdtype is not None:
        return [_dtype_data(d.subdtype[0]), list(d.subdtype[1])]
    if d.fields is None:
        return d.str
    names: list[str] = list(d.names or ())
    fields = cast("dict[str, tuple[Any, ...]]", d.fields)
    return {"names": names, "formats": [_dtype_data(fields[n][0]) for n in names],
            "offsets": [fields[n][1] for n in names], "itemsize": d.itemsize}


def _dtype_from_data(j: Any) -> np.dtype[Any]:
    if isinstance(j, str):
        return np.dtype(j)
    if isinstance(j, list):
        return np.dtype((_dtype_from_data(j[0]), tuple(cast("list[int]", j[1]))))
    return np.dtype({"names": j["names"], "formats": [_dtype_from_data(f) for f in j["formats"]],
                     "offsets": j["offsets"], "itemsize": j["itemsize"]})


def store(k: Any, key: str, spec: KernelSpec) -> None:
    """Write the warm record of `k` from its (front-end built) spec; a kernel whose record cannot be written
    exactly stays uncached."""
    from sarek.analysis.features import shared_bytes
    from sarek.runtime.debug import has_prints

    params = [{"name": p.name, "kind": p.kind, "type": str(p.type), "dtype": _dtype_data(p.dtype),
               "written": p.written, "ntags": p.ntags, "rank": p.rank} for p in spec.params]
    if any(_dtype_from_data(q["dtype"]) != p.dtype for q, p in zip(params, spec.params)):
        return  # a layout the record does not carry exactly: no record
    rec = {"format": _FORMAT, "ir": k.ir_text(), "ir_hash": spec.ir_hash, "guards": spec.guards,
           "coop": spec.coop, "grid_sync": spec.grid_sync, "prints": has_prints(spec.module), "params": params,
           "shared": shared_bytes(spec.module, spec.name)}
    cache.put("warm", key, marshal.dumps(rec))


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
    got = spec.cache.get("prints")
    if got is None:  # once per spec: a walk over the module on every launch was per-call work
        from sarek.runtime.debug import has_prints

        got = spec.cache["prints"] = has_prints(spec.module)
    return bool(got)
