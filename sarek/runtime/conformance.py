"""The conformance corpus: every example kernel with inputs, a numpy reference and a tolerance, and a
runner that compares any device with the reference.

Cases come from two places:
- `examples/*.py` (the front end's corpus) and `tests/conformance/kernels/*.py` (cases of the runtime and
  of language features): each module's `CASES` (see examples/README.md), and
- `examples/*.mlir`: the IR examples, with their inputs and references below (`MLIR_CASES`).

`run_case(case, device)` gives a `Result` (pass/fail, max error, message). tests/conformance runs every case
on every executor available here; scripts/gpu_check.py runs them on cuda, NVIDIA OpenCL, ptx and vulkan.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import numpy as np

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
#: runtime-specific kernels (marshalling corner cases), run like the examples
RUNTIME_KERNELS = REPO / "tests" / "conformance" / "kernels"


@dataclass
class Case:
    """One launch of one kernel and what it must produce.

    `make_args(rng)` builds fresh arguments; `reference(args)` returns the expected value of every output,
    keyed by argument index (default: each vector the kernel may write, compared whole).
    """

    name: str
    kernel: Any  # a front-end kernel (.module, .name) or (ModuleOp, name)
    make_args: Callable[[np.random.Generator], list[Any]]
    reference: Callable[[list[Any]], dict[int, Any]]
    grid: Any = 1
    block: Any = 1
    atol: float = 1e-5
    rtol: float = 1e-5
    origin: str = ""
    #: devices (kinds or names) this case does not run on, with the reason
    skip: dict[str, str] = field(default_factory=dict)
    #: devices (kinds, names, or "compiled" for every device that compiles a target) that may refuse the
    #: kernel with a sarek diagnostic matching the regex (reported n/a); when they run it, it must be right
    expect_error: dict[str, str] = field(default_factory=dict)
    #: what the kernel needs ("f64", "i64", "f16", "atomics", "warp", "shared", "records", "variants"): a
    #: device lacking one may refuse the kernel with a sarek diagnostic (reported as n/a, not a failure)
    features: frozenset[str] = frozenset()
    #: `launch(kernel, args, device)` for cases that launch several times
    custom_launch: Callable[[Any, Any, Any], None] | None = None

    @property
    def module_and_name(self) -> tuple[Any, str]:
        from sarek.runtime.core import resolve_kernel

        return resolve_kernel(self.kernel)


@dataclass
class Result:
    case: str
    device: str
    ok: bool
    max_error: float = 0.0
    message: str = ""
    seconds: float = 0.0
    skipped: bool = False
    refused: bool = False  # a device without a feature the kernel needs refused it (with a diagnostic)

    @property
    def status(self) -> str:
        return "skip" if self.skipped else "n/a" if self.refused else ("pass" if self.ok else "FAIL")


# ------------------------------------------------------------------------------------------------ comparison


def _leaves(a: np.ndarray[Any, Any]) -> list[np.ndarray[Any, Any]]:
    if a.dtype.fields is None:
        return [a]
    out: list[np.ndarray[Any, Any]] = []
    for name in a.dtype.names or ():
        out += _leaves(a[name])
    return out


def compare(got: Any, want: Any, atol: float, rtol: float) -> tuple[bool, float, str]:
    """(ok, max abs error, message). Floats within atol + rtol*|want| (NaN matches NaN), ints and bools
    exactly, structured arrays field by field. Variant payload bytes of other constructors are ignored by
    comparing only the fields the reference gives."""
    g = np.asarray(got)
    w = np.asarray(want)
    if g.shape != w.shape:
        return False, math.inf, f"shape {g.shape} != expected {w.shape}"
    if w.dtype.fields is not None:
        worst, ok = 0.0, True
        msgs: list[str] = []
        for name in w.dtype.names or ():
            if g.dtype.fields is None or name not in (g.dtype.names or ()):
                return False, math.inf, f"field {name} missing"
            o, e, m = compare(g[name], w[name], atol, rtol)
            worst = max(worst, e)
            if not o:
                ok = False
                msgs.append(f".{name}: {m}")
        return ok, worst, "; ".join(msgs)
    if w.dtype.kind == "f" or g.dtype.kind == "f":
        gf = g.astype(np.float64)
        wf = w.astype(np.float64)
        both_nan = np.isnan(gf) & np.isnan(wf)
        diff = np.where(both_nan, 0.0, np.abs(gf - wf))
        diff = np.where(np.isnan(diff), np.inf, diff)
        bad = diff > atol + rtol * np.abs(np.where(np.isnan(wf), 0, wf))
        worst = float(diff.max()) if diff.size else 0.0
        if bad.any():
            i = int(np.flatnonzero(bad.reshape(-1))[0])
            return False, worst, (f"{int(bad.sum())} of {bad.size} elements off; first at [{i}]: "
                                  f"got {gf.reshape(-1)[i]!r}, expected {wf.reshape(-1)[i]!r}")
        return True, worst, ""
    bad = g != w
    if bad.any():
        i = int(np.flatnonzero(bad.reshape(-1))[0])
        worst = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max()) if w.dtype.kind in "iub" else math.inf
        return False, worst, (f"{int(bad.sum())} of {bad.size} elements differ; first at [{i}]: "
                              f"got {g.reshape(-1)[i]!r}, expected {w.reshape(-1)[i]!r}")
    return True, 0.0, ""


# ------------------------------------------------------------------------------------------------ running


def _keys(device: Any) -> list[str]:
    keys = [device.name, device.name.split(":")[0], device.kind]
    if getattr(device, "target", None) is not None or device.kind not in ("interp",):
        keys.append("compiled")
    return keys


#: features a kind of device lacks, where the device does not say itself (`device.lacks()`)
LACKS: dict[str, set[str]] = {
    "vulkan": {"f64", "i64"},   # WGSL has no f64 and no 64-bit integers
    "vulkan-glsl": {"i64"},  # GLSL's atomics are 32-bit (the device's own lacks() adds what its driver lacks)
}


def target_lacks(target: str | None) -> set[str]:
    """The features a target's gate refuses: "coop" (f16/bf16 inputs) where it has no cooperative matrices,
    "coop-int8" (u8/i8 inputs) where it has no 8-bit path, "coop-bf16" where it has no bf16 one (the table of sarek.analysis.coopmat_support), "f16"
    where it refuses float16, "grid-barrier" where it has no cooperative launch."""
    from sarek.analysis.coopmat_support import SHAPES
    from sarek.analysis.features import Feature, Refused, support

    if target is None:
        return set()
    configs = SHAPES.get(target, ())
    out = set[str]() if configs else {"coop"}
    if not any("f16" in c.acc for c in configs):  # "coop-f16acc": f16 accumulators
        out.add("coop-f16acc")
    if not any("u8" in c.inputs for c in configs):
        out.add("coop-int8")
    if not any("bf16" in c.inputs for c in configs):
        out.add("coop-bf16")
    if isinstance(support(target, Feature.FLOAT16), Refused):
        out.add("f16")
    if isinstance(support(target, Feature.GRID_BARRIER), Refused):
        out.add("grid-barrier")
    return out


def device_lacks(device: Any) -> set[str]:
    """Features the device lacks: its own `lacks()` when it has one, else from OpenCL extensions or LACKS; the
    cooperative-matrix features its target lacks (`target_lacks`)."""
    target = getattr(device, "target", None)
    coop = target_lacks(target if isinstance(target, str) else None)
    own = getattr(device, "lacks", None)
    if callable(own):
        return set(cast("Iterable[str]", own())) | coop
    out: set[str] = coop
    for key in (device.name.split(":")[0], device.kind):
        out |= LACKS.get(key, set())
    if device.kind == "opencl" and hasattr(device, "extensions"):
        ext = device.extensions()  # f16 needs no cl_khr_fp16: sarek stores its bits (sarek-widen-f16)
        if "cl_khr_fp64" not in ext:
            out.add("f64")
        if not ext & {"cl_khr_subgroups", "cl_intel_subgroups"}:
            out.add("warp")
        if "cl_khr_int64_base_atomics" not in ext:
            out.add("i64")
    return out


def skip_reason(case: Case, device: Any) -> str | None:
    for key in _keys(device):
        if key in case.skip:
            return case.skip[key]
    return None


def expected_error(case: Case, device: Any) -> str | None:
    for key in _keys(device):
        if key in case.expect_error:
            return case.expect_error[key]
    return None


def run_case(case: Case, device: Any, seed: int = 1234) -> Result:
    from sarek.runtime import launch

    why = skip_reason(case, device)
    if why is not None:
        return Result(case.name, device.name, True, message=why, skipped=True)
    rng = np.random.default_rng(seed)
    refusal = expected_error(case, device)
    try:
        args = case.make_args(rng)
        inputs: list[Any] = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        want = case.reference(inputs)
        t0 = time.perf_counter()
        if case.custom_launch is not None:
            case.custom_launch(case.kernel, tuple(args), device)
        else:
            launch(case.kernel, args, case.grid, case.block, device)
        dt = time.perf_counter() - t0
    except Exception as e:  # a compile or launch failure is a failed case, reported with its message
        if refusal is not None and hasattr(e, "message"):
            import re

            if re.search(refusal, str(e)):
                return Result(case.name, device.name, True, 0.0, f"refused as allowed: {e}", refused=True)
        lacking = sorted(case.features & device_lacks(device))
        if lacking and hasattr(e, "message"):
            return Result(case.name, device.name, True, 0.0, f"n/a: needs {', '.join(lacking)}; refused: {e}",
                          refused=True)
        msg = f"{type(e).__name__}: {e}"
        if not hasattr(e, "message"):  # not a sarek diagnostic: keep where it came from
            msg += "\n" + "".join(traceback.format_exc(limit=-3))
        return Result(case.name, device.name, False, math.inf, msg)
    ok, worst = True, 0.0
    msgs: list[str] = []
    for i, expected in want.items():
        got = args[i]
        got = got.to_numpy() if hasattr(got, "to_numpy") else got
        o, e, m = compare(got, expected, case.atol, case.rtol)
        worst = max(worst, e)
        if not o:
            ok = False
            msgs.append(f"arg {i}: {m}")
    return Result(case.name, device.name, ok, worst, "; ".join(msgs), dt)


def written_outputs(case: Case, args: list[Any]) -> list[int]:
    from sarek.runtime.core import kernel_spec

    m, n = case.module_and_name
    return [p.index for p in kernel_spec(m, n).params if p.written]


# ------------------------------------------------------------------------------------------------ the corpus


def _parse(name: str, folder: Path = EXAMPLES) -> Any:
    from sarek.registry import parse_module

    path = folder / name
    return parse_module(path.read_text(), str(path))


def _mlir_cases() -> list[Case]:
    from sarek.analysis.layout import numpy_dtype
    from sarek.dialect.sarek import RecordType, VariantType

    cases: list[Case] = []

    # vector_add: c = a + b
    m = _parse("vector_add.mlir")
    n = 1000

    def va_args(rng: np.random.Generator) -> list[Any]:
        return [rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n]

    cases.append(Case("vector_add.mlir", (m, "vector_add"), va_args, lambda a: {2: a[0] + a[1]},
                      grid=4, block=256, atol=1e-6, origin="examples/vector_add.mlir"))

    # helpers: dst = x*x + 2x through helper calls (the kernel's barrier loop needs one thread per block)
    m = _parse("helpers.mlir")
    nh = 64

    def h_args(rng: np.random.Generator) -> list[Any]:
        return [rng.standard_normal(nh).astype(np.float32), np.zeros(nh, np.float32), nh]

    def h_ref(a: list[Any]) -> dict[int, Any]:
        x = a[0]
        return {1: x * x + np.float32(2) * x}

    # its `for k = gid to n { barrier }` is a barrier under divergent control flow: launched with one thread
    # per block it is well defined; a compiler may refuse it (the barrier check is conservative)
    cases.append(Case("helpers.mlir", (m, "apply"), h_args, h_ref, grid=nh, block=1, atol=1e-5,
                      origin="examples/helpers.mlir",
                      expect_error={"compiled": "barrier under thread-divergent control flow"}))

    # record: dst[i] = {x + 1, 2y}
    m = _parse("record.mlir")
    pt = cast("np.dtype[np.void]", numpy_dtype(m, RecordType("point")))
    nr = 300

    def r_args(rng: np.random.Generator) -> list[Any]:
        src = np.zeros(nr, pt)
        src["x"] = rng.standard_normal(nr)
        src["y"] = rng.standard_normal(nr)
        return [src, np.zeros(nr, pt), nr]

    def r_ref(a: list[Any]) -> dict[int, Any]:
        out = np.zeros(nr, pt)
        out["x"] = a[0]["x"] + np.float32(1)
        out["y"] = a[0]["y"] * np.float32(2)
        return {1: out}

    cases.append(Case("record.mlir", (m, "shift_points"), r_args, r_ref, grid=2, block=256, atol=1e-6,
                      origin="examples/record.mlir"))

    # reduce: per-block sums with a 256-slot shared tree
    m = _parse("reduce.mlir")
    nred = 1000

    def red_args(rng: np.random.Generator) -> list[Any]:
        return [rng.random(nred, dtype=np.float32), np.zeros(4, np.float32), nred]

    def red_ref(a: list[Any]) -> dict[int, Any]:
        x = np.zeros(1024, np.float64)
        x[:nred] = a[0]
        return {1: x.reshape(4, 256).sum(axis=1)}

    cases.append(Case("reduce.mlir", (m, "reduce_sum"), red_args, red_ref, grid=4, block=256, atol=1e-3,
                      rtol=1e-5, origin="examples/reduce.mlir"))

    # variant match: area and perimeter of shapes
    m = _parse("variant_match.mlir")
    sh = cast("np.dtype[np.void]", numpy_dtype(m, VariantType("shape")))
    ns = 500

    def v_args(rng: np.random.Generator) -> list[Any]:
        s = np.zeros(ns, sh)
        tags = rng.integers(0, 3, ns).astype(np.int32)
        s["tag"] = tags
        circ = tags == 0
        rect = tags == 1
        s["Circle_v"][circ] = rng.random(int(circ.sum())).astype(np.float32)
        s["Rect_v"]["_0"][rect] = rng.random(int(rect.sum())).astype(np.float32)
        s["Rect_v"]["_1"][rect] = rng.random(int(rect.sum())).astype(np.float32)
        return [s, np.zeros(ns, np.float32), np.zeros(ns, np.float32), ns]

    def v_ref(a: list[Any]) -> dict[int, Any]:
        s = a[0]
        tag = s["tag"]
        r = s["Circle_v"]
        w, h = s["Rect_v"]["_0"], s["Rect_v"]["_1"]
        area = np.where(tag == 0, np.float32(3.14159274) * (r * r), np.where(tag == 1, w * h, 0)).astype(np.float32)
        per = np.where(tag == 0, np.float32(6.28318548) * r, np.where(tag == 1, 2 * (w + h), 0)).astype(np.float32)
        return {1: area, 2: per}

    cases.append(Case("variant_match.mlir", (m, "areas"), v_args, v_ref, grid=2, block=256, atol=1e-5,
                      origin="examples/variant_match.mlir"))
    if RUNTIME_KERNELS.is_dir():
        cases += _runtime_cases()
    return cases


def _runtime_cases() -> list[Case]:
    from sarek.analysis.layout import numpy_dtype
    from sarek.dialect.sarek import RecordType

    cases: list[Case] = []
    m = _parse("marshal.mlir", RUNTIME_KERNELS)
    pt = cast("np.dtype[np.void]", numpy_dtype(m, RecordType("pt")))
    n = 100

    def mk(rng: np.random.Generator) -> list[Any]:
        p = np.zeros(1, pt)
        p["x"] = 1.5
        p["flag"] = 1
        p["w"] = 0.25 + rng.random()
        return [rng.random(n) < 0.5, np.zeros(n), np.zeros(1, np.int64), p, True, n]

    def ref(a: list[Any]) -> dict[int, Any]:
        b, p = a[0], a[3]
        s = -(float(p["w"][0]) + 1.5)
        return {0: ~b, 1: np.where(b, s, 0.0), 2: np.array([n], np.int64)}

    cases.append(Case("runtime/marshal.mlir", (m, "mix"), mk, ref, grid=4, block=32, atol=0, rtol=0,
                      origin="tests/conformance/kernels/marshal.mlir",
                      expect_error={"vulkan": "float64", "vulkan-glsl": "on i64 is not supported"}))
    return cases


def _load_example(path: Path) -> ModuleType:
    name = f"sarek_example_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def _python_cases() -> tuple[list[Case], list[str]]:
    """Cases from examples/*.py and tests/conformance/kernels/*.py `CASES`; returns (cases, errors loading
    them)."""
    cases: list[Case] = []
    errors: list[str] = []
    for path in [*sorted(EXAMPLES.glob("*.py")), *sorted(RUNTIME_KERNELS.glob("*.py"))]:
        if path.name.startswith("_"):
            continue
        try:
            mod = _load_example(path)
        except Exception as e:
            errors.append(f"{path.name}: {type(e).__name__}: {e}")
            continue
        for c in getattr(mod, "CASES", ()) or ():
            try:
                cases.append(from_example_case(c, path))
            except Exception as e:
                errors.append(f"{path.name}: bad case {c!r}: {type(e).__name__}: {e}")
    return cases, errors


def from_example_case(c: Any, path: Path) -> Case:
    """Adapts one entry of an example's CASES (`sarek.frontend.corpus.Case`, see examples/README.md)."""
    if isinstance(c, Case):
        return c
    n = int(getattr(c, "n", 1024))
    g, b = c.dims(n) if hasattr(c, "dims") else (getattr(c, "grid", 1), getattr(c, "block", 1))
    make = c.make_args
    ref = c.reference

    def make_args(rng: np.random.Generator) -> list[Any]:
        del rng  # example inputs are deterministic by construction
        return list(make(n))

    def reference(args: list[Any]) -> dict[int, Any]:
        import copy

        return {int(k): v for k, v in ref(copy.deepcopy(tuple(args))).items()}

    return Case(name=f"{path.stem}.py:{c.name}", kernel=c.kernel, make_args=make_args, reference=reference, grid=g, block=b,
                atol=float(getattr(c, "atol", 1e-6)), rtol=float(getattr(c, "rtol", 1e-5)),
                origin=str(path.relative_to(REPO)), features=frozenset(getattr(c, "features", ()) or ()),
                custom_launch=getattr(c, "launch", None))


def corpus() -> tuple[list[Case], list[str]]:
    """Every case: the IR examples, then the Python examples; plus load errors (reported as failures)."""
    cases = _mlir_cases()
    py, errors = _python_cases()
    return cases + py, errors


def format_table(results: Sequence[Result], devices: Sequence[str]) -> str:
    """kernel x device: pass/FAIL/skip and the max error."""
    names = list(dict.fromkeys(r.case for r in results))
    by = {(r.case, r.device): r for r in results}
    w0 = max([len("kernel")] + [len(n) for n in names])
    cols = [max(len(d), 18) for d in devices]
    lines = ["  ".join(["kernel".ljust(w0)] + [d.ljust(c) for d, c in zip(devices, cols)])]
    lines.append("  ".join(["-" * w0] + ["-" * c for c in cols]))
    for n in names:
        cells: list[str] = []
        for d, c in zip(devices, cols):
            r = by.get((n, d))
            if r is None:
                cells.append("-".ljust(c))
            elif r.skipped:
                cells.append("skip".ljust(c))
            elif r.refused:
                cells.append("n/a (refused)".ljust(c))
            else:
                err = "inf" if math.isinf(r.max_error) else f"{r.max_error:.1e}"
                cells.append(f"{'pass' if r.ok else 'FAIL'} {err}".ljust(c))
        lines.append("  ".join([n.ljust(w0)] + cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m sarek.runtime.conformance [DEVICE ...]`: the corpus on the devices here, as a table."""
    import warnings

    import sarek.runtime as rt

    warnings.filterwarnings("ignore", message=".*falls back to the reference executor.*")
    names = list(sys.argv[1:] if argv is None else argv)
    devs = [rt.get_device(n) for n in names] if names else rt.devices()
    cases, errors = corpus()
    for e in errors:
        print("corpus load error:", e)
    results = [run_case(c, d) for c in cases for d in devs]
    for r in results:
        if not r.ok:
            print(f"FAIL {r.case} on {r.device}: {r.message[:500]}")
    bad = sum(not r.ok for r in results)
    print(f"{len(results) - bad} passed, {bad} failed ({len(cases)} cases x {len(devs)} devices)")
    print(format_table(results, [d.name for d in devs]))
    return 1 if bad or errors else 0


if __name__ == "__main__":
    sys.exit(main())
