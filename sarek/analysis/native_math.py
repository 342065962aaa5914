"""The native-math table: which math intrinsics each target computes itself, per (function, type).

Beside the capability table (sarek/analysis/features.py): a (target, type, function) listed in `POLYFILLED`
is computed by a routine of the sarek math library (sarek/mathlib), expanded into sarek IR by
`sarek-expand-math`. Everything else the target spells natively (C-family libm, GLSL/WGSL builtins, PTX instructions in sarek/targets/ptx/mathlib.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute

from sarek.dialect.scalars import float_name

# the library's routines that stand for an intrinsic of the same name (pow has only a narrow form)
_TRANSCENDENTAL = ("sin cos tan asin acos atan atan2 sinh cosh tanh exp exp2 log log2 log10 cbrt expm1 "
                   "log1p").split()


@dataclass(frozen=True)
class Polyfill:
    """The intrinsic is computed by library routine `routine` at `width` bits (narrower types are widened
    exactly, then rounded back: f16 through f32, as the f16 storage rule says)."""

    routine: str
    width: int = 64


_PTX = {n: Polyfill(n) for n in (*_TRANSCENDENTAL, "hypot")}
_PTX_NARROW = _PTX | {"pow": Polyfill("pow_narrow")}
# C functions GLSL and WGSL spell differently or not at all (round halves to even or either way there, fmod
# is x - y trunc(x / y), pow is undefined for x <= 0); in f32, through the target's own exp/log/pow
_EXACT = ("fmod", "round", "copysign")
_SHADER_F32 = {n: Polyfill(n, 32) for n in _EXACT} | {
    "expm1": Polyfill("expm1_via_exp", 32), "log1p": Polyfill("log1p_via_log", 32),
    "pow": Polyfill("pow_via_pow", 32), "cbrt": Polyfill("cbrt_via_pow", 32),
    "hypot": Polyfill("hypot_scaled", 32)}
# Metal's standard library has fmod, round, copysign and pow, not these
_METAL_F32 = {n: _SHADER_F32[n] for n in ("expm1", "log1p", "cbrt", "hypot")}

# (target, type) -> function -> how it is computed when the target has no such function
POLYFILLED: dict[tuple[str, str], dict[str, Polyfill]] = {
    # PTX has no math library at all: every transcendental is the library's, f32 and f16 through double
    ("ptx", "f16"): _PTX_NARROW,
    ("ptx", "f32"): _PTX_NARROW,
    ("ptx", "f64"): _PTX | {n: Polyfill(n) for n in ("pow", "fmod")},
    # GLSL's transcendental builtins are float-only (GL_ARB_gpu_shader_fp64 has sqrt, fma, floor ... only)
    ("glsl", "f64"): {n: Polyfill(n) for n in (*_TRANSCENDENTAL, "hypot", "pow", *_EXACT)},
    ("glsl", "f32"): _SHADER_F32,
    ("glsl", "f16"): _SHADER_F32,
    ("wgsl", "f32"): _SHADER_F32,
    ("wgsl", "f16"): _SHADER_F32,
    ("metal", "f32"): _METAL_F32,
}


#: at the default floating-point policy (fp=default): (target, type) -> function -> the single-precision routine
#: (sarek/mathlib/fast32.py, CUDA's accuracy at f32 speed) used instead of POLYFILLED's f64-core one
FAST: dict[tuple[str, str], dict[str, Polyfill]] = {
    ("ptx", "f32"): {n: Polyfill(f"{n}_f32", 32) for n in ("exp", "exp2", "log", "log2", "log10", "sin", "cos")},
}


def math_support(target: str, name: str, t: Attribute, fp: str = "exact") -> Polyfill | None:
    """None when `target` spells intrinsic `name` on type `t` itself; else the library routine (every float
    math intrinsic is computed on every target that has the type: none is refused). At `fp="default"` a
    FAST routine wins over the f64-core one."""
    key = float_name(t)
    if key is None:
        return None
    if fp == "default":
        fast = FAST.get((target, key), {}).get(name)
        if fast is not None:
            return fast
    return POLYFILLED.get((target, key), {}).get(name)


def polyfilled_functions(target: str, type_key: str, width: int | None = None) -> list[str]:
    """The intrinsics computed by the library on `target` for type `type_key` (f16, f32, f64), sorted;
    `width`: only those whose routine runs at that width."""
    table = POLYFILLED.get((target, type_key), {})
    return sorted(n for n, p in table.items() if width is None or p.width == width)
