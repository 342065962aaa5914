"""Float expressions (exact or inexact, clamped), math intrinsics, conditions and helper calls."""

from __future__ import annotations

from sarek.testing.gen.features import EXACT_FLOAT, FB_MAX, FCLAMP, NARROW_FLOATS, STORE, FE, Helper
from sarek.testing.gen.ints import IntExprs


class FloatExprs(IntExprs):
    """Float expressions: exact ones (quarter-integers through + - * min max abs floor, never rounded) and inexact
    ones (`/`, math on safe domains) clamped to +-FCLAMP; conditions; calls of the `@device` helpers."""

    def flit(self, ty: str) -> FE:
        r = self.r
        v = r.choice([0.0, 0.5, 1.0, 1.5, 2.0, -0.25, -1.0, -3.5, 7.0, -7.0, 0.75, 100.0])
        text = repr(v)
        if r.random() < 0.15:  # the negative-literal / cast shapes of issue 21
            iv = r.choice([7, -7, 3, -2])
            text, v = (f"-{ty}({iv})", -float(iv)) if r.random() < 0.5 else (f"{ty}({iv})", float(iv))
            return FE(text, ty, True, 0, abs(v))
        if v < 0 and r.random() < 0.3:
            text, v = f"-({v!r})", -v
        if ty == "f64" and r.random() < 0.5:
            return FE(f"f64({text})", ty, True, 2, abs(v))
        return FE(text, ty, True, 2, abs(v), lit=True)

    def fleaf(self, ty: str) -> FE:
        r = self.r
        if "boolcast" in self.feats:
            c = self.corner_fleaf(ty)
            if c is not None:
                return c
        if "consts" in self.feats and not self.in_helper and not self.in_a2 and self.p33.random() < 0.15:
            return self.table_fleaf(ty)
        if "nptab" in self.feats and not self.in_helper and not self.in_a2 and self.npt.random() < 0.15:
            return self.np_fleaf(ty)
        opts: list[FE] = []
        for v in self.vars:
            if v.ty == ty:
                opts.append(FE(v.name, ty, v.exact, FB_MAX if v.exact else 0, 256.0 if v.exact else FCLAMP))
        if not self.in_helper and r.random() < 0.6:
            src = "af" if ty == "f32" else "ad"
            idx = self.index(self.iexpr("i32", 1)) if r.random() < 0.6 else "i"
            opts.append(FE(f"{src}[{idx}]", ty, True, 2, 8.0))
        if "views" in self.feats and not self.in_helper and not self.in_view and ty == "f32" \
                and self.vw.random() < 0.3:
            opts.append(self.fview())
        if self.p_ready and not self.in_helper and ty == "f32" and r.random() < 0.3:
            opts.append(FE("p.b", ty, False, 0, FCLAMP))
        if r.random() < 0.2:
            e = self.store(self.iexpr(self.r.choice(self.int_types), 1))
            lim = 2**24 if ty == "f32" else 2**53
            if e.mag <= min(lim, STORE["i32"]):
                opts.append(FE(f"{ty}({self.typed(e).text})", ty, True, 0, float(e.mag)))
        if self.zn and self.narrow in NARROW_FLOATS and not self.in_helper and ty == "f32" and r.random() < 0.4:
            opts.append(FE(f"f32({self.zn})", ty, True, FB_MAX, 256.0))
        if r.random() < 0.25 or not opts:
            return self.flit(ty)
        return r.choice(opts)

    def fview(self) -> FE:
        """Feature "views" (its own stream): `<kernel>_view(w, k)` (`decls.Gen.view_helper`: w[k:][0] + w[k] / 2 +
        len(w[k:])) of an offset view of `af` starting below n - 4, or of a choice between one and `af` itself,
        with k < 4: every index is within `af`, the value exact."""
        v = self.vw
        self.in_view = True  # its index and condition hold no view call (no recursion)
        start = self.index(self.iexpr("i32", 1), "(n - 4)")
        view = f"af[{start}:]"
        if v.random() < 0.4:
            view = f"({view} if {self.bexpr(1)} else af)" if v.random() < 0.5 else f"(af if {self.bexpr(1)} else {view})"
        self.in_view = False
        return FE(f"fz{self.seed}_view({view}, {v.randrange(4)})", "f32", True, 3, 12.0 + self.n)

    def fclamp(self, e: FE, lim: float = FCLAMP) -> FE:
        if e.bound <= lim:
            return e
        self.imports.add("sm")
        e = self.ftyped(e)
        return FE(f"sm.fmin(sm.fmax({e.text}, -{lim!r}), {lim!r})", e.ty, e.exact, e.fb, lim)

    def exactness(self, e: FE) -> FE:
        if e.exact and (e.fb > 12 or e.bound * 2.0**e.fb > EXACT_FLOAT[e.ty]):
            e.exact = False
        return e

    def fexpr(self, ty: str, depth: int, need_exact: bool = False) -> FE:
        """A float expression; with need_exact, an exact one (or a literal when that fails)."""
        for _ in range(4):
            e = self._fexpr(ty, depth, need_exact)
            if e.exact or not need_exact:
                return e
        return self.flit(ty)

    def _fexpr(self, ty: str, depth: int, ex: bool) -> FE:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.fleaf(ty)
        if "vec" in self.feats and ty == "f32" and not ex and self.v33.random() < 0.2:
            return self.fvec(depth)
        if "vecx" in self.feats and ty == "f32" and not ex and self.vx.random() < 0.2:
            return self.fvecx(depth)
        if "infs" in self.feats and self.p33.random() < 0.1:
            return self.inf_fexpr(ty, self._fexpr(ty, depth - 1, ex))
        k = r.random()
        if k < 0.40:
            op = r.choice(["+", "-", "*"])
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            a, b = self.fclamp(a, 1e4), self.fclamp(b, 1e4)
            if a.lit and b.lit:
                a = self.ftyped(a)
            if op == "*":
                return self.exactness(FE(f"({a.text} * {b.text})", ty, a.exact and b.exact, a.fb + b.fb, a.bound * b.bound))
            return self.exactness(FE(f"({a.text} {op} {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), a.bound + b.bound))
        if k < 0.48:
            a = self.fexpr(ty, depth - 1, ex)
            if r.random() < 0.5:
                return FE(f"(-{a.text})", ty, a.exact, a.fb, a.bound, a.lit)
            return FE(f"abs({self.ftyped(a).text})", ty, a.exact, a.fb, a.bound)
        if k < 0.54:
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            if a.lit and b.lit:
                a = self.ftyped(a)
            f = r.choice(["min", "max", "sm.fmin", "sm.fmax"])
            if f.startswith("sm."):
                self.imports.add("sm")
            return FE(f"{f}({a.text}, {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), max(a.bound, b.bound))
        if k < 0.60:
            c = self.bexpr(depth - 1)
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            if a.lit and b.lit:
                a = self.ftyped(a)
            return FE(f"({a.text} if {c} else {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), max(a.bound, b.bound))
        if k < 0.68 and not ex:
            a, b = self.fexpr(ty, depth - 1), self.fexpr(ty, depth - 1)
            a = self.ftyped(a)
            return FE(f"({a.text} / (abs({self.ftyped(b).text}) + 1.0))", ty, False, 0, a.bound)
        if k < 0.78 and "math" in self.feats:
            return self.fmath(ty, depth, ex)
        if k < 0.84 and "floatops" in self.feats:
            a = self.fclamp(self.fexpr(ty, depth - 1, True), 1e4)
            b = self.fclamp(self.fexpr(ty, depth - 1, True), 1e4)
            if a.exact and b.exact:
                a = self.ftyped(a)
                op = r.choice(["//", "%"])
                if op == "//":
                    return self.floordiv(a, self.ftyped(b))
                return FE(f"({a.text} % (abs({self.ftyped(b).text}) + 1.0))", ty, True, max(a.fb, b.fb), a.bound)
        if k < 0.90:
            other = [t for t in self.float_types if t != ty]
            if other and r.random() < 0.5:
                # an inexact f32 carries f32 rounding (a device's `/` and math may differ by ulps) that f64's
                # tolerance does not cover: only exact f32 values are widened (fuzz seed 700150 on interp-div)
                a = self.fexpr(other[0], depth - 1, ex or ty == "f64")
                exact = a.exact and (ty == "f64" or a.bound * 2.0**a.fb <= EXACT_FLOAT["f32"])
                return FE(f"{ty}({self.ftyped(a).text})", ty, exact, a.fb, a.bound)
            e = self.store(self.iexpr(r.choice(self.int_types), depth - 1))
            return FE(f"{ty}({self.typed(e).text})", ty, True, 0, float(e.mag))
        if k < 0.95 and self.helpers:
            h = r.choice(self.helpers)
            if h.ret == ty:
                return FE(self.call(h), ty, False, 0, FCLAMP)
        if "bitcast" in self.feats and not ex and ty == "f32" and r.random() < 0.3:
            # any 23 fraction bits under the exponent of 1.0: a normal float in [1, 2)
            self.uses_sarek = True
            e = self.typed(self.iexpr("i32", depth - 1))
            return FE(f"sarek.bitcast(({e.text} & 8388607) | 1065353216, f32)", ty, False, 0, 2.0)
        return self.fleaf(ty)

    def floordiv(self, a: FE, b: FE) -> FE:
        """Float `x // d` (`trunc(x / d)`) with a quotient a division within 2.5 ulp cannot move across an
        integer (NVIDIA's OpenCL and Vulkan f32 `/` is not correctly rounded: `8.25 // 8.25` gave 0 there, seeds
        500005 and 600207): x = (floor(a) + f) * d is exact, so x / d is k + f, a quarter or more from the
        next integer (f one of 1/4, 1/2, 3/4); d is abs(b) + 1.0, a power of two, or `1 << k` at run time."""
        r, ty = self.r, a.ty
        k = r.random()
        if k < 0.5:
            d, dfb, dmax = f"(abs({b.text}) + 1.0)", b.fb, b.bound + 1.0
        elif k < 0.75:
            v = r.choice([0.25, 0.5, 2.0, 4.0, 8.0, -2.0, -0.5])
            d, dfb, dmax = (repr(v) if v > 0 else f"({v!r})"), 2, abs(v)
        else:
            e = self.typed(self.store(self.iexpr("i32", 1)))
            d, dfb, dmax = f"{ty}(1 << (abs({e.text}) % 4))", 0, 8.0
        f = r.choice([0.25, 0.5, 0.75])
        if dfb > FB_MAX or (a.bound + 2.0) * dmax * 2.0 ** (dfb + 2) > EXACT_FLOAT[ty]:
            a = self.flit(ty)
        self.imports.add("sm")
        return FE(f"(((sm.floor({self.ftyped(a).text}) + {f!r}) * {d}) // {d})", ty, True, 0, a.bound + 1)

    def fmath(self, ty: str, depth: int, ex: bool) -> FE:
        r = self.r
        self.imports.add("sm")
        a = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1, ex), 1e4))
        if ex:
            f = r.choice(["floor", "ceil", "trunc", "fabs"])
            if a.exact:
                return FE(f"sm.{f}({a.text})", ty, True, 0 if f != "fabs" else a.fb, a.bound + 1)
            return self.flit(ty)
        if "fclass" in self.feats and self.i33.random() < 0.3:
            return self.fclass(ty, a)
        if a.exact and r.random() < 0.3:
            f = r.choice(["floor", "ceil", "trunc", "round"])
            return FE(f"sm.{f}({a.text})", ty, True, 0, a.bound + 1)
        f = r.choice(["sqrt", "exp", "log", "sin", "cos", "atan", "tanh", "asin", "acos", "fma", "sinh", "atan2",
                      "hypot", "pow"])
        if f in ("asin", "acos", "atan", "atan2", "sinh"):
            self.uses_lowprec = True
        if f == "sqrt":
            return FE(f"sm.sqrt(abs({a.text}))", ty, False, 0, max(1.0, a.bound ** 0.5))
        if f == "exp":
            return FE(f"sm.exp(sm.fmin(sm.fmax({a.text}, -4.0), 4.0))", ty, False, 0, 55.0)
        if f == "sinh":
            return FE(f"sm.sinh(sm.fmin(sm.fmax({a.text}, -3.0), 3.0))", ty, False, 0, 11.0)
        if f == "log":
            return FE(f"sm.log(abs({a.text}) + 1.0)", ty, False, 0, 10.0)
        if f in ("asin", "acos"):
            return FE(f"sm.{f}(sm.fmin(sm.fmax({a.text}, -0.9), 0.9))", ty, False, 0, 3.2)
        if f in ("atan2", "hypot"):
            b = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 1e4))
            if f == "atan2":  # away from the branch cut: x > 0
                return FE(f"sm.atan2({a.text}, abs({b.text}) + 0.5)", ty, False, 0, 3.2)
            return FE(f"sm.hypot({a.text}, {b.text})", ty, False, 0, a.bound + b.bound)
        if f == "pow":
            return FE(f"sm.pow(abs(sm.fmin(sm.fmax({a.text}, -4.0), 4.0)) + 1.0, 2.0)", ty, False, 0, 25.0)
        if f == "fma":
            b = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 100.0))
            c = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 100.0))
            a = self.fclamp(a, 100.0)
            return FE(f"sm.fma({a.text}, {b.text}, {c.text})", ty, False, 0, a.bound * b.bound + c.bound)
        return FE(f"sm.{f}({a.text})", ty, False, 0, min(a.bound, 1.6) if f == "atan" else 1.0)

    def fvec(self, depth: int) -> FE:
        """Feature "vec" (issue 33, its own stream): an f32 from short vectors: f32x2 / f32x4 built from clamped
        scalars, combined element-wise (+ - *, a scalar factor), then one lane read or their dot product."""
        v = self.v33
        n = v.choice([2, 4])
        vt = f"f32x{n}"
        self.types_used.add(vt)

        def vec() -> tuple[str, float]:
            parts = [self.ftyped(self.fclamp(self.fexpr("f32", depth - 1), 100.0)) for _ in range(n)]
            return f"{vt}({', '.join(p.text for p in parts)})", max(p.bound for p in parts)

        a, ba = vec()
        b, bb = vec()
        op = v.choice(["+", "-", "*", "scale"])
        if op == "scale":
            k = v.choice([0.5, 2.0, -1.5])
            text, bound = f"({a} * {k!r})", ba * abs(k)
        else:
            text, bound = f"({a} {op} {b})", ba * bb if op == "*" else ba + bb
        if v.random() < 0.3:
            return FE(f"sm.dot({text}, {a})", "f32", False, 0, n * bound * ba)
        return FE(f"{text}.{'xyzw'[v.randrange(n)]}", "f32", False, 0, bound)

    def fvecx(self, depth: int) -> FE:
        """Feature "vecx" (its own stream): an f32 from f32x3 (element-wise + - *, then cross, length, normalize
        away from zero, dot or a lane) or from f16x2 of integers in [-16, 15] (+ - *: every result is an integer
        below 2048 in magnitude, exact in f16), one lane widened to f32."""
        v = self.vx
        if v.random() < 0.5:
            self.types_used.add("f16x2")
            self.types_used.add("f16")

            def lane() -> str:
                e = self.typed(self.store(self.iexpr("i32", depth - 1)))
                return f"f16(abs({e.text}) % 32 - 16)"

            a, b = (f"f16x2({lane()}, {lane()})" for _ in range(2))
            op = v.choice(["+", "-", "*"])
            return FE(f"f32(({a} {op} {b}).{v.choice('xy')})", "f32", True, 0, 256.0)
        self.types_used.add("f32x3")

        def vec() -> tuple[str, float]:
            parts = [self.ftyped(self.fclamp(self.fexpr("f32", depth - 1), 100.0)) for _ in range(3)]
            return f"f32x3({', '.join(p.text for p in parts)})", max(p.bound for p in parts)

        (a, ba), (b, bb) = vec(), vec()
        op = v.choice(["+", "-", "*"])
        text, bound = f"({a} {op} {b})", ba * bb if op == "*" else ba + bb
        f = v.choice(["cross", "length", "normalize", "dot", "lane"])
        if f == "cross":
            return FE(f"sm.cross({text}, {a}).{v.choice('xyz')}", "f32", False, 0, 2 * bound * ba)
        if f == "length":
            return FE(f"sm.length({text})", "f32", False, 0, 2 * bound)
        if f == "normalize":  # |x| >= 1000 - 100 (a's lanes are within 100): never near zero length
            return FE(f"sm.normalize({a} + f32x3(1000.0, 0.0, 0.0)).{v.choice('xyz')}", "f32", False, 0, 1.0)
        if f == "dot":
            return FE(f"sm.dot({text}, {b})", "f32", False, 0, 3 * bound * bb)
        return FE(f"{text}.{v.choice('xyz')}", "f32", False, 0, bound)

    def fclass(self, ty: str, a: FE) -> FE:
        """Feature "fclass" (issue 33, its own stream): erf/erfc/atanh/lgamma on safe domains, clamp, a float
        class test of a computed (finite) value and frexp's parts, which are exact, and ldexp by a small power."""
        f = self.i33.choice(["erf", "erfc", "atanh", "clamp", "isnan", "isfinite", "lgamma", "ldexp", "frexp"])
        if f == "lgamma":  # x > 0 (lgamma crosses zero on the negative axis)
            return FE(f"sm.lgamma(sm.fmin(sm.fmax({a.text}, 0.25), 8.0))", ty, False, 0, 9.0)
        if f == "ldexp":
            k = self.i33.randint(-3, 3)
            return FE(f"sm.ldexp(sm.fmin(sm.fmax({a.text}, -64.0), 64.0), {k})", ty, False, 0, 64.0 * 2.0 ** k)
        if f == "frexp":
            part = self.i33.randint(0, 1)
            return FE(f"{ty}(sm.frexp({a.text})[{part}])", ty, True, 0, 1.0 if part == 0 else 1100.0)
        if f == "clamp":
            return FE(f"sm.clamp({a.text}, -2.0, 3.0)", ty, a.exact, a.fb, 3.0)
        if f in ("isnan", "isfinite"):
            return FE(f"{ty}(i32(sm.{f}({a.text})))", ty, True, 0, 1.0)
        if f == "atanh":
            return FE(f"sm.atanh(sm.fmin(sm.fmax({a.text}, -0.9), 0.9))", ty, False, 0, 1.5)
        return FE(f"sm.{f}(sm.fmin(sm.fmax({a.text}, -4.0), 4.0))", ty, False, 0, 2.0)

    def bexpr(self, depth: int) -> str:
        r = self.r
        if "infs" in self.feats and self.p33.random() < 0.12:
            return self.inf_cond(depth)
        k = r.random()
        if depth <= 0 or k < 0.45:
            if r.random() < 0.7 or "floatops" not in self.feats:
                ty = r.choice(self.int_types)
                a, b = self.iexpr(ty, max(depth - 1, 0)), self.iexpr(ty, max(depth - 1, 0))
                if a.lit and b.lit:
                    a = self.typed(a)
                op = r.choice(["<", "<=", ">", ">=", "==", "!="])
                if r.random() < 0.15:  # a chained comparison with a literal in the middle
                    lit = self.ilit("i32")
                    return f"({a.text} {op} {lit.text} {r.choice(['<', '<=', '!='])} {b.text})"
                return f"({a.text} {op} {b.text})"
            ty = r.choice(self.float_types)
            a, b = self.fexpr(ty, depth - 1, True), self.fexpr(ty, depth - 1, True)
            if a.lit and b.lit:
                a = self.ftyped(a)
            return f"({a.text} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {b.text})"
        if k < 0.65:
            return f"({self.bexpr(depth - 1)} {r.choice(['and', 'or'])} {self.bexpr(depth - 1)})"
        if k < 0.75:
            return f"(not {self.bexpr(depth - 1)})"
        if k < 0.8:
            return r.choice(["True", "False"])
        return self.bexpr(0)

    def call(self, h: Helper) -> str:
        args: list[str] = []
        for _, ty in h.params:
            if ty in ("i32", "i64"):
                args.append(self.typed(self.store(self.iexpr(ty, 1))).text)
            else:
                args.append(self.ftyped(self.fclamp(self.fexpr(ty, 1))).text)
        return f"{h.name}({', '.join(args)})" + ("[0]" if h.second else "")
