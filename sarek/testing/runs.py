"""Running one generated kernel file: import it, make its deterministic inputs, launch it on a device or run IR
on the interpreter, and compare two runs' outputs (the fuzzer, sarek.testing.fuzz, and pass blame,
sarek.testing.blame, both use these).

Outputs by parameter name: the integer, float and narrow outputs (`oi ol of od on`), the accumulators (`acc`,
`accf`), and `print`, the text the kernel printed (its lines; compared exactly like integers).
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import io
import re
from pathlib import Path
from typing import Any, cast

import numpy as np

from sarek.testing.gen import (A2_ROWS, A3_SHAPE, ACC_INIT, ACCF_SLOTS, COOP_BYTES, COOP16_ELEMS, COOP16_RANGE,
                               COOPWG_ELEMS, F2I_VALUES, NARROW_RANGE, UACC_INIT)

#: device kind -> the target whose pipeline it runs (for pass blame)
DEVICE_TARGET = {"opencl": "opencl", "cuda": "cuda", "ptx": "ptx", "vulkan": "wgsl", "vulkan-glsl": "glsl"}
#: float tolerance per device kind: |x - ref| <= atol + rtol * |ref| (values are clamped to +-1000).
#: f32 on any device: 1e-3 + 1e-4 relative; Vulkan (lavapipe, and Vulkan's precision rules) computes asin, acos,
#: atan, atan2, sinh to about 4e-4 relative, so kernels using them get 2e-3 relative there.
TOLERANCE: dict[str, dict[str, tuple[float, float]]] = {
    "default": {"f32": (1e-3, 1e-4), "f64": (1e-9, 1e-9)},
    "lowprec": {"f32": (2e-3, 2e-3), "f64": (1e-9, 1e-9)},
}
LOWPREC_KINDS = ("vulkan", "vulkan-glsl")
#: the outputs compared within TOLERANCE (every other output, `accf` included, exactly)
FLOAT_OUTPUTS = {"of": "f32", "od": "f64"}
OUTPUTS = ("oi", "ol", "of", "od", "on", "acc", "accf", "oq", "oh", "ow", "accu", "accul", "accu2", "gx")
#: the output of a two-stream launch's second kernel (CASE["streams"])
STREAM_OUTPUT = "o2"
#: the inputs of issue 34's corner shapes (no random draws: every other input keeps its values)
_CORNER_INPUTS: dict[str, tuple[tuple[float, ...] | tuple[int, ...], Any]] = {
    "ax": (F2I_VALUES, np.float32), "axd": (F2I_VALUES, np.float64),
    "ac": ((-2**31, -1, 2**31 - 1, 1), np.int32), "acl": ((-2**63, -1, 2**63 - 1, 1), np.int64)}
_OUT_DTYPES = {"oi": np.int32, "ol": np.int64, "of": np.float32, "od": np.float64}


def device_kind(name: str) -> str:
    return name.split(":")[0]


def load_kernel(path: Path) -> tuple[Any, dict[str, Any]]:
    """Import a generated kernel file; returns (the Kernel, its CASE)."""
    spec = importlib.util.spec_from_file_location(f"sarek_fuzz_{path.stem}_{abs(hash(str(path)))}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    case = cast("dict[str, Any]", mod.CASE)
    return getattr(mod, f"fz{case['seed']}"), case


def _narrow(rng: np.random.Generator, ty: str, n: int) -> Any:
    """n deterministic values of narrow element type `ty` over the range the generator assumes."""
    lo, hi = NARROW_RANGE[ty]
    if ty == "bf16":
        from sarek.types import bf16_from_f32

        return bf16_from_f32(np.asarray(rng.integers(lo * 4, hi * 4 + 1, n) / 4.0, np.float32))
    if ty == "f16":
        return np.asarray(rng.integers(lo * 4, hi * 4 + 1, n) / 4.0, np.float16)
    dt = np.dtype({"u8": np.uint8, "i8": np.int8, "u16": np.uint16, "i16": np.int16, "u32": np.uint32,
                   "u64": np.uint64}[ty])
    return rng.integers(lo, hi, n, dtype=dt, endpoint=True)


def make_args(kernel: Any, case: dict[str, Any]) -> list[Any]:
    """Deterministic inputs for a kernel's parameters (by name), zeroed outputs."""
    rng = np.random.default_rng(case["seed"])
    n = case["n"]
    outs = case["outputs"]
    made: dict[str, Any] = {
        "ai": np.asarray(rng.integers(-100, 101, n), np.int32),
        "af": np.asarray(rng.integers(-32, 33, n) / 4.0, np.float32),
        "al": np.asarray(rng.integers(-5 * 10**9, 5 * 10**9 + 1, n), np.int64),
        "ad": np.asarray(rng.integers(-32, 33, n) / 4.0, np.float64),
        "acc": np.array(ACC_INIT, np.int32), "n": n,
    }
    # drawn last: the 1-D inputs keep the values they had before 2-D arrays came (and so on for later inputs)
    made["a2"] = np.asarray(rng.integers(-100, 101, (A2_ROWS, n // A2_ROWS)), np.int32)
    made["a3"] = np.asarray(rng.integers(-100, 101, (*A3_SHAPE, n // (A3_SHAPE[0] * A3_SHAPE[1]))), np.int32)
    narrow = case.get("narrow")
    if narrow:
        made["an"] = _narrow(rng, narrow, n)
        made["on"] = np.zeros_like(made["an"])
    made["accf"] = np.zeros(ACCF_SLOTS, np.float32)
    # feature "uatomic": slot starts 0 or all ones (no draw: every other input keeps its values)
    made["accu"] = np.array([x * (2**32 - 1) for x in UACC_INIT], np.uint32)
    made["accul"] = np.array([x * (2**64 - 1) for x in UACC_INIT], np.uint64)
    made["accu2"] = np.repeat(made["accu"][:, None], 2, axis=1)
    made["gx"] = np.zeros(n, np.int32)  # feature "gridbar"'s exchange
    for name, (vals, dt) in _CORNER_INPUTS.items():
        made[name] = np.resize(np.array(vals, dt), n)
    for vec, dt in _OUT_DTYPES.items():
        if vec in outs:
            made[vec] = np.zeros(n * outs[vec], dt)
    coop = case.get("coop")
    if coop:  # feature "coop": its own stream, so the other inputs keep their values
        q = np.random.default_rng([case["seed"], 29])
        lo, hi = (-128, 128) if coop == "i8" else (0, 256)
        made["cq"] = np.asarray(q.integers(lo, hi, COOP_BYTES), np.int8 if coop == "i8" else np.uint8)
        made["oq"] = np.zeros(n // 32 * 256, np.int32)
    if case.get("coop16"):  # feature "coop16": small integers, exact in f16 and in every f32 sum
        q = np.random.default_rng([case["seed"], 2916])
        made["ch"] = q.integers(*COOP16_RANGE, COOP16_ELEMS).astype(np.float16)
        made["oh"] = np.zeros(n // 32 * 256, np.float32)
    if case.get("coopwg"):  # feature "coopwg": as coop16, one 64xN accumulator per warpgroup
        q = np.random.default_rng([case["seed"], 2990])
        made["cw"] = q.integers(*COOP16_RANGE, COOPWG_ELEMS).astype(np.float16)
        made["ow"] = np.zeros(n // 128 * 64 * case["coopwg"], np.float32)
    return [made[p] for p in inspect.signature(kernel.fn).parameters]


def output_names(kernel: Any) -> list[str]:
    return [p for p in inspect.signature(kernel.fn).parameters if p in OUTPUTS]


def _outputs(kernel: Any, args: list[Any], text: str) -> dict[str, list[Any]]:
    names = list(inspect.signature(kernel.fn).parameters)
    out = {p: _values(a) for p, a in zip(names, args) if p in output_names(kernel)}
    if text:
        out["print"] = text.splitlines()
    return out


def _values(a: Any) -> list[Any]:
    if a.dtype.kind == "V" or a.dtype.name == "bfloat16":  # bf16: compared as the f32 values they hold
        from sarek.types import bf16_to_f32

        return cast("list[Any]", bf16_to_f32(a).tolist())
    return cast("list[Any]", a.tolist())


#: the pseudo-device whose float division is off by about 2 ulp (DivisionErrorDevice)
DIVISION_ERROR_DEVICE = "interp-div"


def perturb_division(module: Any, up: bool = False) -> Any:
    """`module` (changed in place) with every float `/` result multiplied by 1 -+ 2^(2-p) (p the precision):
    about 2 ulp toward zero (or away from it), within the 2.5 ulp OpenCL and Vulkan allow f32 `/`."""
    from xdsl.dialects.builtin import FloatAttr

    from sarek.dialect.expressions import BinOp, BinOpKind, ConstantOp
    from sarek.dialect.types import is_float

    prec = {16: 11, 32: 24, 64: 53}
    for op in list(module.walk()):
        if not (isinstance(op, BinOp) and op.op == BinOpKind.DIV and is_float(op.result.type)):
            continue
        t: Any = op.result.type
        c = ConstantOp(FloatAttr(1.0 + (1 if up else -1) * 2.0 ** (2 - prec[t.bitwidth]), t), t)
        m = BinOp("mul", op.result, c.result)
        op.result.replace_uses_with_if(m.result, lambda use, m=m: use.operation is not m)
        block = op.parent_block()
        assert block is not None
        block.insert_ops_after([c, m], op)
    return module


class DivisionErrorDevice:
    """The interpreter with every float division about 2 ulp low (perturb_division): what a device whose `/` is
    not correctly rounded may do (NVIDIA's OpenCL and Vulkan). A generated kernel must agree on it too (ints
    exactly, floats within tolerance); one that does not depends on correctly rounded division (`trunc` of a
    quotient that is an integer: fuzz seeds 500005 and 600207)."""

    name = DIVISION_ERROR_DEVICE

    def __init__(self, up: bool = False):
        import sarek.runtime as rt

        self.up = up
        self.base: Any = rt.get_device("interp")
        self.limits = self.base.limits

    def stream(self) -> Any:
        return self.base.stream()

    def launch(self, module: Any, name: str, args: list[Any], grid: Any, block: Any, stream: Any = None) -> None:
        self.base.launch(perturb_division(module.clone(), self.up), name, args, grid, block, stream=stream)


def get_device(name: str) -> Any:
    """A runtime device by name, or the DivisionErrorDevice for DIVISION_ERROR_DEVICE."""
    if name == DIVISION_ERROR_DEVICE:
        return DivisionErrorDevice()
    import sarek.runtime as rt

    return rt.get_device(name)


def run_on(kernel: Any, case: dict[str, Any], device: Any) -> dict[str, list[Any]]:
    """Launch on one device (a name or a Device); the outputs by parameter name, with the printed text."""
    args = make_args(kernel, case)
    dev = get_device(device) if isinstance(device, str) else device
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):  # print(...) in a kernel writes its lines to stdout after the launch
        if case.get("streams"):
            return run_two_streams(kernel, case, dev, args, buf)
        dev.launch(kernel.module, kernel.name, args, case["grid"], case["block"])
    return _outputs(kernel, args, buf.getvalue())


def run_two_streams(kernel: Any, case: dict[str, Any], dev: Any, args: list[Any], buf: io.StringIO
                    ) -> dict[str, list[Any]]:
    """Feature "streams": the kernel on stream s1 with every vector a `sarek.Vector` (so the launch returns before
    it ends), then the second kernel (CASE["streams"]["kernel"], in the same file) on stream s2 reading the
    first's output Vector CASE["streams"]["src"], no synchronize between; the outputs read back from the
    Vectors (`o2` is the second kernel's)."""
    import sarek.runtime as rt

    k2 = kernel.fn.__globals__[case["streams"]["kernel"]]
    vecs: list[Any] = [rt.Vector(a) if isinstance(a, np.ndarray) and a.ndim == 1 else a for a in args]  # 2-D: numpy
    names = list(inspect.signature(kernel.fn).parameters)
    src: Any = vecs[names.index(case["streams"]["src"])]
    o2 = rt.Vector(case["n"], src.dtype)
    s1, s2 = dev.stream(), dev.stream()
    dev.launch(kernel.module, kernel.name, vecs, case["grid"], case["block"], stream=s1)
    dev.launch(k2.module, k2.name, [src, o2, case["n"]], case["grid"], case["block"], stream=s2)
    host: list[Any] = [v.to_numpy() if isinstance(v, rt.Vector) else v for v in vecs]
    out = _outputs(kernel, host, buf.getvalue())
    out[STREAM_OUTPUT] = _values(o2.to_numpy())
    return out


def _f16_as_bits(module: Any, name: str, args: list[Any]) -> list[Any]:
    """After sarek-widen-f16 an f16 vector is a u16 one holding the bits: its float16 array is given as a
    uint16 view (the same memory, so outputs land in it)."""
    from sarek.dialect.sarek import KernelOp, VecType
    from sarek.dialect.scalars import U16

    k = next(op for op in module.walk() if isinstance(op, KernelOp) and op.sym_name.data == name)
    return [cast(Any, a).view(np.uint16) if isinstance(a, np.ndarray) and cast(Any, a).dtype == np.float16
            and isinstance(p.type, VecType) and p.type.element_type == U16 else a for (_, p), a in zip(k.params, args)]


def run_module_interp(module: Any, name: str, kernel: Any, case: dict[str, Any]) -> dict[str, list[Any]]:
    """Run `module` (any sarek-dialect IR) on the interpreter with the kernel's inputs (prints lowered, as every
    device does). A module whose kernel holds `sarek.packed` (after sarek-pack-narrow: its narrow vectors are
    words) runs on the reference interpreter, which takes the host's narrow arrays as those words; a device's
    launch checks the arguments against the packed types and refuses them."""
    import sarek.runtime as rt

    args = _f16_as_bits(module, name, make_args(kernel, case))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        if any("sarek.packed" in op.attributes for op in module.walk()):
            from sarek.interp import reference
            from sarek.runtime.debug import launch_plan

            plan = launch_plan(module, name, False)
            words = [plan.buffer()] if plan is not None else []
            reference.run(plan.module if plan is not None else module, name, [*args, *words],
                          (case["grid"], 1, 1), (case["block"], 1, 1))
            if plan is not None:
                plan.finish(words[0], None)
        else:
            rt.get_device("interp").launch(module, name, args, case["grid"], case["block"])
    return _outputs(kernel, args, buf.getvalue())


_NEG_ZERO = re.compile(r"(?<![\w.])-(0(?:\.0*)?(?:e[+-]?\d+)?)(?![\w.])")


def _unsigned_zeros(lines: list[Any]) -> list[Any]:
    """Printed lines with each `-0`, `-0.0`, `-0.0e+00` token written without its sign."""
    return [_NEG_ZERO.sub(r"\1", str(x)) for x in lines]


def compare(ref: dict[str, list[Any]], got: dict[str, list[Any]], case: dict[str, Any], dev: str) -> str | None:
    """None when `got` agrees with `ref`; else the first difference, described."""
    tol = TOLERANCE["lowprec" if case.get("lowprec") and device_kind(dev) in LOWPREC_KINDS else "default"]
    for name in dict.fromkeys([*ref, *got]):
        r, g = ref.get(name), got.get(name)
        if r is None or g is None:
            return f"{name}: missing" if g is None else f"{name}: not in the reference ({str(g)[:200]})"
        if name == "print":  # -0.0 and 0.0 may differ between devices (Mesa's shaders drop the sign): one zero
            r, g = _unsigned_zeros(r), _unsigned_zeros(g)
        ra, ga = np.asarray(r), np.asarray(g)
        if ra.shape != ga.shape:
            return f"{name}: shape {ga.shape} != {ra.shape}" + (f" ({g[:3]} vs {r[:3]})" if name == "print" else "")
        # o2, the second kernel's output (feature "streams"), has the element type of the output it reads
        kind = FLOAT_OUTPUTS.get(case.get("streams", {}).get("src", "") if name == "o2" else name)
        if kind is not None:
            atol, rtol = tol[kind]
            bad = ~np.isclose(ga, ra, rtol=rtol, atol=atol, equal_nan=True)
        else:
            bad = ga != ra
        if bad.any():
            k = int(np.argmax(bad))
            return f"{name}[{k}] = {ga[k]!r}, reference {ra[k]!r} ({int(bad.sum())} of {bad.size} differ)"
    return None
