"""The native-math table: which math intrinsics each target computes itself, per (function, type).

Beside the capability table (sarek/analysis/features.py): a (target, type, function) listed in `POLYFILLED`
is computed by a routine of the sarek math library (sarek/mathlib), expanded into sarek IR by
`sarek-expand-math`; one listed in `REFUSED` is refused there, with its reason. Everything else the target
spells natively (C-family libm, GLSL/WGSL builtins, PTX instructions in sarek/targets/ptx/mathlib.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute

# the library's routines that stand for an intrinsic of the same name (pow has only a narrow form)
_TRANSCENDENTAL = ("sin cos tan asin acos atan atan2 sinh cosh tanh exp exp2 log log2 log10 cbrt expm1 "
                   "log1p").split()


def _type_key(t: Attribute) -> str | None:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    return "f64" if isinstance(t, Float64Type) else None


@dataclass(frozen=True)
class Polyfill:
    """The intrinsic is computed by library routine `routine` in double precision (narrower types are
    widened exactly, then rounded back: f16 through f32, as the f16 storage rule says)."""

    routine: str


@dataclass(frozen=True)
class Refusal:
    reason: str


_PTX = {n: Polyfill(n) for n in (*_TRANSCENDENTAL, "hypot")}
_PTX_NARROW = _PTX | {"pow": Polyfill("pow_narrow")}

# (target, type) -> function -> how it is computed when the target has no such function
POLYFILLED: dict[tuple[str, str], dict[str, Polyfill]] = {
    # PTX has no math library at all: every transcendental is the library's, f32 and f16 through double
    ("ptx", "f16"): _PTX_NARROW,
    ("ptx", "f32"): _PTX_NARROW,
    ("ptx", "f64"): _PTX,
    # GLSL's transcendental builtins are float-only (GL_ARB_gpu_shader_fp64 has sqrt, fma, floor ... only)
    ("glsl", "f64"): {n: Polyfill(n) for n in _TRANSCENDENTAL},
}

_NO_POW = ("the sarek math library has no double-precision pow accurate to 2 ulp yet (it needs log in "
           "double-double); use the cuda or opencl device for f64 pow")
REFUSED: dict[tuple[str, str], dict[str, Refusal]] = {
    ("ptx", "f64"): {"pow": Refusal(_NO_POW),
                     "fmod": Refusal("PTX's fmod loop is exact for f32 operands only")},
    ("glsl", "f64"): {"pow": Refusal(_NO_POW)},
}


#: at the default floating-point policy (fp=default): (target, type) -> function -> the single-precision routine
#: (sarek/mathlib/fast32.py, CUDA's accuracy at f32 speed) used instead of POLYFILLED's f64-core one
FAST: dict[tuple[str, str], dict[str, Polyfill]] = {
    ("ptx", "f32"): {n: Polyfill(f"{n}_f32") for n in ("exp", "exp2", "log", "log2", "log10", "sin", "cos")},
}


def math_support(target: str, name: str, t: Attribute, fp: str = "exact") -> Polyfill | Refusal | None:
    """None when `target` spells intrinsic `name` on type `t` itself; else the routine or the refusal. At
    `fp="default"` a FAST routine wins over the f64-core one."""
    key = _type_key(t)
    if key is None:
        return None
    if fp == "default":
        fast = FAST.get((target, key), {}).get(name)
        if fast is not None:
            return fast
    refused = REFUSED.get((target, key), {}).get(name)
    if refused is not None:
        return refused
    return POLYFILLED.get((target, key), {}).get(name)


def polyfilled_functions(target: str, type_key: str) -> list[str]:
    """The intrinsics computed by the library on `target` for type `type_key` (f16, f32, f64), sorted."""
    return sorted(POLYFILLED.get((target, type_key), {}))
