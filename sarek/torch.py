"""A sarek kernel as a PyTorch operator: `sarek.torch.op(kernel, outputs=, sizes=, threads=)`.

The result is a `torch.library.custom_op` (a `CustomOpDef`, called like a function) with its schema, its fake
implementation (output shapes and dtypes from the argument shapes, so `torch.compile(fullgraph=True)` keeps it
as one node) and, when the kernel has float array inputs and mutates none of its arguments, an autograd
formula that launches the kernel's adjoint (`k.adjoint`, or `adjoint=`) through a second registered operator
(`<name>_adjoint`), so the backward also compiles without a graph break. Launches go on PyTorch's current
stream (the runtime's rule for torch tensors), so they are ordered with torch's own work and captured by
`torch.cuda.graph`. CUDA tensors run on the `device=` kind (`"cuda"` or `"ptx"`) of their GPU, CPU tensors on
`cpu_device=` (the interpreter by default, or any sarek device: OpenCL, Vulkan ...). Imported only when used
(`import sarek.torch`); what does not need torch is `sarek.opspec`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sarek.opspec import OpSpec, OpSpecError, as_list, framework, op_name, threads_arg

#: operators made in this process: qualified name -> (kernel, spec); and by what made them (the same call again
#: returns the same operator instead of registering another)
_OPS: dict[str, tuple[Any, OpSpec]] = {}
_MADE: dict[Any, Any] = {}
_DTYPES: dict[str, Any] = {}


def _torch() -> Any:
    return framework("torch", "sarek.torch", "PyTorch")


def torch_dtype(d: np.dtype[Any]) -> Any:
    """The torch dtype of a kernel element dtype (an OpSpecError for one torch lacks)."""
    if not _DTYPES:
        t = _torch()
        _DTYPES.update({"float16": t.float16, "float32": t.float32, "float64": t.float64, "int8": t.int8,
                        "int16": t.int16, "int32": t.int32, "int64": t.int64, "uint8": t.uint8, "bool": t.bool,
                        "bfloat16": t.bfloat16})
    r = _DTYPES.get(np.dtype(d).name)
    if r is None:
        raise OpSpecError.here(f"element type {d} has no torch dtype")
    return r


def sarek_device(t: Any, devs: tuple[str, str]) -> str:
    """The sarek device for a tensor's device: `<kind>:<index>` for CUDA (`devs[0]` the kind), `devs[1]` for CPU
    tensors (the interpreter uses their memory in place, other devices copy in and back)."""
    dev = t.device
    if dev.type == "cuda":
        return f"{devs[0]}:{dev.index if dev.index is not None else 0}"
    if dev.type == "cpu":
        return devs[1]
    raise OpSpecError.here(f"a sarek operator runs on CUDA or CPU tensors, not on {dev}")


def _first_tensor(spec: OpSpec, env: Mapping[str, Any]) -> Any:
    return next(env[p.name] for p in spec.arguments if p.kind == "vec")


def _contiguous(spec: OpSpec, env: dict[str, Any]) -> dict[str, Any]:
    """Read-only array arguments made contiguous (a copy only when they are not); mutated ones as they are."""
    for p in spec.of_role("array"):
        env[p.name] = env[p.name].contiguous()
    return env


def _new_outputs(spec: OpSpec, env: Mapping[str, Any]) -> list[Any]:
    torch = _torch()
    ref = _first_tensor(spec, env)
    return [torch.empty(shape, dtype=torch_dtype(p.dtype), device=ref.device)
            for p, shape in zip(spec.outputs, spec.output_shapes(env))]


def _pack(values: list[Any]) -> Any:
    return None if not values else values[0] if len(values) == 1 else tuple(values)


def _launch(kernel: Any, spec: OpSpec, env: Mapping[str, Any], args: list[Any], devs: tuple[str, str],
            block: Any) -> None:
    threads = spec.launch_threads(env)
    if 0 in threads:
        return  # nothing to run (a launch of zero threads is refused by the runtime)
    kw: dict[str, Any] = {} if block is None else {"block": block}
    kernel.launch(*args, threads=threads_arg(threads), device=sarek_device(_first_tensor(spec, env), devs), **kw)


def op(kernel: Any, *, outputs: Mapping[str, Any] | None = None, sizes: Mapping[str, Any] | None = None,
       threads: Any = None, block: Any = None, device: str = "cuda", cpu_device: str = "interp",
       name: str | None = None, adjoint: Any = None) -> Any:
    """Register `kernel` as a torch operator and return it (a `torch.library.CustomOpDef`, callable).

    - `outputs`: output parameter name -> shape: an argument array's name (same shape), a size, or a tuple of
      sizes. A size is an int, an argument name (an array's element count, an integer scalar's value) or
      `"x.shape[k]"`. Outputs are allocated by the operator (dtype: the parameter's element type) and returned
      (one tensor, a tuple for several, None for none).
    - `sizes`: integer scalar parameter -> size, computed from the arguments instead of passed (`{"n": "x"}`).
    - `threads`: the launch's total threads, a size or a tuple of 1-3 sizes; `block=` the block (else the
      kernel's declared one, else the runtime's default).
    - The operator's arguments are the remaining parameters in the kernel's order: arrays are tensors (those the
      kernel writes are declared mutated), scalars Python numbers.
    - `device`: the sarek device kind CUDA tensors run on (`"cuda"` or `"ptx"`); `cpu_device`: the sarek device
      CPU tensors run on (default the interpreter, in place; `"opencl"`, `"vulkan"`... copy in and back);
      `name`: `"ns::name"` (default
      `sarek::<kernel name>`); `adjoint`: the adjoint kernel for gradients (default `kernel.adjoint`).
    The same call again (same kernel and arguments) returns the same operator.
    """
    torch = _torch()
    if device not in ("cuda", "ptx"):
        raise OpSpecError.here(f"device='{device}': CUDA tensors run on 'cuda' or 'ptx'")
    spec = OpSpec.make(kernel, outputs, sizes, threads)
    devs = (device, cpu_device)
    key = (id(kernel), spec, devs, repr(block), name, id(adjoint))
    made = _MADE.get(key)
    if made is not None:
        return made
    qual = op_name(name, kernel.name, set(_OPS))
    mutated = [p.name for p in spec.of_role("mutated")]

    def forward(*args: Any) -> Any:
        env = _contiguous(spec, spec.bind(args))
        outs = _new_outputs(spec, env)
        _launch(kernel, spec, env, spec.kernel_args(env, outs), devs, block)
        return _pack(outs)

    def fake(*args: Any) -> Any:
        return _pack(_new_outputs(spec, spec.bind(args)))

    cop = torch.library.custom_op(qual, forward, mutates_args=mutated, schema=spec.schema())
    cop.register_fake(fake)
    if spec.differentiable and spec.outputs and not mutated:
        _register_autograd(cop, kernel, spec, qual, devs, block, adjoint)
    _OPS[qual] = (kernel, spec)
    _MADE[key] = cop
    cop.sarek_spec = spec
    return cop


def _adjoint_kernel(kernel: Any, given: Any) -> Any:
    if given is not None:
        return given
    try:
        return kernel.adjoint
    except AttributeError:
        raise OpSpecError.here(f"kernel '{kernel.name}' has no adjoint in this sarek (k.adjoint): pass adjoint= "
                               "to sarek.torch.op for gradients") from None


def _register_autograd(cop: Any, kernel: Any, spec: OpSpec, qual: str, devs: tuple[str, str], block: Any,
                       given: Any) -> None:
    """The backward: `<qual>_adjoint`, an operator launching the adjoint kernel: the output gradients accumulate
    into zeroed input adjoints."""
    torch = _torch()
    nargs, nout = len(spec.arguments), len(spec.outputs)
    diff = spec.differentiable
    cache: dict[str, Any] = {}

    def adjoint_forward(*args: Any) -> Any:
        env = _contiguous(spec, spec.bind(args[:nargs]))
        outs = [o.contiguous() for o in args[nargs:nargs + nout]]
        grads = dict(zip((p.name for p in spec.outputs), args[nargs + nout:]))
        ak = cache.get("k")
        if ak is None:
            from sarek.runtime.specs import kernel_spec

            ak = cache["k"] = _adjoint_kernel(kernel, given)
            cache["written"] = {p.index for p in kernel_spec(ak.module, ak.name).params if p.written}
        written: set[int] = cache["written"]
        # what the adjoint kernel writes besides the input adjoints is copied first (k.adjoint writes neither
        # the primal arrays nor the output gradients; a hand-written adjoint may)
        args_after = [p for p in spec.params if p.is_float_array]
        adj: dict[str, Any] = {}
        for j, p in enumerate(args_after):
            if p.role == "output":
                g = grads[p.name].contiguous()
                adj[p.name] = g.clone() if len(spec.params) + j in written else g
            else:
                adj[p.name] = torch.zeros_like(env[p.name], memory_format=torch.contiguous_format)
        primal = spec.kernel_args(env, outs)
        primal = [a.clone() if i in written and hasattr(a, "clone") else a for i, a in enumerate(primal)]
        _launch(ak, spec, env, primal + [adj[p.name] for p in args_after], devs, block)
        return _pack([adj[p.name] for p in diff])

    def adjoint_fake(*args: Any) -> Any:
        env = spec.bind(args[:nargs])
        return _pack([torch.empty_like(env[p.name], memory_format=torch.contiguous_format) for p in diff])

    aop = torch.library.custom_op(f"{qual}_adjoint", adjoint_forward, mutates_args=(), schema=spec.adjoint_schema())
    aop.register_fake(adjoint_fake)

    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        outs = as_list(output)
        tensors = [i for i, p in enumerate(spec.arguments) if p.kind == "vec"]
        ctx.tensor_at = tensors
        ctx.scalars = [None if i in tensors else a for i, a in enumerate(inputs)]
        ctx.save_for_backward(*[inputs[i] for i in tensors], *outs)

    def backward(ctx: Any, *grads: Any) -> tuple[Any, ...]:
        saved = ctx.saved_tensors
        args = list(ctx.scalars)
        for j, i in enumerate(ctx.tensor_at):
            args[i] = saved[j]
        outs = list(saved[len(ctx.tensor_at):])
        gs = [torch.zeros_like(o) if g is None else g for g, o in zip(grads, outs)]
        by_name = dict(zip((p.name for p in diff), as_list(aop(*args, *outs, *gs))))
        return tuple(by_name.get(p.name) for p in spec.arguments)

    cop.register_autograd(backward, setup_context=setup_context)

