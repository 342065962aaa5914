"""Issue 34's shapes (the fourth feature stream, features.CORNER_FEATURES): what held-out kernels found silent
bugs with and the generator never wrote. Each has a documented result every device must give:
- "zeroinit" / "zeroshared": a local (1-D or 2-D) / shared array slot read before anything wrote it is 0
  (docs/KERNELS.md: "Slots start at zero"); shared slots are read by their own thread before its write (no
  race), and a neighbour's after a barrier where only some threads wrote theirs.
- "tiling": `acc[ti * C + tj] += e` (or `acc[ti, tj] += e`) in a fresh local array inside
  `for o in range(K): for ti in range(R): for tj in range(C):`, folded into the outputs afterwards (the
  register-tiled SGEMM's accumulator: it relies on the zeros too).
- "boolcast": `T(cond)` for every integer type T and the float types, `u32(abs(e) % 1009) ^ u32(cond)` (the
  bitonic sort's direction bit), `-T(cond)`.
- "f2i": `T(ax[k])` of F2I_VALUES (out of every type's range, inf, NaN, fractions): saturates to T's range, NaN
  gives 0, a fraction truncates toward zero; 32/64-bit results are reduced modulo a prime so every bit counts.
- "intmin": `INT_MIN // -1` is INT_MIN (it wraps) and `INT_MIN % -1` is 0, on run-time operands (`ac`, `acl`)
  and on constants (folded by the canonicalizer).
- "streams" (a second kernel, `stream_kernel`) and "bigblock" (features.GenBase) are launch shapes.
"""

from __future__ import annotations

from sarek.testing.gen.features import FB_MAX, FCLAMP, FE, I32_MAX, I64_MAX, IE, INT_TYPES, STORE, Var
from sarek.testing.gen.stmts import Statements

#: each narrow integer type's range (the value of a saturated conversion)
_RANGE = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767), "u16": (0, 65535),
          "i32": (-I32_MAX - 1, I32_MAX)}
#: the prime the 32/64-bit conversion results are reduced by (every saturated value leaves a distinct residue)
_P = 1000003


class Corners(Statements):
    """The expressions, local/shared-array stages and second kernel of issue 34's shapes."""

    in_corner = False  # building a corner expression's operands (no corner expression nests in another)

    def _int_types(self) -> tuple[str, ...]:
        """The cast targets: 64-bit ones only in kernels that use i64 already (WGSL has none)."""
        return INT_TYPES if "i64" in self.feats else tuple(t for t in INT_TYPES if t not in ("i64", "u64"))

    def corner_ileaf(self, ty: str) -> IE | None:
        r = self.r
        if self.in_corner or r.random() >= 0.15:
            return None
        kinds = [f for f in ("boolcast", "f2i", "intmin") if f in self.feats and (f == "boolcast" or not self.in_helper)]
        if not kinds:
            return None
        kind = r.choice(kinds)
        self.in_corner = True
        try:
            return self.boolcast(ty) if kind == "boolcast" else self.f2i(ty) if kind == "f2i" else self.intmin(ty)
        finally:
            self.in_corner = False

    def corner_fleaf(self, ty: str) -> FE | None:
        r = self.r
        if self.in_corner or r.random() >= 0.1:
            return None
        self.in_corner = True
        try:
            c = self.bexpr(1)
        finally:
            self.in_corner = False
        self.shapes.add(f"boolcast-{ty}")
        if r.random() < 0.5:
            return FE(f"{ty}({c})", ty, True, 0, 1.0)
        t = r.choice(self._int_types())
        self.types_used.add(t)
        return FE(f"{ty}({t}({c}))", ty, True, 0, 1.0)

    def boolcast(self, ty: str) -> IE:
        """A comparison or bool cast to an integer type, as a value of `ty` (0/1, 0/-1, or a xor of a bit)."""
        r = self.r
        t = r.choice(self._int_types())
        self.types_used.add(t)
        self.shapes.add(f"boolcast-{t}")
        c = self.bexpr(1)
        k = r.random()
        if k < 0.5:
            return IE(f"{ty}({t}({c}))", ty, 0, 1)
        if k < 0.7:
            return IE(f"{ty}({t}({c}) ^ {t}(1))", ty, 0, 1)
        if k < 0.85 and t.startswith("i"):
            return IE(f"{ty}(-{t}({c}))", ty, -1, 0)
        u = "u64" if "i64" in self.feats and r.random() < 0.3 else "u32"
        self.types_used.add(u)
        self.shapes.add(f"boolcast-xor-{u}")
        a = self.typed(self.store(self.iexpr("i32", 1)))
        return IE(f"{ty}({u}(abs({a.text}) % 1009) ^ {u}({c}))", ty, 0, 1023)

    def f2i(self, ty: str) -> IE:
        """A float input (F2I_VALUES) converted to an integer type, reduced to a value of `ty`."""
        r = self.r
        t = r.choice(self._int_types())
        src, fty = ("axd", "f64") if "f64" in self.feats and r.random() < 0.3 else ("ax", "f32")
        self.inputs.add(src)
        self.types_used.add(t)
        self.shapes.add(f"f2i-{fty}-{t}")
        scale = r.choice(["", "", "", f" * {fty}(2.0)", f" * {fty}(-1.0)", f" * {fty}(0.5)"])
        x = f"{src}[{self.index(self.iexpr('i32', 1))}]"
        x = f"({x}{scale})" if scale else x
        if t in _RANGE:
            lo, hi = _RANGE[t]
            e = IE(f"i32({x})" if t == "i32" else f"i32({t}({x}))", "i32", lo, hi)
        else:
            e = IE(f"i32({t}({x}) % {t}({_P}))", "i32", 0 if t.startswith("u") else -(_P - 1), _P - 1)
        if ty == "i64":
            e = IE(f"i64({e.text})", "i64", e.lo, e.hi)
        return self.reduce(e)

    def intmin(self, ty: str) -> IE:
        """INT_MIN // -1 (INT_MIN, reduced) or INT_MIN % -1 (0) of `ty`, at run time or in constants."""
        r = self.r
        mx = I32_MAX if ty == "i32" else I64_MAX
        op = r.choice(["//", "%"])
        if r.random() < 0.25:  # constants: the canonicalizer folds them
            mn, d, how = f"({ty}(-{mx}) - {ty}(1))", r.choice(["(-1)", f"{ty}(-1)"]), "const"
        else:
            src = "ac" if ty == "i32" else "acl"
            self.inputs.add(src)
            mn = f"{src}[({self.index(self.iexpr('i32', 1), '(n // 4)')}) * 4]"
            k = r.random()
            d = f"{src}[({self.index(self.iexpr('i32', 1), '(n // 4)')}) * 4 + 1]" if k < 0.6 else \
                "(-1)" if k < 0.8 else f"{ty}(-1)"
            how = "runtime"
        self.shapes.add(f"intmin-{ty}-{'div' if op == '//' else 'mod'}-{how}")
        if op == "%":
            return IE(f"({mn} % {d})", ty, 0, 0)
        return self.reduce(IE(f"({mn} // {d})", ty, -mx - 1, -mx - 1))

    # -- local and shared arrays ------------------------------------------------------------------------

    def _fold(self, v: Var, elem: str, ety: str) -> str:
        """`v` plus an array element (of type `ety`) as an assignment, kept in the locals' range."""
        if v.ty in ("i32", "i64"):
            x = elem if ety == v.ty else f"{v.ty}({elem} % {ety}(1009))" if ety == "i64" else f"{v.ty}({elem})"
            return f"{v.name} = {self.store(IE(f'({v.name} + {x})', v.ty, -3 * STORE[v.ty], 3 * STORE[v.ty])).text}"
        self.imports.add("sm")
        lim = 256.0 if v.exact else FCLAMP
        x = elem if ety == v.ty else f"{v.ty}({elem})"
        return f"{v.name} = sm.fmin(sm.fmax({v.name} + {x}, -{lim!r}), {lim!r})"

    def _slot(self, shape: tuple[int, ...]) -> str:
        if len(shape) == 1:
            return self.index(self.iexpr("i32", 1), str(shape[0]))
        return ", ".join(self.index(self.iexpr("i32", 1), str(d)) for d in shape)

    def _value(self, ety: str) -> str:
        """A value to store in a local array of `ety` (within the i32 locals' range, exact for floats)."""
        e = self.typed(self.store(self.iexpr("i32", 2)))
        # an i32 first: bare literals inside `f32(...)` would take the float type (`f32(max(255 // 3, 7 ^ 0))`
        # mixes f32 and i32 operands: a front-end refusal, seed 1012)
        return e.text if ety == "i32" else f"{ety}(i32({e.text}))"

    def zero_locals(self, ints: list[Var], floats: list[Var]) -> None:
        """A local array read before it is written, written in part (maybe under a condition), read again."""
        r = self.r
        self.imports.add("local_array")
        ety: str = r.choice(["i32", "f32", "i64"] if "i64" in self.feats else ["i32", "f32"])
        shape: tuple[int, ...] = (r.choice([2, 3, 4]), r.choice([2, 4])) if r.random() < 0.4 else (r.choice([4, 8, 16]),)
        self.shapes.add(f"zeroinit-local-{len(shape)}d")
        z = self.fresh("z")
        self.emit(f"{z} = local_array({ety}, {shape if len(shape) > 1 else shape[0]})")
        self.emit(self._fold(r.choice(ints), f"{z}[{self._slot(shape)}]", ety))
        self.emit_under(self.bexpr(1) if r.random() < 0.5 else "",
                        lambda: f"{z}[{self._slot(shape)}] = {self._value(ety)}")
        for _ in range(r.randint(1, 2)):
            self.emit(self._fold(r.choice(ints + floats if ety == "f32" else ints), f"{z}[{self._slot(shape)}]", ety))

    def zero_shared(self, ints: list[Var]) -> None:
        """A shared array each thread reads at its own slot before writing it (0), some threads write, and all
        read a neighbour's slot after a barrier (0 where the neighbour did not write)."""
        r = self.r
        self.imports.update({"shared", "barrier"})
        v = r.choice(ints)
        s = self.fresh("s")
        two_d = "arrays" in self.feats
        self.shapes.add(f"zeroinit-shared-{'2d' if two_d else '1d'}")
        self.emit(f"{s} = shared({v.ty}, ({self.block // 16}, 16))" if two_d else f"{s} = shared({v.ty}, {self.block})")

        def at(t: str) -> str:
            return f"{s}[{t} // 16, {t} % 16]" if two_d else f"{s}[{t}]"

        self.emit(self._fold(v, at("t"), v.ty))
        m = r.randint(2, 5)
        self.emit(f"if t % {m} == {r.randrange(m)}:" if r.random() < 0.6 else f"if {self.bexpr(1)}:")
        self.depth += 1
        self.emit(f"{at('t')} = {r.choice([x for x in ints if x.ty == v.ty]).name}")
        self.depth -= 1
        self.emit("barrier()")
        k = r.randint(1, self.block - 1)
        self.emit(self._fold(r.choice([x for x in ints if x.ty == v.ty]), at(f"((t + {k}) % {self.block})"), v.ty))
        self.emit("barrier()")

    def tiling(self, ints: list[Var], floats: list[Var]) -> None:
        """The register-tiling shape: a fresh local tile accumulated with `+=` across nested constant-trip loops
        inside an outer loop, then folded into a local."""
        r = self.r
        self.imports.add("local_array")
        v = r.choice(ints + [f for f in floats if f.ty == "f32"])
        ety = v.ty
        rows, cols = r.choice([(4, 4), (4, 4), (2, 4), (4, 2), (3, 3), (2, 2)])
        two_d = r.random() < 0.5
        self.shapes.add(f"tiling-{'2d' if two_d else '1d'}-{ety}")
        ta, o, ti, tj, q = self.fresh("ta"), self.fresh("o"), self.fresh("ti"), self.fresh("tj"), self.fresh("q")
        self.emit(f"{ta} = local_array({ety}, {f'({rows}, {cols})' if two_d else rows * cols})")
        outer = r.randint(1, 4)
        self.emit(f"for {o} in range({outer}):")
        self.ivars_ro.append(IE(o, "i32", 0, outer - 1))
        self.depth += 1
        self.emit(f"for {ti} in range({rows}):")
        self.ivars_ro.append(IE(ti, "i32", 0, rows - 1))
        self.depth += 1
        self.emit(f"for {tj} in range({cols}):")
        self.ivars_ro.append(IE(tj, "i32", 0, cols - 1))
        self.depth += 1
        slot = f"{ti}, {tj}" if two_d else f"{ti} * {cols} + {tj}"
        if ety in ("i32", "i64"):
            e = self.typed(self.reduce(self.iexpr(ety, 2)))  # |e| < 1000003: outer * |e| stays far from overflow
            self.emit(f"{ta}[{slot}] += {e.text}")
        else:  # exact quarter-integers within 256: every partial sum is exact
            f = self.fexpr("f32", 2, need_exact=True)
            if f.fb > FB_MAX:
                self.imports.add("sm")
                f = FE(f"sm.floor({self.ftyped(f).text})", f.ty, True, 0, f.bound + 1)
            f = self.fclamp(f, 256.0) if f.exact else FE("0.5", "f32", True, 1, 0.5)
            self.emit(f"{ta}[{slot}] += {f.text}")
        for _ in range(3):
            self.ivars_ro.pop()
        self.depth -= 3
        self.emit(f"for {q} in range({rows * cols}):")
        self.depth += 1
        self.emit(self._fold(v, f"{ta}[{q} // {cols}, {q} % {cols}]" if two_d else f"{ta}[{q}]", ety))
        self.depth -= 1

    # -- the second kernel (feature "streams") --------------------------------------------------------------

    def stream_kernel(self, outs: dict[str, int]) -> tuple[list[str], dict[str, str]]:
        """A kernel reading an output Vector of the first (launched on another stream right after it, no
        synchronize between: the runtime must order it after the write); its lines and CASE["streams"]."""
        r = self.r
        src = r.choice([v for v in ("oi", "of", "ol", "od") if v in outs])
        ty = {"oi": "i32", "ol": "i64", "of": "f32", "od": "f64"}[src]
        name = f"fz{self.seed}_k2"
        a, b = r.choice([1, 3, 5, 7, 9]), r.randrange(self.n)
        self.shapes.add(f"streams-{ty}")
        lines = ["@kernel", f"def {name}(src: Vec[{ty}], o2: Vec[{ty}], n: i32):", "    i = global_thread_id",
                 "    if i < n:",
                 f"        o2[i] = src[(i * {a} + {b}) % len(src)] + src[len(src) - 1 - i]", "", ""]
        return lines, {"kernel": name, "src": src}
