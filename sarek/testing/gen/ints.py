"""Integer expressions of the generator: each with a static interval, reduced before it could overflow."""

from __future__ import annotations

from typing import Any

from sarek.testing.gen.features import I32_MAX, I64_MAX, IE, LIMIT, NARROW_FLOATS, NARROW_RANGE, RED, STORE, GenBase

#: reads of `ai`/`al` nested in each other's indices, at most (seed 940761's index chain recursed without end)
MAX_READ_NEST = 32


class IntExprs(GenBase):
    """Integer expressions, each with a static interval (`IE.lo`, `IE.hi`): an operation that could leave its type
    gets reduced operands; divisors are provably non-zero, shift counts in range."""

    def ilit(self, ty: str) -> IE:
        r = self.r
        v = r.choice([0, 1, 2, 3, 5, 7, -1, -2, -7, 13, 100, -100, 255, 1000]) if r.random() < 0.7 else r.randint(-50, 50)
        if ty == "i64" and r.random() < 0.3:
            v = r.choice([3000000000, -3000000000, 2**33 + 5, 12345678901])
        text = str(v) if v >= 0 else f"-{-v}" if r.random() < 0.8 else f"({v})"
        if ty == "i64" and r.random() < 0.5:
            return IE(f"i64({text})", ty, v, v)
        return IE(text, ty, v, v, lit=True)

    def typed(self, e: IE) -> IE:
        """`e` as a value of its own type even when it is a bare literal (an i64 literal needs a cast)."""
        if e.lit and e.ty == "i64":
            return IE(f"i64({e.text})", e.ty, e.lo, e.hi)
        if e.lit and abs(e.lo) > I32_MAX:
            return IE(f"i64({e.text})", e.ty, e.lo, e.hi)
        return e

    def reduce(self, e: IE) -> IE:
        m = RED[e.ty]
        if e.mag < m:
            return e
        e = self.typed(e)
        return IE(f"({e.text} % {m})", e.ty, max(e.lo, -(m - 1)) if e.lo < 0 else 0, min(e.hi, m - 1) if e.hi > 0 else 0)

    def store(self, e: IE) -> IE:
        """`e` reduced to the locals' range."""
        s = STORE[e.ty]
        e = self.typed(e)
        if e.mag <= s:
            return e
        return IE(f"({e.text} % {s})", e.ty, -(s - 1) if e.lo < 0 else 0, s - 1 if e.hi > 0 else 0)

    def index(self, e: IE, n: str = "n") -> str:
        e = self.store(self.as_i32(e))
        if self.chance(0.5):
            return f"({e.text} % {n} + {n}) % {n}"
        return f"abs({e.text}) % {n}"

    def as_i32(self, e: IE) -> IE:
        if e.ty == "i32":
            return e
        e = self.typed(self.reduce(e))
        return IE(f"i32({e.text})", "i32", e.lo, e.hi)

    def ileaf(self, ty: str) -> IE:
        r = self.r
        if self.feats & {"boolcast", "f2i", "intmin"}:  # no draw otherwise: the kernels without them stay the same
            c = self.corner_ileaf(ty)
            if c is not None:
                return c
        if "consts" in self.feats and ty == "i32" and not self.in_helper and not self.in_a2 and self.p33.random() < 0.15:
            return self.table_ileaf()  # no draw otherwise (its own stream): the kernels without it stay the same
        if "nptab" in self.feats and ty == "i32" and not self.in_helper and not self.in_a2 and self.npt.random() < 0.15:
            return self.np_ileaf()
        opts: list[Any] = []
        for v in self.vars:
            if v.ty == ty:
                opts.append(IE(v.name, ty, -STORE[ty], STORE[ty]))
        for e in self.ivars_ro:
            if e.ty == ty:
                opts.append(e)
        if ty == "i32" and not self.in_helper:
            opts.append(IE("i", ty, 0, self.n - 1))
            if self.barrier_mode:
                opts.append(IE("t", ty, 0, self.block - 1))
        if not self.in_helper and r.random() < 0.5:
            src = "ai" if ty == "i32" else "al"
            bound = 100 if ty == "i32" else 5 * 10**9
            idx = "i"
            if r.random() < 0.6 and self.read_nest < MAX_READ_NEST:  # reads in the indices of reads, bounded
                self.read_nest += 1
                idx = self.index(self.iexpr("i32", 1))
                self.read_nest -= 1
            opts.append(IE(f"{src}[{idx}]", ty, -bound, bound))
        if self.p_ready and not self.in_helper and ty == "i32" and r.random() < 0.3:
            opts.append(IE("p.a", ty, -STORE[ty], STORE[ty]))
        if "arrays" in self.feats and not self.in_helper and ty == "i32" and not self.in_a2 and r.random() < 0.3:
            self.in_a2 = True  # its indices read no 2-D element themselves (two indices would branch too much)
            rows = self.index(self.iexpr("i32", 1), "a2.shape[0]")
            opts.append(IE(f"a2[{rows}, {self.index(self.iexpr('i32', 1), 'a2.shape[1]')}]", ty, -100, 100))
            self.in_a2 = False
        if "arrays3" in self.feats and not self.in_helper and ty == "i32" and not self.in_a2 and r.random() < 0.3:
            self.in_a2 = True
            idx = [self.index(self.iexpr("i32", 0), f"a3.shape[{d}]") for d in range(3)]
            opts.append(IE(f"a3[{', '.join(idx)}]", ty, -100, 100))
            self.in_a2 = False
        if self.zn and self.narrow not in NARROW_FLOATS and not self.in_helper and ty == "i32" and r.random() < 0.4:
            opts.append(self.narrow_as_i32())
        if r.random() < 0.3 or not opts:
            return self.ilit(ty)
        return r.choice(opts)

    def iexpr(self, ty: str, depth: int) -> IE:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.ileaf(ty)
        if "vec" in self.feats and ty == "i32" and self.v33.random() < 0.15:
            return self.ivec(depth)
        k = r.random()
        if k < 0.40:
            return self.ibin(ty, depth)
        if k < 0.48:
            a = self.iexpr(ty, depth - 1)
            if r.random() < 0.5:
                return IE(f"(-{a.text})", ty, -a.hi, -a.lo, a.lit)
            # `abs` of a bare literal is an i32 value to the front end, not a literal that adapts: where an i64 is
            # meant the literal is cast first (H200 seeds 200147, 200701, 201262, 201946)
            a = self.typed(a) if a.lit and (ty == "i64" or r.random() < 0.5) else a
            return IE(f"abs({a.text})", ty, 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)), a.mag)
        if k < 0.54:
            a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
            if a.lit and b.lit:
                a = self.typed(a)
            f = r.choice(["min", "max"])
            return IE(f"{f}({a.text}, {b.text})", ty, min(a.lo, b.lo), max(a.hi, b.hi))
        if k < 0.62:
            c = self.bexpr(depth - 1)
            a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
            if a.lit and b.lit:
                a = self.typed(a)
            return IE(f"({a.text} if {c} else {b.text})", ty, min(a.lo, b.lo), max(a.hi, b.hi))
        if k < 0.72:
            return self.icast(ty, depth)
        if k < 0.78 and "math" in self.feats:
            a = self.iexpr(ty, depth - 1)
            f = r.choice(["clz", "popcount", "bit_reverse"] if ty == "i32" else ["bit_reverse"])
            self.imports.add("sm")
            if f == "bit_reverse":  # any value of the type: the sign bit is the operand's bit 0
                top = I32_MAX if ty == "i32" else I64_MAX
                return IE(f"sm.bit_reverse({self.typed(a).text})", ty, -top - 1, top)
            return IE(f"sm.{f}({self.typed(a).text})", ty, 0, 32)
        if k < 0.84 and self.helpers:
            h = r.choice(self.helpers)
            if h.ret == ty:
                return IE(self.call(h), ty, -STORE[ty], STORE[ty])
        if k < 0.88 and ty == "i32":
            c = self.bexpr(depth - 1)
            return IE(f"i32({c})", ty, 0, 1)
        if k < 0.92 and ty == "i32" and not self.in_helper:
            return IE(f"len({r.choice(['ai', 'af'])})", ty, self.n, self.n)
        if "bitcast" in self.feats and r.random() < 0.3:
            return self.bits_of_float(ty, depth)
        return self.ibin(ty, depth)

    def ivec(self, depth: int) -> IE:
        """Feature "vec" (issue 33, its own stream): an i32 from integer vectors: i32x2 / i32x4 of stored-range
        lanes (+ - and a small factor, no overflow), u32x4 (+ - * wrapping mod 2^32) or u8x4 (wrapping mod 256)
        of non-negative lanes, then one lane read (unsigned lanes reduced mod 1000 first)."""
        v = self.v33
        vt = v.choice(["i32x2", "i32x4", "u32x4", "u8x4"])
        n = int(vt[-1])
        self.types_used.add(vt)
        elt = {"i32x2": "i32", "i32x4": "i32", "u32x4": "u32", "u8x4": "u8"}[vt]

        def lane() -> str:
            e = self.typed(self.store(self.iexpr("i32", depth - 1)))
            if elt == "i32":
                return e.text
            self.types_used.add(elt)
            return f"{elt}(abs({e.text}) % {256 if elt == 'u8' else STORE['i32']})"

        def vec() -> str:
            return f"{vt}({', '.join(lane() for _ in range(n))})"

        a, b = vec(), vec()
        lane_name = "xyzw"[v.randrange(n)]
        if elt == "i32":  # lanes within +-32749: a sum, a difference or a product by 3 stays far from overflow
            op = v.choice(["+", "-", "scale"])
            text = f"({a} * 3)" if op == "scale" else f"({a} {op} {b})"
            return IE(f"{text}.{lane_name}", "i32", -3 * STORE["i32"], 3 * STORE["i32"])
        op = v.choice(["+", "-", "*"])  # unsigned lanes wrap: the same on every device
        return IE(f"i32(({a} {op} {b}).{lane_name} % 1000)", "i32", 0, 999)

    def bits_of_float(self, ty: str, depth: int) -> IE:
        """`sarek.bitcast` of an exact float (the same bits on every device) to its integer type, the sign bit
        masked off (-0.0 and 0.0 may differ between devices), reduced."""
        fty = "f32" if ty == "i32" else "f64"
        if fty not in self.float_types:
            return self.ibin(ty, depth)
        self.uses_sarek = True
        f = self.ftyped(self.fexpr(fty, depth - 1, need_exact=True))
        mask = I32_MAX if ty == "i32" else I64_MAX
        return IE(f"((sarek.bitcast({f.text}, {ty}) & {mask}) % {RED[ty]})", ty, 0, RED[ty] - 1)

    def icast(self, ty: str, depth: int) -> IE:
        r = self.r
        if r.random() < 0.5 and "floatops" in self.feats:
            f = self.fexpr(r.choice(self.float_types), depth - 1, need_exact=True)
            if f.exact and f.bound < 2**30:
                b = int(f.bound) + 1
                return IE(f"{ty}({f.text})", ty, -b, b)
        other = "i64" if ty == "i32" else "i32"
        if other not in self.int_types:
            return self.ileaf(ty)
        a = self.iexpr(other, depth - 1)
        if ty == "i32":
            a = self.typed(self.reduce(a)) if a.mag > I32_MAX else a
        return IE(f"{ty}({a.text})", ty, a.lo, a.hi)

    def ibin(self, ty: str, depth: int) -> IE:
        r = self.r
        op = r.choice(["+", "-", "*", "//", "%", "&", "|", "^", ">>", "<<", "+", "-", "*"])
        a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
        width = 32 if ty == "i32" else 64
        if op in ("+", "-", "*"):
            for _ in range(2):
                cands = [a.lo + b.lo, a.lo + b.hi, a.hi + b.lo, a.hi + b.hi] if op == "+" else \
                    [a.lo - b.hi, a.hi - b.lo] if op == "-" else [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
                lo, hi = min(cands), max(cands)
                if max(abs(lo), abs(hi)) <= LIMIT[ty]:
                    if a.lit and b.lit:
                        a = self.typed(a)
                    return IE(f"({a.text} {op} {b.text})", ty, lo, hi)
                a, b = self.reduce(a), self.reduce(b)
            return self.reduce(a)
        if op in ("//", "%"):
            d = self.divisor(ty, depth - 1)
            if a.lit:
                a = self.typed(a)
            m = a.mag
            if op == "//":
                return IE(f"({a.text} // {d.text})", ty, -m, m)
            dm = d.mag
            return IE(f"({a.text} % {d.text})", ty, max(-m, -(dm - 1)) if a.lo < 0 else 0, min(m, dm - 1) if a.hi > 0 else 0)
        if op in ("&", "|", "^"):
            if a.lit and b.lit:
                a = self.typed(a)
            p = 1
            while p <= max(a.mag, b.mag):
                p *= 2
            lo = -p if (a.lo < 0 or b.lo < 0) else 0
            if op == "&" and (a.lo >= 0 or b.lo >= 0):
                lo = 0
            return IE(f"({a.text} {op} {b.text})", ty, lo, p)
        if op == ">>":
            a = self.typed(a)
            if r.random() < 0.5:
                k = r.randint(0, width - 1)
                return IE(f"({a.text} >> {k})", ty, min(a.lo, 0), max(a.hi, 0))
            c = self.iexpr(ty, depth - 1)
            return IE(f"({a.text} >> ({self.typed(c).text} & {width // 2 - 1}))", ty, min(a.lo, 0), max(a.hi, 0))
        # <<: a non-negative value of at most 10 bits, shifted by a small count
        a = self.typed(a)
        k = r.randint(0, 12 if ty == "i32" else 40)
        return IE(f"(({a.text} & 1023) << {k})", ty, 0, 1023 << k)

    def divisor(self, ty: str, depth: int) -> IE:
        r = self.r
        e = self.typed(self.store(self.iexpr(ty, depth)))
        k = r.random()
        if k < 0.35:
            return IE(f"({e.text} | 1)", ty, -(e.mag + 1), e.mag + 1)
        if k < 0.7:
            return IE(f"(abs({e.text}) % 13 + 1)", ty, 1, 13)
        if k < 0.85:
            v = r.choice([1, 2, 3, 7, -1, -3, 16, -16])
            return IE(str(v) if v > 0 else f"({v})", ty, v, v)
        return IE(f"(-(abs({e.text}) % 5 + 2))", ty, -6, -2)

    def narrow_as_i32(self) -> IE:
        """The narrow integer local as an i32 (u32/u64 reduced first)."""
        lo, hi = NARROW_RANGE[self.narrow]
        if hi > I32_MAX:
            return IE(f"i32({self.zn} % {self.narrow}(1009))", "i32", 0, 1008)
        return IE(f"i32({self.zn})", "i32", lo, hi)
