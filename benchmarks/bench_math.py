"""Accuracy of the sarek math library: `python benchmarks/bench_math.py [--quick] [--n N] [--lavapipe]
[--only f1,f2]` (prints a markdown table; writes nothing).

Each routine the native-math table (sarek/analysis/native_math.py) uses is expanded by `sarek-expand-math`
into an elementwise kernel and run on the interpreter, whose results are bit-identical to the devices that
run the same IR (tests/unit/test_expand_math.py: pocl, and the H200 under the `gpu` marker). The error of
each result is measured against mpmath at 120 bits, in units in the last place of the correctly rounded
result (`np.spacing` of it), and the table gives the maximum over the samples: random inputs over the
stated domain (uniform, or log-uniform where it says so), plus 1/4 of them near 0 where the function is
odd. f64 rows: the double routines (PTX, GLSL); f32 rows: PTX's f32 forms (double routine, one rounding),
measured against the correctly rounded f32 result. `--lavapipe` adds the GLSL f64 column as lavapipe runs it
(its double fma is a multiply then an add, which Vulkan allows). Results and method: BENCHMARKS.md,
"Math library accuracy".
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from collections.abc import Callable
from typing import Any

import mpmath as mp
import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sarek.runtime as rt  # noqa: E402
from xdsl.dialects.builtin import f32, f64  # noqa: E402

from sarek.analysis.native_math import polyfilled_functions  # noqa: E402
from sarek.mathlib.kernels import elementwise  # noqa: E402
from sarek.passes.expand_math import ExpandMathPass  # noqa: E402
from sarek.tools.ir import make_context  # noqa: E402

mp.mp.prec = 120
LOGU = "log-uniform"
# function -> (domain text, sampler kind, bounds, odd near 0)
DOMAINS: dict[str, tuple[str, str, tuple[float, float], bool]] = {
    "exp": ("[-708, 709]", "u", (-708, 709), False), "exp2": ("[-1022, 1023]", "u", (-1022, 1023), False),
    "expm1": ("[-5, 5]", "u", (-5, 5), True), "log": ("(0, 1e300] " + LOGU, "pos", (-690, 690), False),
    "log2": ("(0, 1e300] " + LOGU, "pos", (-690, 690), False),
    "log10": ("(0, 1e300] " + LOGU, "pos", (-690, 690), False), "log1p": ("[-0.9, 10]", "u", (-0.9, 10), True),
    "sin": ("[-1e5, 1e5]", "u", (-1e5, 1e5), True), "cos": ("[-1e5, 1e5]", "u", (-1e5, 1e5), False),
    "tan": ("[-1e5, 1e5]", "u", (-1e5, 1e5), True), "asin": ("[-1, 1]", "u", (-1, 1), True),
    "acos": ("[-1, 1]", "u", (-1, 1), False), "atan": ("±[1e-300, 1e300] " + LOGU, "wide", (-690, 690), True),
    "atan2": ("±[1e-300, 1e300]² " + LOGU, "wide", (-690, 690), False),
    "sinh": ("[-709, 709]", "u", (-709, 709), True), "cosh": ("[-709, 709]", "u", (-709, 709), False),
    "tanh": ("[-20, 20]", "u", (-20, 20), True), "cbrt": ("±[1e-300, 1e300] " + LOGU, "wide", (-690, 690), False),
    "hypot": ("±[1e-300, 1e300]² " + LOGU, "wide", (-690, 690), False),
    "pow": ("x in (0, 100], y in [-20, 20]", "pow", (0, 100), False),
    "fmod": ("±[1e-300, 1e300]² log-uniform", "wide", (-690, 690), False),
}
REF: dict[str, Callable[..., Any]] = {
    "exp": mp.exp, "exp2": lambda x: mp.mpf(2) ** x, "expm1": mp.expm1, "log": mp.log,
    "log2": lambda x: mp.log(x, 2), "log10": mp.log10, "log1p": mp.log1p, "sin": mp.sin, "cos": mp.cos,
    "tan": mp.tan, "asin": mp.asin, "acos": mp.acos, "atan": mp.atan, "atan2": mp.atan2, "sinh": mp.sinh,
    "cosh": mp.cosh, "tanh": mp.tanh, "cbrt": lambda x: mp.sign(x) * mp.cbrt(abs(x)),
    "hypot": lambda x, y: mp.sqrt(x * x + y * y), "pow": lambda x, y: mp.power(x, y),
    # fmod's result is exact (a double), so C's (numpy's) is the reference; mpmath's loses bits at 120
    "fmod": lambda x, y: mp.mpf(float(np.fmod(float(x), float(y)))),
}


def samples(name: str, n: int, dt: Any, rng: np.random.Generator) -> list[np.ndarray[Any, Any]]:
    _, kind, (lo, hi), odd = DOMAINS[name]
    if dt == np.float32:
        lo, hi = {"exp": (-87, 88), "exp2": (-126, 127), "sinh": (-88, 88), "cosh": (-88, 88)}.get(name, (lo, hi))
        if kind in ("pos", "wide"):
            lo, hi = -80, 80
    arity = 2 if name in ("atan2", "hypot", "pow", "fmod") else 1
    out: list[np.ndarray[Any, Any]] = []
    for k in range(arity):
        if kind == "u":
            v = rng.uniform(lo, hi, n)
        elif kind == "pos":
            v = np.exp(rng.uniform(lo, hi, n))
        elif kind == "pow":
            v = rng.uniform(1e-3, 100, n) if k == 0 else rng.uniform(-20, 20, n)
        else:
            v = np.sign(rng.uniform(-1, 1, n)) * np.exp(rng.uniform(lo, hi, n))
        if odd:
            v[: n // 4] = rng.uniform(-1e-3, 1e-3, n // 4)
        out.append(v.astype(dt))
    return out


def run(m: Any, device: str, xs: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
    out = np.zeros_like(xs[0])
    rt.launch((m, "apply"), [*xs, out], grid=(len(out) + 255) // 256, block=256, device=device)
    return out


def max_ulp(name: str, xs: list[np.ndarray[Any, Any]], got: np.ndarray[Any, Any]) -> float:
    worst = 0.0
    for i in range(len(got)):
        ref = REF[name](*[mp.mpf(float(v[i])) for v in xs])
        with np.errstate(over="ignore"):
            rf = got.dtype.type(float(ref))
        if not np.isfinite(rf):
            if got[i] != rf:
                return float("inf")
            continue
        ulp = float(np.spacing(abs(rf))) if rf != 0 else float(np.spacing(got.dtype.type(0)))
        worst = max(worst, float(abs(mp.mpf(float(got[i])) - ref) / ulp))
    return worst


def _f32_domain(name: str) -> str:
    bounds = {"exp": "[-87, 88]", "exp2": "[-126, 127]", "sinh": "[-88, 88]", "cosh": "[-88, 88]"}
    kind = DOMAINS[name][1]
    if kind in ("pos", "wide"):
        return DOMAINS[name][0].replace("1e-300", "1.8e-35").replace("1e300", "5.5e34")
    return bounds.get(name, DOMAINS[name][0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="200 samples, three functions")
    ap.add_argument("--n", type=int, default=20000, help="samples per function")
    ap.add_argument("--lavapipe", action="store_true", help="also run the GLSL f64 routines on vulkan-glsl:0")
    ap.add_argument("--only", default="", help="comma-separated function names")
    a = ap.parse_args()
    n = 200 if a.quick else a.n
    only = set(a.only.split(",")) - {""} or ({"exp", "log", "sin"} if a.quick else set())
    rng = np.random.default_rng(2026)
    glsl = set(polyfilled_functions("glsl", "f64"))
    head = "| type | function | domain | samples | max ulp (interp = PTX = pocl bits) |"
    print(head + (" max ulp GLSL on lavapipe |" if a.lavapipe else ""))
    print("|" + "---|" * (head.count("|") - 1 + a.lavapipe))
    for t, dt, key in ((f64, np.float64, "f64"), (f32, np.float32, "f32")):
        for name in polyfilled_functions("ptx", key):
            if only and name not in only:
                continue
            xs = samples(name, n, dt, rng)
            m = elementwise(name, t)
            ExpandMathPass(target="ptx").apply(make_context(), m)
            err = max_ulp(name, xs, run(m, "interp", xs))
            dom = DOMAINS[name][0] if key == "f64" else _f32_domain(name)
            row = f"| {key} | {name} | {dom} | {n} | {err:.2f} |"
            if a.lavapipe:
                lav = max_ulp(name, xs, run(elementwise(name, t), "vulkan-glsl:0", xs)) \
                    if key == "f64" and name in glsl else None
                row += f" {lav:.2f} |" if lav is not None else " (native) |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
