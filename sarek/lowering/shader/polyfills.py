"""Helper functions the lowering emits: math polyfills (`sarek_<fn>`); the in-range warp shuffle (its lane guard
is sarek-lower-warp's helper)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Attribute, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.declarations import Declarations
from sarek.lowering.shader.language import err
from sarek.lowering.shader.layout import int_width
from sarek.passes.lower_warp import IN_RANGE


class Polyfills(Declarations):
    """Math polyfills, declared once per (name, type); the in-range warp shuffle."""

    def need_poly(self, name: str, t: Attribute) -> str:
        """Declare a polyfill helper for type t; returns its name."""
        g = self.lang.glsl
        T = self.ty(t)
        key = f"{name}:{T}"
        fname = f"sarek_{name}"
        if key in self.polyfills:
            return fname
        one = "1.0" if g else "1.0f"
        if isinstance(t, Float64Type):
            one = "1.0lf"
        half = {"float": "0.5", "double": "0.5lf", "f32": "0.5f"}.get(T, "0.5")
        zero = {"float": "0.0", "double": "0.0lf", "f32": "0.0f"}.get(T, "0.0")
        # hypot scales by the larger magnitude (x * x overflows from 1.9e19 in f32); expm1 and log1p use series
        # near 0 (exp(x) - 1 and log(1 + x) lose every digit there); pow takes C's sign for a negative base and an
        # integer exponent, and 1 for y == 0 or x == 1 (GLSL/WGSL pow is undefined for x <= 0)
        hyp = [f"{T} ax = abs(x)", f"{T} ay = abs(y)", f"{T} m = max(ax, ay)", f"{T} r = min(ax, ay) / m"] if g else \
            ["let ax = abs(x)", "let ay = abs(y)", "let m = max(ax, ay)", "let r = min(ax, ay) / m"]
        sfx = "" if g else "f"  # expm1/log1p/pow are f32 only (f64 transcendental functions are refused)

        def horner(v: str, coeffs: list[float]) -> str:
            out = f"{coeffs[-1]!r}{sfx}"
            for c in reversed(coeffs[:-1]):
                out = f"({c!r}{sfx} + {v} * {out})"
            return out

        # near 0: Taylor series (the drivers' exp and log are only absolutely accurate around 1, so Kahan's
        # corrections do not help); log1p through 2 atanh(x / (2 + x))
        em1_poly = f"x * {horner('x', [1.0 / math.factorial(k) for k in range(1, 11)])}"
        l1p_poly = f"2.0{sfx} * s * {horner('s2', [1.0 / (2 * k + 1) for k in range(9)])}"
        if g:
            bodies = {
                "irem": (f"{T} sarek_irem({T} a, {T} b)", [f"return a - b * (a / b)"]),
                "iabs": (f"{T} sarek_iabs({T} x)", ["return (x < 0L) ? -x : x"]),
                "fmod": (f"{T} sarek_fmod({T} x, {T} y)", ["return x - y * trunc(x / y)"]),
                "hypot": (f"{T} sarek_hypot({T} x, {T} y)",
                          [*hyp, f"return (m == {zero} || isinf(m)) ? m : m * sqrt({one} + r * r)"]),
                "expm1": (f"{T} sarek_expm1({T} x)", [f"return (abs(x) > {half}) ? exp(x) - {one} : {em1_poly}"]),
                "log1p": (f"{T} sarek_log1p({T} x)",
                          [f"{T} s = x / (2.0 + x)", f"{T} s2 = s * s",
                           f"return (abs(x) > {half}) ? log({one} + x) : {l1p_poly}"]),
                "pow": (f"{T} sarek_pow({T} x, {T} y)",
                        [f"{T} ax = abs(x)", "bool yint = trunc(y) == y",
                         f"bool yodd = yint && fract(y * {half}) != {zero}",
                         f"{T} r = (ax == {zero}) ? ((y < {zero}) ? uintBitsToFloat(0x7f800000u) : {zero}) : pow(ax, y)",
                         f"r = (x < {zero} && yodd) ? -r : r",
                         f"r = (x < {zero} && !yint) ? uintBitsToFloat(0x7fc00000u) : r",
                         f"return (y == {zero} || x == {one}) ? {one} : r"]),
                "cbrt": (f"{T} sarek_cbrt({T} x)", [f"return sign(x) * pow(abs(x), {one} / 3.0)"]),
                "round": (f"{T} sarek_round({T} x)", ["%s t = trunc(x)" % T,
                                                       f"return (abs(x - t) >= {half}) ? t + sign(x) : t"]),
                "copysign": (f"{T} sarek_copysign({T} x, {T} y)",
                             ["return uintBitsToFloat((floatBitsToUint(x) & 0x7fffffffu) | (floatBitsToUint(y) & 0x80000000u))"]
                             if T == "float" else ["return (sign(y) < 0.0lf || (y == 0.0lf && 1.0lf / y < 0.0lf)) ? -abs(x) : abs(x)"]),
            }
        else:
            bodies = {
                "irem": (f"fn sarek_irem(a : {T}, b : {T}) -> {T}", ["return a - b * (a / b)"]),
                "fmod": (f"fn sarek_fmod(x : {T}, y : {T}) -> {T}", ["return x - y * trunc(x / y)"]),
                "hypot": (f"fn sarek_hypot(x : {T}, y : {T}) -> {T}",
                          [*hyp, f"return select(m * sqrt({one} + r * r), m, m == {zero})"]),
                "expm1": (f"fn sarek_expm1(x : {T}) -> {T}",
                          [f"if (abs(x) > {half}) {{ return exp(x) - {one}; }}", f"return {em1_poly}"]),
                "log1p": (f"fn sarek_log1p(x : {T}) -> {T}",
                          [f"if (abs(x) > {half}) {{ return log({one} + x); }}", f"let s = x / (2.0f + x)",
                           "let s2 = s * s", f"return {l1p_poly}"]),
                "pow": (f"fn sarek_pow(x : {T}, y : {T}) -> {T}",
                        ["let ax = abs(x)", "let yint = trunc(y) == y",
                         f"let yodd = yint && fract(y * {half}) != {zero}",
                         f"if (y == {zero} || x == {one}) {{ return {one}; }}",
                         f"if (ax == {zero}) {{ return select({zero}, {one} / ax, y < {zero}); }}",
                         "let r = pow(ax, y)",
                         f"if (x < {zero} && !yint) {{ return pow(x, y); }}",
                         f"return select(r, -r, x < {zero} && yodd)"]),
                "cbrt": (f"fn sarek_cbrt(x : {T}) -> {T}", [f"return sign(x) * pow(abs(x), {one} / 3.0f)"]),
                "round": (f"fn sarek_round(x : {T}) -> {T}", [f"let t : {T} = trunc(x)",
                                                                 f"return select(t, t + sign(x), abs(x - t) >= {half})"]),
                "copysign": (f"fn sarek_copysign(x : {T}, y : {T}) -> {T}",
                             ["return bitcast<f32>((bitcast<u32>(x) & 0x7fffffffu) | (bitcast<u32>(y) & 0x80000000u))"]),
            }
        sig, body = bodies[name]
        f = self.O["func"](sig)
        for s in body:
            f.regions[0].block.add_op(self.O["stmt"](s))
        self.polyfills[key] = [f]
        return fname

    def use_subgroups(self, op: Operation, shuffle: bool) -> None:
        self.uses_subgroup = True
        self.features.add("subgroup")
        if self.lang.glsl:
            if "#extension GL_KHR_shader_subgroup_basic : require" not in self.extensions:
                self.extensions.append("#extension GL_KHR_shader_subgroup_basic : require")
            if shuffle and "#extension GL_KHR_shader_subgroup_shuffle : require" not in self.extensions:
                self.extensions.append("#extension GL_KHR_shader_subgroup_shuffle : require")

    def warp_shuffle(self, op: S.IntrinsicOp, v: str, src: str) -> str:
        """The in-range absolute shuffle `sarek-lower-warp` leaves in its helpers (the lane guard is its
        business): `subgroupShuffle` with the lane converted to unsigned; any other shuffle is refused."""
        name = op.callee.data
        if name != "warp_shuffle" or IN_RANGE not in op.attributes:
            raise err(f"'{name}' must be lowered by sarek-lower-warp before the {self.lang.name} lowering", op,
                      self.lang)
        t = op.result.type
        if not (isinstance(t, Float32Type) or (int_width(t) == 32)
                or (self.lang.glsl and isinstance(t, Float64Type))):
            raise err(f"'{name}' on {t} is not supported on {self.lang.name}", op, self.lang)
        self.use_subgroups(op, shuffle=True)
        return f"subgroupShuffle({v}, {'uint' if self.lang.glsl else 'u32'}({src}))"
