"""C-family lowering, expressions: flat indices, the value of each expression op (operators, casts with
saturation, intrinsics, math and polyfills, atomics, helper calls, variant payload reads)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis.effects import Effect
from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.analysis.shapes import constant_extents, row_major
from sarek.dialect import scalars
from sarek.dialect import sarek as s
from sarek.dialect.optable import OpTable
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.lowering.cfamily.state import CBase
from sarek.lowering.divide import may_overflow
from sarek.passes.wide_vector_access import WIDE
from sarek.targets.cfamily import dialect as c
from sarek.targets.cfamily.atomics import FLOAT_OPS, float_atomic_helper


_BINOPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "eq": "==", "ne": "!=", "lt": "<",
           "le": "<=", "gt": ">", "ge": ">=", "and": "&&", "or": "||", "shl": "<<", "shr": ">>", "bitand": "&",
           "bitor": "|", "bitxor": "^"}


_UNOPS = {"neg": "-", "not": "!", "bitnot": "~"}

#: expression op type -> the `CExpressions` method building its value, `(self, op) -> SSAValue`: one entry per
#: op, stated by `@values(Op)` on the method; `expr` dispatches on the op's exact type
values = OpTable[Callable[..., SSAValue]]("C expressions")
_VALUE = values.entries


class CExpressions(CBase):
    """Lowers expression ops to `sarek_c` values."""

    def payload(self, scrut: SSAValue, decl: s.VariantOp, ctor: str, j: int,
                path: Sequence[str] | None = None) -> SSAValue:
        if ctor == s.WILDCARD:
            return scrut
        ps = cast(list[Attribute], decl.payload(ctor))
        v = scrut
        cid = self.cids[decl.sym_name.data, ctor]
        if path is not None:  # sarek-subst-match-payloads spells the member `<ctor>_v`
            chain = [f"{cid}_v" if p == f"{ctor}_v" else p for p in path]
        else:
            chain = payload_fields(PayloadLayout.C, cid, len(ps), j)
        for k, fld in enumerate(chain):
            ct = self.ctype(ps[j], None) if k == len(chain) - 1 else "struct"
            v = self.emit(c.MemberOp(v, fld, ct)).results[0]
        return v

    def flat_index(self, op: s.ArrayReadOp | s.ElemRefOp) -> SSAValue:
        """The element index of an access: its index, or the row-major offset of an N-dimensional one's
        indices (`(i * n1 + j) * n2 + k`, the extents passed with the vector or the array's constants)."""
        return self.flat_of(op.array, list(op.indices), op)

    def flat_of(self, array: SSAValue, indices: Sequence[SSAValue], op: Operation) -> SSAValue:
        """`flat_index` of element `indices` of `array` (`op` locates errors)."""
        if len(indices) == 1:
            return self.val(indices[0])
        const = constant_extents(array)
        ns = [self.lit(str(n), "int") for n in const] if const is not None else self.dims[array]
        idx = [self.val(x) for x in indices]
        it = self.ctype(indices[0].type, op)
        if const is None:  # a vector's extents are i32 each, their product is not: the offset in 64 bits
            it = self.ctype(i64, op)
            if indices[0].type != i64:
                idx[0] = self.emit(c.CastOp(idx[0], it)).results[0]
        return row_major(idx, ns, lambda a, b: self.emit(c.BinaryOp("*", a, b, it)).results[0],
                         lambda a, b: self.emit(c.BinaryOp("+", a, b, it)).results[0])

    def wide_helper(self, op: Operation, arr: SSAValue, kind: str) -> str | None:
        """The helper moving a whole element marked by sarek-wide-vector-access in one `bits`-wide access
        (`sarek_ld128_f32x4(&x[i])`, `sarek_st128_f32x4(&y[i], v)`: the element's address read or written as
        the language's unsigned vector of that width, through a union), defined once after the types; None
        when the access is not marked or the language has no carrier of that width."""
        bits = op.attributes.get(WIDE)
        carrier = self.lang.wide_carrier.get(cast(IntegerAttr, bits).value.data) if bits is not None else None
        if bits is None or carrier is None:
            return None
        et = self.elt_ctype(arr, op)
        name = f"sarek_{kind}{cast(IntegerAttr, bits).value.data}_{et}"
        ptr, cptr = (self.lang.helper_ptr["global"].format(t=x) for x in (et, carrier))
        union = f"union {{ {carrier} v; {et} t; }} u;"
        text = (f"{self.lang.inline_prefix} {et} {name}({ptr} p) {{ {union} u.v = *({cptr})p; return u.t; }}"
                if kind == "ld" else
                f"{self.lang.inline_prefix} void {name}({ptr} p, {et} t) {{ {union} u.t = t; *({cptr})p = u.v; }}")
        if text not in self.type_helpers:
            self.type_helpers.append(text)
        return name

    def element_address(self, op: s.ArrayReadOp | s.ElemRefOp) -> SSAValue:
        """`&a[i]` of an element access."""
        place = self.emit(c.IndexOp(self.val(op.array), self.flat_index(op), self.elt_ctype(op.array, op))).results[0]
        return self.tmpl("&{0}", [place], self.lang.helper_ptr["global"].format(t=self.elt_ctype(op.array, op)))

    def elt_ctype(self, arr: SSAValue, op: Operation) -> str:
        return self.ctype(cast(s.VecType, arr.type).element_type, op, storage=True)

    def expr(self, op: Operation) -> SSAValue:
        """Build the expression of `op` (its operands already lowered) into the current block, through its entry
        in the table of `@values` methods."""
        if (f := _VALUE.get(type(op))) is not None:
            return f(self, op)
        raise self.err(f"{op.name} is not supported by the {self.backend} backend", op)

    @values(s.ConstantOp)
    def constant(self, op: s.ConstantOp) -> SSAValue:
        return self.literal(op)

    @values(s.UnOp)
    def unop(self, op: s.UnOp) -> SSAValue:
        t = op.operand.type
        ct = self.ctype(t, op)
        if isinstance(t, Float16Type):
            return self.from_f32(self.emit(c.UnaryOp("-", self.to_f32(self.val(op.operand)), "float")).results[0])
        return self.emit(c.UnaryOp(_UNOPS[op.op.value], self.val(op.operand), ct)).results[0]

    @values(s.BitcastOp)
    def bitcast(self, op: s.BitcastOp) -> SSAValue:
        src, dst = self.ctype(op.operand.type, op), self.ctype(op.result.type, op)
        if src == dst:
            return self.val(op.operand)
        return self.tmpl(self.lang.bitcast[src, dst], [self.val(op.operand)], dst)

    @values(s.MakeRecordOp)
    def make_record(self, op: s.MakeRecordOp) -> SSAValue:
        rec = cast(s.RecordOp, self.decls[op.record_type.decl_name])
        rn = rec.sym_name.data
        names = [self.fnames[rn, n] for n, _ in rec.fields] if self.lang.record_designated else []
        return self.emit(c.RecordLitOp(self.ctype(op.record_type, op), names, [self.val(x) for x in op.fields])).results[0]

    @values(s.MakeVariantOp)
    def make_variant(self, op: s.MakeVariantOp) -> SSAValue:
        tn = self.ctype(op.variant_type, op)
        return self.call(self.makes[op.variant_type.decl_name, op.ctor.data], [self.val(x) for x in op.payload], tn)

    @values(s.FieldOp)
    def field(self, op: s.FieldOp) -> SSAValue:
        return self.emit(c.MemberOp(self.val(op.record), self.member(op.record.type, op.field.data),
                                    self.ctype(op.result.type, op))).results[0]

    @values(s.PayloadOp)
    def payload_of(self, op: s.PayloadOp) -> SSAValue:
        decl = cast(s.VariantOp, self.decls[cast(s.VariantType, op.variant.type).decl_name])
        path = [p.data for p in op.path] if op.path is not None else None
        return self.payload(self.val(op.variant), decl, op.ctor.data, op.index.value.data, path)

    @values(s.ArrayReadOp)
    def array_read(self, op: s.ArrayReadOp) -> SSAValue:
        if (wide := self.wide_helper(op, op.array, "ld")) is not None:
            return self.mark(self.emit(c.CallOp(wide, [self.element_address(op)], self.elt_ctype(op.array, op))),
                             Effect.READ)
        return self.emit(c.IndexOp(self.val(op.array), self.flat_index(op), self.elt_ctype(op.array, op))).results[0]

    @values(s.ArrayDimOp)
    def array_dim(self, op: s.ArrayDimOp) -> SSAValue:
        return self.dims[op.array][op.dim.data]

    @values(s.ArrayLenOp)
    def array_len(self, op: s.ArrayLenOp) -> SSAValue:
        if op.array not in self.lens:
            raise self.err("this vector carries no length here", op)
        return self.lens[op.array]

    @values(s.LoadOp)
    def load(self, op: s.LoadOp) -> SSAValue:
        return self.val(op.ref)

    @values(s.BinOp)
    def binop(self, op: s.BinOp) -> SSAValue:
        t = op.lhs.type
        sym = _BINOPS[op.op.value]
        cmp = op.op in s.COMPARISONS
        rt = self.ctype(op.result.type, op)
        a, b = self.val(op.lhs), self.val(op.rhs)
        if isinstance(t, Float16Type):
            r = self.emit(c.BinaryOp(sym, self.to_f32(a), self.to_f32(b), rt if cmp else "float")).results[0]
            return r if cmp else self.from_f32(r)
        if op.op.value in ("div", "rem") and scalars.is_signed(t) and may_overflow(op.rhs):
            return self.call(self.signed_division(op.op.value, t, rt), [a, b], rt)
        return self.emit(c.BinaryOp(sym, a, b, rt)).results[0]

    def signed_division(self, kind: str, t: Attribute, ct: str) -> str:
        """`sarek_div_<T>` / `sarek_rem_<T>`: C's truncating `/` and `%` with the wrapping answer where C's is
        undefined, INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (pocl gave -1; x86 traps), as the interpreters
        and the other targets compute; used where the divisor may be -1 (sarek.lowering.divide.may_overflow)."""
        name = f"sarek_{kind}_{scalars.name(t)}"
        ut = self.lang.types[f"u{scalars.int_width(t)}"]
        if kind == "div":
            body = f"return b == -1 ? ({ct})(({ut})0 - ({ut})a) : a / b;"
        else:
            body = "return b == -1 ? 0 : a % b;"
        text = f"{self.lang.inline_prefix} {ct} {name}({ct} a, {ct} b) {{ {body} }}"
        if text not in self.polyfills:
            self.polyfills.append(text)
        return name

    @values(s.CastOp)
    def cast(self, op: s.CastOp) -> SSAValue:
        src, dst = op.operand.type, op.result.type
        x = self.val(op.operand)
        ct = self.ctype(dst, op)
        self.ctype(src, op)
        if src == dst:
            return x
        if scalars.is_bf16(src):  # widen exactly to f32, then convert that
            f = self.call("sarek_bf16_to_f32", [x], "float")
            if isinstance(dst, Float32Type):
                return f
            if dst == s.i1:
                return self.emit(c.BinaryOp("!=", f, self.lit("0.0f", "float"), ct)).results[0]
            if is_integer_type(dst):
                return self.float_to_int(f, "float", dst, ct)
            return self.from_f32(f) if isinstance(dst, Float16Type) else self.emit(c.CastOp(f, ct)).results[0]
        if scalars.is_bf16(dst):  # through f32 (an f64 or a wide integer rounds twice, as in the interpreter)
            f = x if isinstance(src, Float32Type) else self.to_f32(x) if isinstance(src, Float16Type) \
                else self.emit(c.CastOp(x, "float")).results[0]
            return self.call("sarek_f32_to_bf16", [f], ct)
        if dst == s.i1:
            zero = self.lit("0", self.ctype(src, op)) if not isinstance(src, Float16Type) else None
            if zero is None:
                x, zero = self.to_f32(x), self.lit("0.0f", "float")
            return self.emit(c.BinaryOp("!=", x, zero, ct)).results[0]
        if isinstance(src, Float16Type | Float32Type | Float64Type) and is_integer_type(dst):
            f = self.to_f32(x) if isinstance(src, Float16Type) else x
            return self.float_to_int(f, "double" if isinstance(src, Float64Type) else "float", dst, ct)
        if isinstance(src, Float16Type):
            f = self.to_f32(x)
            return f if isinstance(dst, Float32Type) else self.emit(c.CastOp(f, ct)).results[0]
        if isinstance(dst, Float16Type):
            if isinstance(src, Float64Type):
                return self.call("__double2half", [x], "__half")
            if is_integer_type(src) and src.width.data in (32, 64):
                fn = {(32, False): "__int2half_rn", (64, False): "__ll2half_rn", (32, True): "__uint2half_rn",
                      (64, True): "__ull2half_rn"}[src.width.data, scalars.is_unsigned(src)]
                return self.call(fn, [x], "__half")
            f = x if isinstance(src, Float32Type) else self.emit(c.CastOp(x, "float")).results[0]
            return self.from_f32(f)
        return self.emit(c.CastOp(x, ct)).results[0]

    def float_to_int(self, x: SSAValue, ft: str, dst: Attribute, ct: str) -> SSAValue:
        """float (C type `ft`) -> integer as documented: truncating toward zero, saturating to dst's range, NaN
        giving 0 (the interpreters' conversion). The language's exact conversion where it has one
        (Language.float_to_int: CUDA's __float2int_rz, OpenCL's convert_int_sat_rtz), else one
        `sarek_sat_<T>_<float>` helper per pair that compares with the range's bounds (powers of two, exact in
        every float type) before a cast of an in-range value: a plain C cast of an out-of-range value is
        undefined and differs by device."""
        native = self.lang.float_to_int.get((ft, ct))
        if native is not None:
            return self.call(native, [x], ct)
        name = f"sarek_sat_{scalars.name(dst)}_{ft}"
        lo, hi = scalars.int_range(dst)
        sfx = "f" if ft == "float" else ""
        top = hi + 1  # a power of two, exact in every float type
        his = f"{hi}U{self.lang.int64_suffix}" if hi >= 1 << 32 else f"{hi}U" if hi >= 1 << 31 else str(hi)
        los = f"({-hi}{self.lang.int64_suffix if hi >= 1 << 31 else ''} - 1)" if lo else "0"  # C has no INT_MIN literal
        text = (f"{self.lang.inline_prefix} {ct} {name}({ft} x) {{ return x != x ? ({ct})0 : x <= {float(lo)!r}{sfx} ? "
                f"({ct}){los} : x >= {float(top)!r}{sfx} ? ({ct}){his} : ({ct})x; }}")
        if text not in self.polyfills:
            self.polyfills.append(text)
        return self.call(name, [x], ct)

    @values(s.IntrinsicOp)
    def intrinsic(self, op: s.IntrinsicOp) -> SSAValue:
        name = _alias(op.callee.data)
        info = INTRINSICS[op.callee.data]
        rt = self.ctype(op.result.type, op)
        args = [self.val(a) for a in op.args]
        if info.category == Category.INDEX:
            tmpl = self.lang.builtins.get(name)
            if tmpl is None:
                raise self.err(f"unknown intrinsic '{name}'", op)
            # a name-like builtin (`threadIdx.x`, `get_local_id(0)`) is printed like a name, at every use
            return self.lit(tmpl, "int") if " " not in tmpl else self.tmpl(tmpl, [], "int")
        if info.category == Category.MATH:
            t = op.args[0].type
            if isinstance(t, Float16Type):  # the f16 operands widened (ldexp's exponent is an int)
                wide = [self.to_f32(a) if isinstance(o.type, Float16Type) else a for a, o in zip(args, op.args)]
                f = self.math(name, "float", wide, op)
                return self.from_f32(f)
            return self.math(name, rt, args, op)
        if info.category == Category.ATOMIC:
            return self.atomic(op, name, args, rt)
        if info.category == Category.BLOCK:
            if name not in self.lang.block_vote:
                raise self.err(f"'{name}' must be expanded by sarek-expand-block-votes before the {self.backend} "
                               "lowering", op)
            return self.tmpl(self.lang.block_vote[name], args, rt, Effect.WRITE)
        self.uses_warp = True
        if name == "lane_id":
            return self.tmpl(self.lang.lane_id, [], "int")
        if name == "warp_size":
            return self.tmpl(self.lang.warp_size, [], "int")
        if name == "warp_shuffle" and "sarek.lane_in_range" in op.attributes:
            return self.tmpl(self.lang.shuffle, args, rt, Effect.WRITE)
        if name in self.lang.vote:
            self.uses_vote = True
            return self.tmpl(self.lang.vote[name], args, rt, Effect.WRITE)
        raise self.err(f"'{name}' must be lowered by sarek-lower-warp before the {self.backend} lowering", op)

    def math(self, name: str, ct: str, args: list[SSAValue], op: Operation) -> SSAValue:
        if name == "abs" and ct in self.lang.int_abs_select:  # the ptxas bug (Language.int_abs_select)
            x = args[0]
            neg = self.emit(c.BinaryOp("<", x, self.lit("0", ct), "int")).results[0]
            minus = self.emit(c.UnaryOp("-", x, ct)).results[0]
            return self.emit(c.SelectOp(neg, minus, x, ct)).results[0]
        spelled = self.lang.math(name, ct)
        if spelled is None:
            raise self.err(f"'{name}' on {ct} is not supported", op)
        self.polyfill(spelled)  # a function of sarek's the language lacks (OpenCL's bit reversal)
        return self.spell(spelled, args, ct)

    def polyfill(self, spelled: str) -> bool:
        """Add the definitions of the language's polyfilled functions `spelled` calls; True if any."""
        used = False
        for fn, text in self.lang.polyfills.items():
            if fn + "(" in spelled or spelled == fn:
                used = True
                if text not in self.polyfills:
                    self.polyfills.append(text)
        return used

    def atomic(self, op: s.IntrinsicOp, name: str, args: list[SSAValue], rt: str) -> SSAValue:
        arr_t = cast(s.VecType | s.ArrayType, op.args[0].type)
        space = "global" if isinstance(arr_t, s.VecType) else arr_t.memspace.value
        tmpl = self.lang.atomic(name, rt, space)
        if tmpl is None and rt in self.lang.float_cas and name in FLOAT_OPS:
            tmpl, args = self.float_atomic(name, rt, space, args)
        assert tmpl is not None, f"'{name}' on {arr_t.element_type}: refused by the feature gate (ATOMIC_GAPS)"
        self.polyfill(tmpl)
        if rt in ("long", "ulong", "double"):
            self.uses_i64_atomics = True
        place = self.emit(c.IndexOp(args[0], args[1], rt)).results[0]
        return self.tmpl(tmpl, [place, *args[2:]], rt, Effect.WRITE)

    def float_atomic(self, name: str, rt: str, space: str, args: list[SSAValue]) -> tuple[str, list[SSAValue]]:
        """A float atomic the language lacks: a call of its compare-and-swap loop helper
        (sarek.targets.cfamily.atomics; inc/dec are add/sub of one)."""
        op = name.removeprefix("atomic_")
        if op in ("inc", "dec"):
            op = "add" if op == "inc" else "sub"
            args = [*args, self.lit("1.0f" if rt == "float" else "1.0", rt)]
        fn, text = float_atomic_helper(self.lang, op, rt, space)
        self.polyfill(text)
        if text not in self.polyfills:
            self.polyfills.append(text)
        return f"{fn}(&{{0}}, {{1}}{', {2}' if op == 'cas' else ''})", args

    @values(s.CallOp)
    def call_helper(self, op: s.CallOp) -> SSAValue:
        args: list[SSAValue] = []
        for a in op.args:
            args.append(self.val(a))
            if isinstance(a.type, s.VecType):
                args += [self.lens[a]] if a.type.ndim == 1 else self.dims[a]
        if op.callee_name in self.hidden:
            for t, n, _ in self.lang.entry_params:
                args.append(self.lit(n, t))
        rt = self.ctype(op.res[0].type, op) if op.res else "void"
        return self.mark(self.emit(c.CallOp(op.callee_name, args, rt)), self.effects.of(op.callee_name))


def _alias(name: str) -> str:
    return {"global_thread_id": "global_idx_x", "global_size": "global_size_x"}.get(name, name)
