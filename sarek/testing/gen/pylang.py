"""Issue 33's Python-semantics shapes (the eighth feature stream, features.PY33_FEATURES), each drawn from its
own random source `p33` so the kernels without them are unchanged:
- "consts": module-level constant tables, an int tuple `FZ<seed>T` and a quarter-integer float tuple
  `FZ<seed>F`, indexed in the kernel at a reduced run-time index (`T[(e % L + L) % L]`).
- "infs": `math.inf`, `-math.inf`, `float('inf')`, `math.nan` in value-preserving places (`min(e, math.inf)` is
  e, `max(e, -math.inf)` is e) and in conditions with a known answer (`sm.isinf(math.inf)`, `sm.isnan(math.nan)`,
  `sm.isfinite(e)` of a bounded e, `sm.isinf(max(e, -math.inf))`).
- "tuples": a helper returning `tuple[T, U]` taken apart by tuple assignment (`p, q = h(...)`), its first
  value stored into a local of its type.
- "gridbar": `gx[i] = v; grid_barrier(); v = gx[(i + k) % n]` at the top level (every thread of the launch
  writes before any reads; a neighbour k threads on is often in another block). interp, interp-ref and cuda run
  it; PTX, OpenCL and the shaders refuse it with the reason (counted n/a).
- "ballot": `warp_ballot(block_idx_x > k) != u32(0)` (a block-uniform condition: all lanes or none) and
  `warp_ballot(True) & u32(1)` (lane 0 is in every warp): the same whatever the device's warp width.
- "nptab" (its own stream `npt`): module-level numpy arrays as constant tables, a 2-D integer one `FZ<seed>NI`
  (int8 ... uint16 or int32) and a 2-D quarter-integer float one `FZ<seed>NF` (float16 or float32), read at
  reduced run-time indices `NI[r, c]` inside int and float expressions.
- "uatomic": atomics on u32 and u64 accumulators (`accu`, `accul`) and on a 2-D u32 one (`accu2`, indexed by a
  tuple): add wraps modulo 2^32 / 2^64 and min/max/and/or/xor commute, each op on its own slots, so the final
  values do not depend on the order.
"""

from __future__ import annotations

from sarek.testing.gen.corners import Corners
from sarek.testing.gen.features import STORE, UATOMIC_OPS, FE, IE, Helper, Var


class PyLang(Corners):
    """Constant tables, inf/NaN constants, tuple assignment and unsigned / N-D atomics."""

    def const_tables(self) -> list[str]:
        """The module-level tables (drawn once, before the kernel is built)."""
        q = self.p33
        self.itab = [q.randint(-100, 100) for _ in range(q.choice([3, 5, 8]))]
        self.ftab = [q.randint(-64, 64) / 4.0 for _ in range(q.choice([2, 4, 6]))]
        return [f"FZ{self.seed}T = {tuple(self.itab)!r}", f"FZ{self.seed}F = {tuple(self.ftab)!r}", "", ""]

    def np_tables(self) -> list[str]:
        """Feature "nptab": the module-level numpy tables (drawn once, before the kernel is built)."""
        q = self.npt
        idt = q.choice(["int8", "uint8", "int16", "uint16", "int32"])
        lo, hi = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-3000, 3000), "uint16": (0, 6000)}.get(
            idt, (-9999, 9999))
        rows, cols = q.choice([2, 3, 4]), q.choice([2, 3, 5])
        self.nptab_i = [[q.randint(lo, hi) for _ in range(cols)] for _ in range(rows)]
        fdt = q.choice(["float16", "float32"])
        rows, cols = q.choice([1, 3]), q.choice([2, 4])
        self.nptab_f = [[q.randint(-64, 64) / 4.0 for _ in range(cols)] for _ in range(rows)]
        return [f"FZ{self.seed}NI = np.array({self.nptab_i!r}, dtype=np.{idt})",
                f"FZ{self.seed}NF = np.array({self.nptab_f!r}, dtype=np.{fdt})", "", ""]

    def np_ileaf(self) -> IE:
        """An element of the numpy int table at run-time indices, as i32."""
        t = self.nptab_i
        r, c = self.table_index(len(t)), self.table_index(len(t[0]))
        vals = [v for row in t for v in row]
        return IE(f"i32(FZ{self.seed}NI[{r}, {c}])", "i32", min(vals), max(vals))

    def np_fleaf(self, ty: str) -> FE:
        """An element of the numpy float table (quarter-integers, exact in f16) at run-time indices."""
        t = self.nptab_f
        r, c = self.table_index(len(t)), self.table_index(len(t[0]))
        return FE(f"{ty}(FZ{self.seed}NF[{r}, {c}])", ty, True, 2, max(abs(v) for row in t for v in row))

    def table_index(self, n: int) -> str:
        """A run-time index below n; its leaves read no table or 2-D element (the nesting would not end)."""
        self.in_a2 = True
        idx = self.index(self.iexpr("i32", 1), str(n))
        self.in_a2 = False
        return idx

    def table_ileaf(self) -> IE:
        """An element of the int table at a run-time index."""
        idx = self.table_index(len(self.itab))
        return IE(f"FZ{self.seed}T[{idx}]", "i32", min(self.itab), max(self.itab))

    def table_fleaf(self, ty: str) -> FE:
        """An element of the float table (quarter-integers: exact) at a run-time index."""
        idx = self.table_index(len(self.ftab))
        text = f"FZ{self.seed}F[{idx}]"
        return FE(text if ty == "f32" else f"f64({text})", ty, True, 2, max(abs(v) for v in self.ftab))

    def inf_fexpr(self, ty: str, e: FE) -> FE:
        """`e` unchanged in value, through an infinite constant."""
        self.uses_math = True
        inf = self.p33.choice(["math.inf", "float('inf')", "sm.inf"])
        if inf.startswith("sm"):
            self.imports.add("sm")
        e = self.ftyped(e)
        text = f"min({e.text}, {inf})" if self.p33.random() < 0.5 else f"max({e.text}, -{inf})"
        return FE(f"{ty}({text})", ty, e.exact, e.fb, e.bound)

    def inf_cond(self, depth: int) -> str:
        """A condition with a known answer on every device, built from inf/NaN constants and sm.isinf & co."""
        self.uses_math = True
        self.imports.add("sm")
        ty = self.p33.choice(self.float_types)
        k = self.p33.randrange(5)
        if k == 0:
            return self.p33.choice(["sm.isinf(math.inf)", "sm.isinf(-math.inf)", "sm.isinf(float('-inf'))"])
        if k == 1:
            return self.p33.choice(["sm.isnan(math.nan)", "(not sm.isfinite(math.nan))", "sm.isnan(float('nan'))"])
        e = self.ftyped(self.fclamp(self.fexpr(ty, max(depth - 1, 0))))
        if k == 2:
            return f"sm.isfinite({e.text})"
        if k == 3:
            return f"sm.isinf(max({e.text}, -math.inf))"
        return f"(not sm.isnan({e.text}))"

    def tuple_assign(self) -> bool:
        """`p, q = h(...)` of a two-value helper, then a local of p's type takes p (False: nothing to do)."""
        hs = [h for h in self.helpers if h.second]
        if not hs:
            return False
        h = self.p33.choice(hs)
        dst = [v for v in self.vars if not v.ro and v.ty == h.ret and (v.ty in ("i32", "i64") or not v.exact)]
        if not dst:
            return False
        v = self.p33.choice(dst)
        a, b = self.fresh("tp"), self.fresh("tq")
        self.emit(f"{a}, {b} = {self.call(Helper(h.name, h.params, h.ret))}")
        if v.ty in ("i32", "i64"):
            self.emit(f"{v.name} = {a} % {STORE[v.ty]}")
        else:
            self.emit(f"{v.name} = {a}")
        return True

    def uatomic(self) -> None:
        """An unsigned atomic (u32 or u64 vector, or the 2-D u32 array) whose result is unused."""
        q = self.p33
        op = q.randrange(len(UATOMIC_OPS))
        f = UATOMIC_OPS[op]
        self.atomics.add(f)
        slot = f"{2 * op} + {self.index(self.iexpr('i32', 1), '2')}"
        e = self.typed(self.iexpr("i32", 1))
        where = q.choice(["accu", "accul", "accu2"] if "i64" in self.feats else ["accu", "accu2"])
        self.uatomics.add(where)
        ut = "u64" if where == "accul" else "u32"
        self.types_used.add(ut)
        val = f"{ut}({e.text})" if f in ("atomic_add", "atomic_xor", "atomic_or") else f"{ut}({e.text} & 255)"
        if where == "accu2":
            self.emit(f"{f}(accu2, ({slot}, {self.index(self.iexpr('i32', 1), '2')}), {val})")
        else:
            self.emit(f"{f}({where}, {slot}, {val})")

    def py33_barrier_stage(self, ints: list[Var]) -> None:
        """Features "gridbar" and "ballot", at the kernel's top level (barrier mode: every thread gets here)."""
        q = self.p33
        i32s = [v for v in ints if v.ty == "i32"]
        if "gridbar" in self.feats and i32s:
            v = q.choice(i32s)
            self.uses_gx = True
            self.imports.add("grid_barrier")
            self.emit(f"gx[i] = {v.name}")
            self.emit("grid_barrier()")
            self.emit(f"{v.name} = gx[(i + {q.randint(1, self.n - 1)}) % n]")
        if "ballot" in self.feats and i32s:
            v = q.choice(i32s)
            self.imports.update({"warp_ballot", "block_idx_x"})
            if q.random() < 0.5:
                self.emit(f"{v.name} = {v.name} % 1000 + i32(warp_ballot(block_idx_x > {q.randint(0, 1)}) != u32(0))")
            else:
                self.emit(f"{v.name} = {v.name} % 1000 + i32(warp_ballot(True) & u32(1))")
            self.types_used.add("u32")
