"""The native-math table: which math intrinsics each target computes itself, per (function, type).

Beside the capability table (sarek/analysis/features.py), read from each target's descriptor
(sarek.descriptor: `polyfilled`, `fast`): a (target, type, function) listed in `POLYFILLED`
is computed by a routine of the sarek math library (sarek/mathlib), expanded into sarek IR by
`sarek-expand-math`. Everything else the target spells natively (C-family libm, GLSL/WGSL builtins, PTX instructions in sarek/targets/ptx/mathlib.py).
"""

from __future__ import annotations

from xdsl.ir import Attribute

from sarek.dialect.scalars import float_name
from sarek.registry import TARGETS
from sarek.descriptor import Polyfill

# views of the target descriptors (sarek.descriptor: `polyfilled`, `fast`), kept for their readers:
# (target, type) -> function -> how it is computed when the target has no such function
POLYFILLED: dict[tuple[str, str], dict[str, Polyfill]] = {
    (n, k): dict(fns) for n, t in TARGETS.items() for k, fns in t.polyfilled.items()}
#: at the default floating-point policy (fp=default): (target, type) -> function -> the single-precision routine
#: (sarek/mathlib/fast32.py, CUDA's accuracy at f32 speed) used instead of POLYFILLED's f64-core one
FAST: dict[tuple[str, str], dict[str, Polyfill]] = {
    (n, k): dict(fns) for n, t in TARGETS.items() for k, fns in t.fast.items()}
#: at fp=default: (target, type) -> the functions the target's approximate instructions compute (PTX's f32 exp2
#: is `ex2.approx.f32`, as CUDA's exp2f), left as intrinsics for its lowering
HARDWARE: dict[tuple[str, str], frozenset[str]] = {
    (n, k): fns for n, t in TARGETS.items() for k, fns in t.hardware.items()}


def math_support(target: str, name: str, t: Attribute, fp: str = "exact") -> Polyfill | None:
    """None when `target` spells intrinsic `name` on type `t` itself; else the library routine (every float
    math intrinsic is computed on every target that has the type: none is refused). At `fp="default"` the
    target's HARDWARE approximation, else a FAST routine, wins over the f64-core one."""
    key = float_name(t)
    if key is None:
        return None
    if fp == "default":
        if name in HARDWARE.get((target, key), frozenset()):
            return None
        fast = FAST.get((target, key), {}).get(name)
        if fast is not None:
            return fast
    return POLYFILLED.get((target, key), {}).get(name)


def polyfilled_functions(target: str, type_key: str, width: int | None = None) -> list[str]:
    """The intrinsics computed by the library on `target` for type `type_key` (f16, f32, f64), sorted;
    `width`: only those whose routine runs at that width."""
    table = POLYFILLED.get((target, type_key), {})
    return sorted(n for n, p in table.items() if width is None or p.width == width)
