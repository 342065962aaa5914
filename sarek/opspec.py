"""A sarek kernel as a framework operator: the part `sarek.torch` and `sarek.jax` share, free of both frameworks.

`OpSpec.make(kernel, outputs=, sizes=, threads=, ...)` decides once, from the kernel's parameters and the
user's specification, which parameters are the operator's arguments (arrays and scalars, in the kernel's
order), which are outputs (allocated by the operator, shapes from the input shapes), which are computed from
sizes (`n = len(x)`), which arrays the kernel writes in place (mutated arguments), the launch's total threads,
and the argument order of the forward and adjoint launches. A size is a constant, an argument scalar's value,
an argument array's element count (`"x"`) or one extent (`"x.shape[0]"`). A bad specification is an
`OpSpecError` located at the user's line, naming the parameter and what to write instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from sarek.frontend.errors import CompileError, user_location

#: roles: "array" (an argument the kernel only reads), "mutated" (an argument array it writes), "scalar" (an
#: argument scalar), "output" (allocated by the operator and returned), "size" (a scalar computed from shapes)
ROLES = ("array", "mutated", "scalar", "output", "size")


class OpSpecError(CompileError, ValueError):
    """A kernel/operator specification that cannot work, located at the user's line that made the operator."""

    __module__ = "sarek"

    @classmethod
    def here(cls, message: str) -> OpSpecError:
        return cls(message, *user_location())


_SIZE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\.\s*shape\s*\[\s*(-?\d+)\s*\])?\s*$")


@dataclass(frozen=True)
class Size:
    """A constant (`param` None), an argument scalar's value, an argument array's element count (`axis` None)
    or one of its extents."""

    const: int = 0
    param: str | None = None
    axis: int | None = None

    def text(self) -> str:
        if self.param is None:
            return str(self.const)
        return self.param if self.axis is None else f"{self.param}.shape[{self.axis}]"

    def value(self, env: Mapping[str, Any]) -> Any:
        """The size for these arguments (`env`: name -> array-like with `.shape`, or a scalar). Works on symbolic
        shapes (torch SymInts, JAX shapes) as it only indexes and multiplies."""
        if self.param is None:
            return self.const
        v = env[self.param]
        if not hasattr(v, "shape"):
            return v
        shape = tuple(v.shape)
        if self.axis is None:
            return math.prod(shape)
        return shape[self.axis]


@dataclass(frozen=True)
class OpParam:
    index: int
    name: str
    role: str
    kind: str  # "vec" | "scalar"
    dtype: np.dtype[Any]
    rank: int = 1

    @property
    def is_float_array(self) -> bool:
        """Has an adjoint array in `k.adjoint`: an f32 or f64 array parameter (f16 arrays have none)."""
        return self.kind == "vec" and self.dtype in _ADJOINT_DTYPES


_ADJOINT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _is_seq(x: object) -> bool:
    return isinstance(x, tuple | list)


@dataclass(frozen=True)
class OpSpec:
    """A kernel's operator form (see the module docstring); built by `make`, which checks everything."""

    kernel_name: str
    params: tuple[OpParam, ...]
    shapes: tuple[tuple[str, tuple[Size, ...] | str], ...]  # per output: its extents, or an array name ("like")
    sizes: tuple[tuple[str, Size], ...]
    threads: tuple[Size, ...]

    # ---------------------------------------------------------------------------------------------- building

    @classmethod
    def make(cls, kernel: Any, outputs: Mapping[str, Any] | None = None, sizes: Mapping[str, Any] | None = None,
             threads: Any = None) -> OpSpec:
        """The spec of `kernel` (a sarek kernel, not generic: pass an instance `k[f32]`)."""
        from sarek.frontend.api import Kernel
        from sarek.runtime.specs import kernel_spec

        if not isinstance(kernel, Kernel):
            raise OpSpecError.here(f"expected a @sarek.kernel, got {type(cast(object, kernel)).__name__}")
        if kernel.__dict__.get("fn") is not None and kernel.type_params:
            v = kernel.type_params[0]
            raise OpSpecError.here(f"kernel '{kernel.name}' is generic in {v.name}: make the operator of an "
                                   f"instance, e.g. {kernel.name}[{v.allowed_text().split(',')[0].strip()}]")
        spec = kernel_spec(kernel.module, kernel.name)
        return cls.from_params(kernel.name, [(p.name, p.kind, p.dtype, p.rank, p.written) for p in spec.params],
                               outputs or {}, sizes or {}, threads)

    @classmethod
    def from_params(cls, name: str, params: Sequence[tuple[str, str, np.dtype[Any], int, bool]],
                    outputs: Mapping[str, Any], sizes: Mapping[str, Any], threads: Any) -> OpSpec:
        """The spec from (name, kind, dtype, rank, written) per kernel parameter (what `make` reads off the IR)."""
        by_name = {p[0]: p for p in params}
        sig = f"{name}({', '.join(p[0] for p in params)})"
        if not isinstance(cast(object, outputs), Mapping):
            raise OpSpecError.here(f"outputs= maps output parameter names to shapes, e.g. {{'out': 'x'}}; got "
                                   f"{type(outputs).__name__}")
        for what, table in (("outputs", outputs), ("sizes", sizes)):
            for key in table:
                p = by_name.get(key)
                if p is None:
                    raise OpSpecError.here(f"{what}= names '{key}', which is no parameter of {sig}")
                if what == "outputs" and p[1] != "vec":
                    raise OpSpecError.here(f"outputs= names '{key}', a {p[1]} parameter of {sig}: outputs are "
                                           "array parameters")
                if what == "sizes" and (p[1] != "scalar" or p[2].kind not in "iu"):
                    raise OpSpecError.here(f"sizes= names '{key}', which is not an integer scalar parameter of "
                                           f"{sig}")
        roles: dict[str, str] = {}
        ops: list[OpParam] = []
        for i, (pname, kind, dtype, rank, written) in enumerate(params):
            if kind not in ("vec", "scalar"):
                raise OpSpecError.here(f"parameter '{pname}' of {sig} is a record or variant, which an operator "
                                       "cannot pass (pass its fields as scalars or an array of them)")
            if pname in outputs:
                role = "output"
                if not written:
                    raise OpSpecError.here(f"output '{pname}' of {sig} is never written by the kernel")
            elif pname in sizes:
                role = "size"
            elif kind == "vec":
                role = "mutated" if written else "array"
            else:
                role = "scalar"
            roles[pname] = role
            ops.append(OpParam(i, pname, role, kind, np.dtype(dtype), rank))
        args = {p.name: p for p in ops if p.role in ("array", "mutated", "scalar")}
        if not any(p.kind == "vec" for p in args.values()):
            raise OpSpecError.here(f"{sig} as an operator takes no array argument: the framework needs one to "
                                   "know the device (make an array parameter an input)")

        def size(x: Any, what: str, computed: bool = True) -> Size:
            if isinstance(x, bool) or not isinstance(x, int | str):
                raise OpSpecError.here(f"{what}: a size is an int, an argument name ('x': its element count, or "
                                       f"a scalar's value) or 'x.shape[k]'; got {x!r}")
            if isinstance(x, int):
                if x < 0:
                    raise OpSpecError.here(f"{what}: a size cannot be negative ({x})")
                return Size(const=x)
            m = _SIZE.match(x)
            if m is None:
                raise OpSpecError.here(f"{what}: '{x}' is no size; write an argument name ('x') or 'x.shape[k]'")
            pname, axis = m.group(1), m.group(2)
            p = args.get(pname)
            if p is None and computed and roles.get(pname) == "size" and axis is None:
                return Size(param=pname)  # filled in before shapes and threads are computed
            if p is None:
                other = roles.get(pname)
                why = f"it is an {other} parameter" if other else f"{sig} has no such parameter"
                raise OpSpecError.here(f"{what}: '{x}' names '{pname}', not an argument of the operator ({why})")
            if p.kind == "scalar" and (axis is not None or p.dtype.kind not in "iu"):
                raise OpSpecError.here(f"{what}: '{x}': '{pname}' is a {p.dtype} scalar, usable as a size only "
                                       "bare and when it is an integer")
            return Size(param=pname, axis=None if axis is None else int(axis))

        shapes: list[tuple[str, tuple[Size, ...] | str]] = []
        for p in ops:
            if p.role != "output":
                continue
            spec = outputs[p.name]
            what = f"outputs['{p.name}']"
            like = args.get(spec.strip()) if isinstance(spec, str) else None
            if like is not None and like.kind == "vec":
                if p.rank != 1 and like.rank != p.rank:
                    raise OpSpecError.here(f"{what}: '{spec}' has {like.rank} dimension(s), '{p.name}' has {p.rank}")
                shapes.append((p.name, like.name))
                continue
            dims = tuple(size(d, what) for d in (spec if _is_seq(spec) else (spec,)))
            if not dims or (p.rank != 1 and len(dims) != p.rank):
                raise OpSpecError.here(f"{what}: {len(dims)} extent(s) given, '{p.name}' has {p.rank} dimension(s)")
            shapes.append((p.name, dims))
        size_specs = tuple((p.name, size(sizes[p.name], f"sizes['{p.name}']", False)) for p in ops if p.role == "size")
        if threads is None:
            raise OpSpecError.here("threads= is required: the total threads per dimension, e.g. threads='n' or "
                                   "threads=('a.shape[0]', 'a.shape[1]')")
        tdims = threads if _is_seq(threads) else (threads,)
        if not 1 <= len(tdims) <= 3:
            raise OpSpecError.here(f"threads=: 1 to 3 dimensions, got {len(tdims)}")
        return cls(name, tuple(ops), tuple(shapes), size_specs, tuple(size(d, "threads=") for d in tdims))

    # ---------------------------------------------------------------------------------------------- using

    def of_role(self, *roles: str) -> list[OpParam]:
        return [p for p in self.params if p.role in roles]

    @property
    def arguments(self) -> list[OpParam]:
        """The operator's arguments, in the kernel's order."""
        return self.of_role("array", "mutated", "scalar")

    @property
    def outputs(self) -> list[OpParam]:
        return self.of_role("output")

    @property
    def differentiable(self) -> list[OpParam]:
        """The float array arguments that get gradients (read-only inputs; mutated ones have none)."""
        return [p for p in self.of_role("array") if p.is_float_array]

    def bind(self, args: Sequence[Any]) -> dict[str, Any]:
        """name -> value for the operator's arguments, sizes filled in."""
        params = self.arguments
        if len(args) != len(params):
            raise OpSpecError.here(f"operator {self.kernel_name} takes {len(params)} argument(s) "
                                   f"({', '.join(p.name for p in params)}), {len(args)} given")
        env = {p.name: a for p, a in zip(params, args)}
        for n, s in self.sizes:
            env[n] = s.value(env)
        return env

    def output_shapes(self, env: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Each output's shape (symbolic where the arguments' shapes are)."""
        out: list[tuple[Any, ...]] = []
        for _, spec in self.shapes:
            out.append(tuple(env[spec].shape) if isinstance(spec, str) else tuple(s.value(env) for s in spec))
        return out

    def launch_threads(self, env: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(int(s.value(env)) for s in self.threads)

    def kernel_args(self, env: Mapping[str, Any], outputs: Sequence[Any]) -> list[Any]:
        """The forward launch's arguments in the kernel's order."""
        outs = dict(zip((p.name for p in self.outputs), outputs))
        return [outs[p.name] if p.role == "output" else env[p.name] for p in self.params]

    def adjoint_args(self, env: Mapping[str, Any], outputs: Sequence[Any], adjoints: Mapping[str, Any]) -> list[Any]:
        """`k.adjoint`'s arguments: the forward's, then one adjoint array per float array parameter in order
        (`adjoints`: name -> array; every float array parameter must have one)."""
        return self.kernel_args(env, outputs) + [adjoints[p.name] for p in self.params if p.is_float_array]

    def schema(self) -> str:
        """The torch.library schema: arrays are `Tensor` (`Tensor(aK!)` when written), scalars `int`, `float` or
        `bool`; the outputs a `Tensor` or a tuple of them (`()` for none)."""
        parts: list[str] = []
        k = 0
        for p in self.arguments:
            if p.kind == "vec":
                if p.role == "mutated":
                    parts.append(f"Tensor(a{k}!) {p.name}")
                    k += 1
                else:
                    parts.append(f"Tensor {p.name}")
            else:
                parts.append(f"{_SCALAR_SCHEMA[p.dtype.kind]} {p.name}")
        n = len(self.outputs)
        ret = "Tensor" if n == 1 else "(" + ", ".join(["Tensor"] * n) + ")"
        return f"({', '.join(parts)}) -> {ret}"

    def adjoint_schema(self) -> str:
        """The adjoint operator's schema: the forward's arguments, the outputs, then one gradient per output; it
        returns one gradient per differentiable argument."""
        fwd = self.schema().split(" -> ")[0][1:-1]
        extra = [f"Tensor {p.name}" for p in self.outputs] + [f"Tensor grad_{p.name}" for p in self.outputs]
        n = len(self.differentiable)
        ret = "Tensor" if n == 1 else "(" + ", ".join(["Tensor"] * n) + ")"
        return f"({', '.join(x for x in [fwd, *extra] if x)}) -> {ret}"


_SCALAR_SCHEMA = {"i": "int", "u": "int", "f": "float", "b": "bool"}


def framework(module: str, user: str, what: str) -> Any:
    """`import module` for `user` (sarek.torch, sarek.jax); its absence is a located OpSpecError."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise OpSpecError.here(f"{user} needs {what} ({e}); install it") from None


def threads_arg(threads: tuple[int, ...]) -> int | tuple[int, ...]:
    """`threads=` for `Kernel.launch`: an int for one dimension."""
    return threads[0] if len(threads) == 1 else threads


def as_list(x: Any) -> list[Any]:
    """A framework's result (one value, a tuple or a list) as a list."""
    return list(cast("tuple[Any, ...]", x)) if isinstance(x, tuple | list) else [x]


def op_name(name: str | None, kernel_name: str, taken: set[str]) -> str:
    """`namespace::name` for the operator: the user's (checked), else `sarek::<kernel>` with a numeric suffix
    when another operator took it."""
    if name is not None:
        if not re.fullmatch(r"[A-Za-z_]\w*::[A-Za-z_]\w*", name):
            raise OpSpecError.here(f"name='{name}': an operator name is 'namespace::name' (identifiers)")
        return name
    base = f"sarek::{kernel_name}"
    if base not in taken:
        return base
    i = 2
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


@dataclass(frozen=True)
class FfiPlan:
    """Where each kernel parameter comes from in one XLA FFI call: `sources[i]` is ("arg", k) (operand k),
    ("ret", j) (result j: allocated by XLA, or an operand aliased to it because the kernel writes it) or
    ("scalar", i) (a static value). `results` lists the parameter index of each result."""

    sources: tuple[tuple[str, int], ...]
    operands: tuple[int, ...]
    results: tuple[int, ...]
    aliases: tuple[tuple[int, int], ...]  # (operand index, result index): XLA's input_output_aliases


def ffi_plan(kinds: Sequence[str], fresh: set[int], written: set[int]) -> FfiPlan:
    """The plan for a kernel whose parameter `i` is an array (`kinds[i] == "vec"`) or a scalar; `fresh` arrays
    have no operand (outputs XLA allocates), `written` ones are results (an operand the kernel writes is aliased
    to its result, as JAX arrays are immutable)."""
    operands = tuple(i for i, k in enumerate(kinds) if k == "vec" and i not in fresh)
    results = tuple(i for i, k in enumerate(kinds) if k == "vec" and (i in fresh or i in written))
    sources = tuple(("ret", results.index(i)) if i in results else ("arg", operands.index(i)) if k == "vec"
                    else ("scalar", i) for i, k in enumerate(kinds))
    aliases = tuple((operands.index(i), results.index(i)) for i in results if i not in fresh)
    return FfiPlan(sources, operands, results, aliases)
