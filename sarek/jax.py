"""A sarek kernel as a JAX function through XLA's FFI: `sarek.jax.primitive(kernel, outputs=, sizes=, threads=)`.

The function calls `jax.ffi.ffi_call` on one FFI target, `sarek_launch`, registered for CUDA with a handler
built from Python with ctypes (`sarek.xla_ffi`; no C++ build, as NVIDIA Warp's `jax_kernel`). Each traced call
records a descriptor (kernel, device, scalars, threads, where each parameter comes from) and passes its number as
the `sarek_call` attribute; at run time the handler launches the kernel on XLA's stream with XLA's buffers used
in place. So it works under `jax.jit`; output shapes and dtypes come from the same specification as
`sarek.torch.op` (`sarek.opspec`). Arrays the kernel writes in place are returned as new values (XLA aliases
them). Scalars are static: Python numbers (under `jax.jit`, mark them static). A kernel with float array inputs
that mutates none of its arguments gets a `jax.custom_vjp` whose backward launches the adjoint kernel
(`k.adjoint`, or `adjoint=`) the same way: `jax.grad` works through it. Imported only when used.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sarek.opspec import FfiPlan, OpSpec, OpSpecError, as_list, ffi_plan, framework, threads_arg

TARGET = "sarek_launch"


@dataclass(frozen=True)
class _Call:
    kernel: Any
    kind: str
    block: Any
    plan: FfiPlan
    scalars: tuple[Any, ...]  # per kernel parameter: its static value (None for arrays)
    threads: tuple[int, ...]


_CALLS: list[_Call] = []
_CALL_IDS: dict[Any, int] = {}
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


def _jax() -> Any:
    return framework("jax", "sarek.jax", "JAX with CUDA")


def _ffi() -> Any:
    jax = _jax()
    return getattr(jax, "ffi", None) or importlib.import_module("jax.extend.ffi")


def _run(call: Any) -> None:
    """The handler's body: launch the described kernel on XLA's stream."""
    from sarek.runtime.interop import pointer_device

    d = _CALLS[int(call.attrs["sarek_call"])]
    if 0 in d.threads:
        return
    args: list[Any] = []
    for kind, k in d.plan.sources:
        args.append(call.args[k] if kind == "arg" else call.rets[k] if kind == "ret" else d.scalars[k])
    ptr = next((a.ptr for a in (*call.args, *call.rets) if a.ptr), 0)
    ordinal = pointer_device(ptr) if ptr else 0
    kw: dict[str, Any] = {} if d.block is None else {"block": d.block}
    d.kernel.launch(*args, threads=threads_arg(d.threads), device=f"{d.kind}:{ordinal}", stream=call.stream, **kw)


def register_target() -> None:
    """Register the `sarek_launch` FFI target for CUDA (once per process)."""
    with _LOCK:
        if "handler" in _STATE:
            return
        import ctypes

        from sarek.xla_ffi import handler

        ffi = _ffi()
        h = handler(_run)
        ffi.register_ffi_target(TARGET, ffi.pycapsule(ctypes.cast(h, ctypes.c_void_p).value), platform="CUDA")
        _STATE["handler"] = h  # XLA holds the bare pointer: keep the ctypes function alive


def _describe(c: _Call) -> int:
    key = (id(c.kernel), c.kind, repr(c.block), c.plan, repr(c.scalars), c.threads)
    with _LOCK:
        i = _CALL_IDS.get(key)
        if i is None:
            i = _CALL_IDS[key] = len(_CALLS)
            _CALLS.append(c)
    return i


def _launch(kernel: Any, kind: str, block: Any, values: Sequence[Any], kinds: Sequence[str], fresh: Mapping[int, Any],
            written: set[int], threads: tuple[int, ...]) -> list[Any]:
    """One ffi_call of `kernel` with `values` per parameter (arrays, scalars; None for `fresh` outputs, whose
    ShapeDtypeStructs `fresh` gives); returns the results (fresh and written arrays, in parameter order)."""
    jax = _jax()
    register_target()
    plan = ffi_plan(kinds, set(fresh), written)
    scalars = tuple(None if kinds[i] == "vec" else values[i] for i in range(len(kinds)))
    types = [fresh[i] if i in fresh else jax.ShapeDtypeStruct(values[i].shape, values[i].dtype) for i in plan.results]
    cid = _describe(_Call(kernel, kind, block, plan, scalars, threads))
    call = _ffi().ffi_call(TARGET, types, input_output_aliases=dict(plan.aliases) or None)
    return list(call(*[values[i] for i in plan.operands], sarek_call=cid))


def _static(spec: OpSpec, env: Mapping[str, Any]) -> None:
    for p in spec.of_role("scalar"):
        v = env[p.name]
        if not isinstance(v, bool | int | float | np.generic):
            raise OpSpecError.here(f"scalar argument '{p.name}' of {spec.kernel_name} must be a Python number "
                                   f"(static: under jax.jit mark it with static_argnums), got {type(v).__name__}")


class Primitive:
    """A kernel callable from JAX (see the module docstring); made by `primitive`."""

    def __init__(self, kernel: Any, spec: OpSpec, kind: str, block: Any, adjoint: Any):
        self.kernel, self.spec, self.kind, self.block, self._adjoint = kernel, spec, kind, block, adjoint
        self._fns: dict[Any, Any] = {}

    def __call__(self, *args: Any) -> Any:
        spec = self.spec
        env = spec.bind(args)
        _static(spec, env)
        key = tuple((p.name, env[p.name]) for p in spec.of_role("scalar"))
        fn = self._fns.get(key)
        if fn is None:
            fn = self._fns[key] = self._build(dict(key))
        arrays = [a for p, a in zip(spec.arguments, args) if p.kind == "vec"]
        out = as_list(fn(*arrays))
        return out[0] if len(out) == 1 else tuple(out)

    def _env(self, scalars: Mapping[str, Any], arrays: Sequence[Any]) -> dict[str, Any]:
        vecs = [p for p in self.spec.arguments if p.kind == "vec"]
        env: dict[str, Any] = dict(scalars)
        env.update({p.name: a for p, a in zip(vecs, arrays)})
        for n, s in self.spec.sizes:
            env[n] = int(s.value(env))
        return env

    def _forward(self, scalars: Mapping[str, Any], arrays: Sequence[Any]) -> tuple[Any, ...]:
        jax, spec = _jax(), self.spec
        env = self._env(scalars, arrays)
        fresh = {p.index: jax.ShapeDtypeStruct(tuple(int(x) for x in shape), p.dtype)
                 for p, shape in zip(spec.outputs, spec.output_shapes(env))}
        values = [None if p.index in fresh else env[p.name] for p in spec.params]
        written = {p.index for p in spec.of_role("mutated", "output")}
        res = _launch(self.kernel, self.kind, self.block, values, [p.kind for p in spec.params], fresh, written,
                      spec.launch_threads(env))
        at = dict(zip(sorted(written), res))  # results come in parameter order: outputs first, then mutated
        return tuple(at[p.index] for p in [*spec.outputs, *spec.of_role("mutated")])

    def adjoint_kernel(self) -> Any:
        if self._adjoint is None:
            try:
                self._adjoint = self.kernel.adjoint
            except AttributeError:
                raise OpSpecError.here(f"kernel '{self.kernel.name}' has no adjoint in this sarek (k.adjoint): "
                                       "pass adjoint= to sarek.jax.primitive for gradients") from None
        return self._adjoint

    def _backward(self, scalars: Mapping[str, Any], arrays: Sequence[Any], outs: Sequence[Any],
                  cts: Sequence[Any]) -> tuple[Any, ...]:
        from sarek.runtime.specs import kernel_spec

        jnp = _jax().numpy
        spec = self.spec
        env = self._env(scalars, arrays)
        out_at = {p.name: o for p, o in zip(spec.outputs, outs)}
        ct_at = {p.name: c for p, c in zip(spec.outputs, cts)}
        primal = [out_at[p.name] if p.role == "output" else env[p.name] for p in spec.params]
        adj = [ct_at[p.name] if p.role == "output" else jnp.zeros(env[p.name].shape, env[p.name].dtype)
               for p in spec.params if p.is_float_array]
        ak = self.adjoint_kernel()
        n = len(spec.params)
        inputs_adj = {n + j for j, p in enumerate(q for q in spec.params if q.is_float_array) if p.role != "output"}
        written = {p.index for p in kernel_spec(ak.module, ak.name).params if p.written} | inputs_adj
        kinds = [p.kind for p in spec.params] + ["vec"] * len(adj)
        res = _launch(ak, self.kind, self.block, primal + adj, kinds, {}, written, spec.launch_threads(env))
        plan_results = sorted(i for i in set(written) if i < len(kinds) and kinds[i] == "vec")
        got = dict(zip(plan_results, res))
        grads = dict(zip((p.name for p in spec.params if p.is_float_array and p.role != "output"),
                         (got[i] for i in sorted(inputs_adj))))
        return tuple(grads.get(p.name) if p.role == "array" and p.is_float_array else None
                     for p in spec.arguments if p.kind == "vec")

    def _build(self, scalars: Mapping[str, Any]) -> Any:
        jax, spec = _jax(), self.spec

        def fwd_only(*arrays: Any) -> tuple[Any, ...]:
            return self._forward(scalars, arrays)

        if not (spec.differentiable and spec.outputs and not spec.of_role("mutated")):
            return fwd_only
        f = jax.custom_vjp(fwd_only)

        def fwd(*arrays: Any) -> tuple[Any, Any]:
            outs = self._forward(scalars, arrays)
            return outs, (arrays, outs)

        def bwd(res: Any, cts: Any) -> tuple[Any, ...]:
            arrays, outs = res
            return self._backward(scalars, arrays, outs, list(cts))

        f.defvjp(fwd, bwd)
        return f


def primitive(kernel: Any, *, outputs: Mapping[str, Any] | None = None, sizes: Mapping[str, Any] | None = None,
              threads: Any = None, block: Any = None, device: str = "cuda", adjoint: Any = None) -> Primitive:
    """`kernel` as a JAX function of its argument arrays and scalars (the specification is `sarek.torch.op`'s:
    `outputs=`, `sizes=`, `threads=`, `block=`); it returns the outputs (one array or a tuple), then the arrays
    it writes in place. `device`: `"cuda"` or `"ptx"`; `adjoint`: the adjoint kernel (default `k.adjoint`)."""
    if device not in ("cuda", "ptx"):
        raise OpSpecError.here(f"device='{device}': JAX's CUDA buffers run on 'cuda' or 'ptx'")
    return Primitive(kernel, OpSpec.make(kernel, outputs, sizes, threads), device, block, adjoint)
