"""Value rendering: which values are inlined or get a temporary, expression text of pure ops, places, intrinsics."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from sarek.analysis import namer
from sarek.analysis.effects import is_pure_intrinsic, may_write as is_writer
from sarek.analysis.shapes import row_major
from sarek.dialect import sarek as S
from sarek.dialect.scalars import is_arith_int, is_signed
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.optable import OpTable
from sarek.lowering.divide import may_overflow
from sarek.mathlib.ops import PRECISE
from sarek.lowering.shader.language import err
from sarek.lowering.shader.polyfills import Polyfills
from sarek.lowering.shader.state import PURE_INLINE, READ_OPS, Scope, Storage, int_width, nuses, scalar_key

#: sarek op type -> the `Expressions` method giving its expression text, `(self, op) -> str`: one entry per
#: expression op, stated by `@renders(Op)` on the method
renders = OpTable[Callable[..., str]]("shader expressions")
_RENDER = renders.entries


class Expressions(Polyfills):
    """Expression text of values, and the statements that name them (`declare`, `materialize`)."""

    # -------------------------------------------------------------------------------- value rendering

    def needs_temp(self, op: Operation) -> bool:
        if op in self.temp_cache:
            return self.temp_cache[op]
        r = self._needs_temp(op)
        self.temp_cache[op] = r
        return r

    def _needs_temp(self, op: Operation) -> bool:
        if PRECISE in op.attributes and self.lang.precise is not None:
            return True  # a `precise` local: glslang marks what computes it NoContraction
        if isinstance(op, READ_OPS):
            return not self._read_inlinable(op)
        if isinstance(op, PURE_INLINE) or is_pure_intrinsic(op):
            if isinstance(op, S.ElemRefOp | S.FieldRefOp | S.ConstantOp | S.ArrayLenOp | S.ArrayDimOp):
                return False
            if isinstance(op, S.IntrinsicOp) and INTRINSICS[op.callee.data].category == Category.INDEX:
                return False
            if op.results and nuses(op.results[0]) > 1:
                return True
            return False
        return True

    def inline_depth(self, op: Operation) -> int:
        """Nesting of `op`'s text with its not-yet-named operands printed inline; called as lower_op visits ops
        in program order, so every operand has been visited (a named one, in `vals`, counts 0)."""
        d = 0
        for x in op.operands:
            if x not in self.vals and isinstance(o := x.owner, Operation):
                d = max(d, self.depth_cache.get(o, 0))
        self.depth_cache[op] = d + 1
        return d + 1

    def _read_inlinable(self, op: Operation) -> bool:
        blk = op.parent_block()
        cur = op
        while True:
            res = cur.results[0]
            uses = list(res.uses)
            if len(uses) != 1:
                return False
            u = uses[0].operation
            if u.parent_block() is not blk:
                return False
            if (isinstance(u, PURE_INLINE) or is_pure_intrinsic(u) or isinstance(u, READ_OPS)) and not (
                    not isinstance(u, READ_OPS) and self.needs_temp(u)):
                if isinstance(u, READ_OPS) and self.needs_temp(u):
                    break
                cur = u
                continue
            break
        # u is the consumer statement; no writer strictly between op and u
        assert blk is not None
        o = op.next_op
        while o is not None and o is not u:
            if is_writer(o):
                return False
            o = o.next_op
        return True

    def expr(self, v: SSAValue) -> str:
        if v in self.vals:
            return self.vals[v]
        if v in self.exprs:
            return self.exprs[v]
        if isinstance(v, BlockArgument):
            raise err("internal: unbound block argument", None, self.lang)
        op = cast(OpResult, v).op
        text = self.render(op)
        self.exprs[v] = text
        return text

    def place(self, v: SSAValue) -> tuple[str, Storage | None]:
        """Text of a place (a `!sarek.ref` value) and the storage it lives in (None for locals)."""
        if v in self.vals:
            return self.vals[v], None
        op = cast(OpResult, v).op
        if isinstance(op, S.ElemRefOp):
            st = self.storage_of(op.array, op)
            return f"{st.name}[{self.flat_index(op, st)}]", st
        if isinstance(op, S.FieldRefOp):
            base, st = self.place(op.base)
            rt = cast(S.RefType, op.base.type).element_type
            assert isinstance(rt, S.RecordType)
            return f"{base}.{self.field_name(rt.decl_name, op.field.data)}", st
        raise err(f"internal: {op.name} is not a place", op, self.lang)

    def flat_index(self, op: S.ArrayReadOp | S.ElemRefOp, st: Storage) -> str:
        """The element index of an access: its index, or the row-major offset of an N-dimensional one's
        indices (`(i * n1 + j) * n2 + k`, the extents passed with the vector or the array's constants)."""
        if len(op.indices) == 1:
            return self.index(op.index)
        return row_major([self.index(x) for x in op.indices], st.dims, lambda a, b: f"({a} * {b})",
                         lambda a, b: f"({a} + {b})")

    def index(self, v: SSAValue) -> str:
        t = self.expr(v)
        if int_width(v.type) == 64:
            return f"{self.lang.scalar['i32']}({t})"
        return t

    def storage_of(self, v: SSAValue, op: Operation | None) -> Storage:
        if v in self.storage:
            return self.storage[v]
        raise err("internal: unknown array", op, self.lang)

    def read_place(self, text: str, st: Storage | None) -> str:
        if st is None or st.repr == "plain":
            return text
        return self.lang.reprs[st.repr].load.format(text)

    def write_place(self, text: str, st: Storage | None, value: str) -> str:
        if st is None or st.repr == "plain":
            return f"{text} = {value}"
        return self.lang.reprs[st.repr].store.format(p=text, v=value)

    def render(self, op: Operation) -> str:
        """The expression text of `op`, through its entry in the table of `@renders` methods."""
        f = _RENDER.get(type(op))
        if f is None:
            raise err(f"internal: {op.name} has no expression form", op, self.lang)
        return f(self, op)

    @renders(S.ConstantOp)
    def render_constant(self, op: S.ConstantOp) -> str:
        return self.lit(op)

    @renders(S.UnOp)
    def render_un(self, op: S.UnOp) -> str:
        a = self.expr(op.operand)
        sym = {"neg": "-", "not": "!", "bitnot": "~"}[op.kind.data.value]
        return f"({sym}{a})"

    @renders(S.CastOp)
    def render_cast(self, op: S.CastOp) -> str:
        src, dst = op.operand.type, op.result.type
        a = self.expr(op.operand)
        if src == dst:
            return a
        assert not isinstance(dst, Float16Type) and not isinstance(src, Float16Type), "refused by the feature gate"
        if isinstance(src, Float32Type | Float64Type) and is_arith_int(dst):
            return f"{self.float_to_int(src, dst)}({a})"
        conv = self.lang.casts.get((str(scalar_key(src)), str(scalar_key(dst))))
        if conv is not None:
            return conv.format(a=a)
        return f"{self.ty(dst, op)}({a})"

    @renders(S.BitcastOp)
    def render_bitcast(self, op: S.BitcastOp) -> str:
        a = self.expr(op.operand)
        if op.operand.type == op.result.type:
            return a
        return self.lang.bitcast[str(op.operand.type)].format(t=self.ty(op.result.type, op), a=a)

    @renders(S.FieldOp)
    def render_field(self, op: S.FieldOp) -> str:
        rt = op.record.type
        assert isinstance(rt, S.RecordType)
        return f"{self.expr(op.record)}.{self.field_name(rt.decl_name, op.field.data)}"

    @renders(S.PayloadOp)
    def render_payload(self, op: S.PayloadOp) -> str:
        vt = op.variant.type
        assert isinstance(vt, S.VariantType)
        ps = self.variants[vt.decl_name].payload(op.ctor.data) or []
        return f"{self.expr(op.variant)}.{self.payload_path(vt.decl_name, op.ctor.data, len(ps), op.index.value.data)}"

    @renders(S.MakeRecordOp)
    def render_make_record(self, op: S.MakeRecordOp) -> str:
        return f"{self.ty(op.result.type, op)}({', '.join(self.expr(a) for a in op.fields)})"

    @renders(S.MakeVariantOp)
    def render_make_variant(self, op: S.MakeVariantOp) -> str:
        vt = op.result.type
        assert isinstance(vt, S.VariantType)
        fn = self.ctor_name(namer.MAKE_NAMES, vt.decl_name, op.ctor.data)
        return f"{fn}({', '.join(self.expr(a) for a in op.payload)})"

    @renders(S.ArrayLenOp)
    def render_array_len(self, op: S.ArrayLenOp) -> str:
        st = self.storage_of(op.array, op)
        assert st.length is not None
        return st.length

    @renders(S.ArrayDimOp)
    def render_array_dim(self, op: S.ArrayDimOp) -> str:
        return self.storage_of(op.array, op).dims[op.dim.data]

    @renders(S.LoadOp)
    def render_load(self, op: S.LoadOp) -> str:
        t, st = self.place(op.ref)
        return self.read_place(t, st)

    @renders(S.ArrayReadOp)
    def render_array_read(self, op: S.ArrayReadOp) -> str:
        st = self.storage_of(op.array, op)
        return self.read_place(f"{st.name}[{self.flat_index(op, st)}]", st)

    @renders(S.BinOp)
    def binop(self, op: S.BinOp) -> str:
        k = op.kind.data.value
        a, b = self.expr(op.lhs), self.expr(op.rhs)
        t = op.lhs.type
        if k == "rem":
            # GLSL % is undefined for negatives; WGSL % on i32 came out unsigned on NVIDIA (H200, naga -> SPIR-V)
            return f"{self.need_poly('irem', t)}({a}, {b})"
        if k == "div" and is_signed(t) and "idiv" in self.lang.int_helpers and may_overflow(op.rhs):  # INT_MIN / -1
            return f"{self.need_poly('idiv', t)}({a}, {b})"
        if k in ("shl", "shr"):
            b = self.lang.shift_rhs.format(b)
        sym = {"add": "+", "sub": "-", "mul": "*", "div": "/", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
               "gt": ">", "ge": ">=", "and": "&&", "or": "||", "shl": "<<", "shr": ">>", "bitand": "&",
               "bitor": "|", "bitxor": "^"}[k]
        return f"({a} {sym} {b})"

    # -------------------------------------------------------------------------------- intrinsics

    @renders(S.IntrinsicOp)
    def intrinsic(self, op: S.IntrinsicOp) -> str:
        name = op.callee.data
        cat = INTRINSICS[name].category
        if cat == Category.INDEX:
            return self.index_intrinsic(name, op)
        if name in ("lane_id", "warp_size"):
            self.use_subgroups(op, shuffle=False)
            return self.lang.lane_id if name == "lane_id" else self.lang.warp_size
        if cat == Category.MATH:
            return self.math(op)
        raise err(f"internal: intrinsic {name} is a statement", op, self.lang)

    def index_intrinsic(self, name: str, op: Operation) -> str:
        if name == "global_thread_id":
            name = "global_idx_x"
        if name == "global_size":
            name = "global_size_x"
        base, d = name.rsplit("_", 1)
        bx = dict(zip("xyz", self.block))[d]
        if base not in self.lang.index:
            raise err(f"unknown index intrinsic '{name}'", op, self.lang)
        return self.lang.index[base].format(d=d, bx=bx)

    def math(self, op: S.IntrinsicOp) -> str:
        L = self.lang
        name = op.callee.data
        args = [self.expr(a) for a in op.args]
        t = op.args[0].type
        # gated: f64 transcendentals and the C functions the languages lack are sarek-expand-math's helpers
        assert not isinstance(t, Float64Type) or name in (
            "sqrt", "rsqrt", "floor", "ceil", "trunc", "fabs", "fmin", "fmax", "fma", "abs", "min", "max", "ldexp"), name
        # gated: clz/popcount on 64-bit integers (analysis/features.py: INTRINSIC_GAPS)
        assert not (int_width(t) == 64 and name in ("clz", "popcount")), name
        # integer abs is the select helper: glslang 12 folds abs of an int64_t constant to the constant, and
        # NVIDIA's Vulkan compiler miscompiles a branch on `0 <= -abs(x)` (fuzz seed 201559, measured on the
        # H200: the select spelling is right), as ptxas does abs (seed 202272; CUDA/PTX use a select too)
        if name == "abs" and int_width(t) in (32, 64):
            return f"{self.need_poly('iabs', t)}({', '.join(args)})"
        spelled = L.math.get(f"{name}:64") if int_width(t) == 64 else None
        if (spelled := spelled or L.math.get(name)) is not None:
            return spelled.format(a=args[0], b=args[-1], args=", ".join(args))
        raise err(f"math intrinsic '{name}' has no {self.lang.name} spelling (sarek-expand-math computes it; "
                  "run sarek-pipeline)", op, self.lang)

    # -------------------------------------------------------------------------------- statements

    def stmt(self, out: Block, text: str) -> None:
        out.add_op(self.O["stmt"](text))

    def declare(self, out: Block, scope: Scope, name: str, t: Attribute, value: str | None, op: Operation,
                mutable: bool) -> str:
        T, L = self.ty(t, op), self.lang
        if value is None:
            self.stmt(out, L.var_uninit.format(t=T, n=name))
        else:
            self.stmt(out, (L.var if mutable else L.let).format(t=T, n=name, v=value))
        return name

    def materialize(self, op: Operation, out: Block, scope: Scope, text: str) -> None:
        r = op.results[0]
        n = self.temp(scope)
        if PRECISE in op.attributes and self.lang.precise is not None:
            self.stmt(out, self.lang.precise.format(t=self.ty(r.type, op), n=n, v=text))
        else:
            self.declare(out, scope, n, r.type, text, op, mutable=False)
        self.vals[r] = n
