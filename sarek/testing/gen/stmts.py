"""Statements of the generator: assignments, control flow, jumps, match, atomics, and this session's
constructs (narrow locals, f32 atomics, print)."""

from __future__ import annotations

from sarek.testing.gen.features import (ACCF_SLOTS, ATOMIC_OPS, FB_MAX, FCLAMP, FE, I64_MAX, IE, NARROW_FLOATS,
                                        NARROW_RANGE, STORE, Var)
from sarek.testing.gen.floats import FloatExprs


class Statements(FloatExprs):
    """Statements: each returns the statement count it used of the kernel's budget."""

    def assign(self, v: Var, depth: int = 2) -> None:
        if v.ty in ("i32", "i64"):
            r = self.r
            k = r.random()
            if k < 0.2:
                op = r.choice(["%=", "//=", "&=", "|=", "^=", ">>="])
                if op in ("%=", "//="):
                    d = self.divisor(v.ty, depth - 1)
                    self.emit(f"{v.name} {op} {d.text}")
                elif op == ">>=":
                    self.emit(f"{v.name} >>= {r.randint(0, 5)}")
                else:
                    e = self.typed(self.store(self.iexpr(v.ty, depth)))
                    self.emit(f"{v.name} {op} {e.text}")
                return
            self.emit(f"{v.name} = {self.store(self.iexpr(v.ty, depth)).text}")
            return
        if v.exact:
            e = self.fexpr(v.ty, depth, need_exact=True)
            if e.fb > FB_MAX:
                self.imports.add("sm")
                e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
            e = self.ftyped(self.fclamp(e, 256.0))
            if self.chance(0.2):
                self.imports.add("sm")
                self.emit(f"{v.name} = sm.fmin(sm.fmax({v.name} + {e.text}, -256.0), 256.0)")
            else:
                self.emit(f"{v.name} = {e.text}")
            return
        e = self.ftyped(self.fclamp(self.fexpr(v.ty, depth)))
        if self.chance(0.25):
            op = self.r.choice(["+=", "-=", "*="])
            if op == "*=":
                e = self.ftyped(self.fclamp(e, 2.0))
            self.emit(f"{v.name} {op} {e.text}")
            self.imports.add("sm")
            self.emit(f"{v.name} = sm.fmin(sm.fmax({v.name}, -{FCLAMP!r}), {FCLAMP!r})")
        else:
            self.emit(f"{v.name} = {e.text}")

    def stmt(self, budget: int, nest: int) -> int:
        """Emit one statement (possibly compound); returns the statement count used."""
        r = self.r
        k = r.random()
        mutable = [v for v in self.vars if not v.ro]
        if "jumps" in self.feats and (k < 0.2 if self.loops else k < 0.05 and not self.in_helper):
            # break / continue out of the innermost loop, or an early kernel return (the thread's outputs keep
            # their zeros), under a condition so the rest of the body stays live
            jump = r.choice(["break", "continue"] if self.loops and self.loops[-1] == "for" else
                            ["break"] if self.loops else ["return"])
            if jump == "return" and self.loops and r.random() < 0.5:
                jump = "break"
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(jump)
            self.depth -= 1
            return 1
        if self.zn and not self.in_helper and r.random() < 0.15:
            self.narrow_assign()
            return 1
        if "tuples" in self.feats and not self.in_helper and self.p33.random() < 0.2 and self.tuple_assign():
            return 1
        if "uatomic" in self.feats and not self.in_helper and self.p33.random() < 0.15:
            self.uatomic()
            return 1
        if "fatomic" in self.feats and not self.in_helper and r.random() < 0.1:
            self.float_atomic()
            return 1
        if "print" in self.feats and not self.in_helper and not self.loops and self.prints < 2 and r.random() < 0.2:
            self.print_stmt()
            return 1
        if k < 0.35 or nest >= 3 or budget <= 1:
            if mutable:
                self.assign(r.choice(mutable))
            else:
                self.emit("pass")
            return 1
        if k < 0.55:
            self.emit(f"if {self.bexpr(2)}:")
            used = self.suite(budget // 2, nest + 1)
            while self.chance(0.3):
                self.emit(f"elif {self.bexpr(2)}:")
                used += self.suite(budget // 3, nest + 1)
            if self.chance(0.5):
                self.emit("else:")
                used += self.suite(budget // 3, nest + 1)
            return used + 1
        if k < 0.68 and "loops" in self.feats:
            j = self.fresh("j")
            lo = r.randint(-3, 3)
            step = r.choice([1, 1, 2, -1, 3])
            trips = r.randint(0, 5)
            hi = lo + step * trips
            rng = f"range({hi})" if lo == 0 and step == 1 and r.random() < 0.5 else \
                f"range({lo}, {hi})" if step == 1 else f"range({lo}, {hi}, {step})"
            vals = [lo + step * t for t in range(trips)] or [lo]
            if "jumps" in self.feats and r.random() < 0.4:  # a run-time step, either sign (never zero)
                span = r.randint(0, 8)
                st = self.typed(self.store(self.iexpr("i32", 1)))
                if r.random() < 0.5:
                    rng = f"range({lo}, {lo + span}, abs({st.text}) % 3 + 1)"
                    vals = [lo, max(lo + span - 1, lo)]
                else:
                    rng = f"range({lo}, {lo - span}, -(abs({st.text}) % 3 + 1))"
                    vals = [min(lo - span + 1, lo), lo]
            self.emit(f"for {j} in {rng}:")
            self.ivars_ro.append(IE(j, "i32", min(vals), max(vals)))
            self.loops.append("for")
            used = self.suite(budget // 2, nest + 1)
            self.loops.pop()
            self.ivars_ro.pop()
            return used + 1
        if k < 0.76 and "loops" in self.feats:
            w = self.fresh("w")
            trips = r.randint(0, 4)
            self.emit(f"{w} = 0")
            self.emit(f"while {w} < {trips}:")
            self.depth += 1
            self.ivars_ro.append(IE(w, "i32", 0, max(trips - 1, 0)))
            self.loops.append("while")  # `continue` would skip the counter's increment: only `break` here
            used = self.suite(budget // 2, nest + 1, indent=False)
            self.loops.pop()
            self.ivars_ro.pop()
            self.emit(f"{w} += 1")
            self.depth -= 1
            return used + 2
        if k < 0.82 and self.has_var and not self.in_helper:
            return self.match_stmt(nest) + 1
        if k < 0.88 and "atomics" in self.feats and not self.in_helper:
            self.imports.add("atomic")
            j = r.randrange(len(ATOMIC_OPS))
            f = ATOMIC_OPS[j]
            e = self.typed(self.store(self.iexpr("i32", 2)))
            idx = self.index(self.iexpr("i32", 1), "2")
            self.atomics.add(f)
            self.emit(f"{f}(acc, {2 * j} + {idx}, {e.text})")
            return 1
        if k < 0.94 and self.has_rec and not self.in_helper:
            if r.random() < 0.5:
                self.emit(f"p.a = {self.store(self.iexpr('i32', 2)).text}")
            else:
                self.emit(f"p.b = {self.ftyped(self.fclamp(self.fexpr('f32', 2))).text}")
            return 1
        if mutable:
            self.assign(r.choice(mutable))
        return 1

    def suite(self, budget: int, nest: int, indent: bool = True) -> int:
        if indent:
            self.depth += 1
        used = 0
        n = max(1, min(budget, self.r.randint(1, 3)))
        for _ in range(n):
            used += self.stmt(max(budget - used, 1), nest)
        if indent:
            self.depth -= 1
        return used

    def match_stmt(self, nest: int) -> int:
        r = self.r
        vt = self.var_t
        self.emit(f"match vv:")
        self.depth += 1
        cases = ["A", "B", "C"]
        r.shuffle(cases)
        wild = r.random() < 0.5
        if wild:
            cases = cases[: r.randint(1, 2)]
        for c in cases:
            if c == "A":
                m = self.fresh("m")
                self.emit(f"case {vt}.A({m}):")
                self.ivars_ro.append(IE(m, "i32", -STORE["i32"], STORE["i32"]))
            elif c == "B":
                m1, m2 = self.fresh("m"), self.fresh("m")
                self.emit(f"case {vt}.B({m1}, {m2}):")
                self.ivars_ro.append(IE(m2, "i32", -STORE["i32"], STORE["i32"]))
                self.vars.append(Var(m1, "f32", False, ro=True))
            else:
                self.emit(f"case {vt}.C():")
            self.suite(2, nest + 1)
            if c == "A":
                self.ivars_ro.pop()
            elif c == "B":
                self.ivars_ro.pop()
                self.vars.pop()
        if wild:
            self.emit("case _:")
            self.suite(1, nest + 1)
        self.depth -= 1
        return 1

    # -- this session's constructs (features "narrow", "fatomic", "print") ----------------------------------

    def nleaf(self) -> str:
        """A value of the narrow integer type: the local, an input element, a literal or a converted i32."""
        r, t = self.r, self.narrow
        lo, hi = NARROW_RANGE[t]
        k = r.random()
        if k < 0.35:
            return self.zn
        if k < 0.6:
            return f"an[{self.index(self.iexpr('i32', 1))}]"
        if k < 0.8:
            return f"{t}({r.choice([0, 1, 3, 7, min(hi, I64_MAX), lo, hi // 2 + 1])})"
        return f"{t}({self.typed(self.store(self.iexpr('i32', 1))).text})"  # an int converted: wraps

    def nexpr(self) -> str:
        """A narrow integer expression. C promotes 8/16-bit operands to int, so the products and shifts that
        could overflow an int are left out (u16 * u16, a signed left shift); u32/u64 wrap (defined)."""
        r, t = self.r, self.narrow
        a, b = self.nleaf(), self.nleaf()
        ops = ["+", "-", "&", "|", "^", ">>", "//", "%"]
        if t != "u16":
            ops.append("*")
        if t.startswith("u"):
            ops.append("<<")
        op = r.choice(ops)
        if op in (">>", "<<"):
            return f"({a} {op} {r.randint(0, 7)})"
        if op in ("//", "%"):
            return f"({a} {op} ({b} | {t}(1)))"
        return f"({a} {op} {b})"

    def narrow_assign(self) -> None:
        """The narrow local gets a new value (converted back to its type: the int result of C's promotions
        wraps); bf16 and f16 round an exact f32 (to nearest even, the same on every device)."""
        if self.narrow in NARROW_FLOATS:
            e = self.fexpr("f32", 2, need_exact=True)
            if e.fb > FB_MAX:
                self.imports.add("sm")
                e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
            # through f32(...): inside f16(...) the front end types a bare literal f16 (f16 is arithmetic)
            self.emit(f"{self.zn} = {self.narrow}(f32({self.fclamp(e, 256.0).text}))")
            return
        if self.r.random() < 0.2:
            # both arms converted: an 8/16-bit operand's arithmetic is an int (C's promotions), and a
            # conditional expression takes arms of one type
            t = self.narrow
            self.emit(f"{self.zn} = {t}({self.nexpr()}) if {self.nleaf()} < {self.nleaf()} else {t}({self.nleaf()})")
            return
        self.emit(f"{self.zn} = {self.narrow}({self.nexpr()})")

    def float_atomic(self) -> None:
        """f32 atomic_add of a small integer: every partial sum is exact, so the total is order-independent."""
        self.imports.add("sm")
        self.uses_accf = True
        self.atomics.add("atomic_add")
        e = self.ftyped(self.fexpr("f32", 2, need_exact=True))
        v = f"sm.fmin(sm.fmax(sm.floor({e.text}), -64.0), 64.0)" if e.exact else "1.0"
        self.emit(f"atomic_add(accf, {self.index(self.iexpr('i32', 1), str(ACCF_SLOTS))}, {v})")

    def print_stmt(self) -> None:
        """print(...) of exact values (integers, exact floats, a condition): the same text on every device."""
        self.prints += 1
        r = self.r
        args = [f'"p{self.prints}"']
        for _ in range(r.randint(1, 3)):
            k = r.random()
            if k < 0.5:
                args.append(self.typed(self.iexpr(r.choice(self.int_types), 1)).text)
            elif k < 0.8:
                f = self.ftyped(self.fexpr(r.choice(self.float_types), 1, need_exact=True))
                args.append(f.text if f.exact else "0.5")
            else:
                args.append(self.bexpr(1))
        self.emit_under(self.bexpr(1) if r.random() < 0.5 else "", lambda: f"print({', '.join(args)})")
