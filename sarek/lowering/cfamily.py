"""sarek-lower-cfamily{target=cuda|hip|opencl|metal}: the sarek dialect -> the `sarek_c` target dialect.

Every decision the C-family source needs is made here, with the language's spelling table
(sarek/targets/cfamily/languages.py): types and qualifiers, builtin spellings, kernel parameters (a vector
becomes `T* v, int sarek_v_length`; Metal adds buffer slots and its entry builtins), records as typedef
structs, variants as a tag enum + struct with a union + one `make_<T>_<C>` constructor per case (C payload
layout, sarek.analysis.payload), helpers in dependency order, shared arrays hoisted to the kernel's top,
barriers, fences, atomics, math, warp operations, f16 as a storage type (f32 arithmetic, round-to-nearest-even
narrowing through `sarek_f32_barrier`) and per-target `sarek.native` text.

One op per value: every value gets its own `sarek_c.decl` temporary (`sarek_c.temp`, named `sarek_<hint>`)
and every value-if/match an if/switch assigning one (`sarek_c.value`); calls and builtin templates that read
or write memory say so (`sarek_c.effects`, from sarek.analysis.effects). Which temporaries fold into the
expression that uses them is decided after, by `sarek-c-form-expressions`. Binders keep their (legalized)
names.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis import namer
from sarek.analysis.effects import Effect, HelperEffects, op_effect
from sarek.analysis.features import constant_size, native_text
from sarek.analysis.motion import binder_names
from sarek.analysis.shapes import constant_extents, hidden_names, row_major
from sarek.analysis.names import mangle_name
from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect import scalars
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.targets.cfamily import dialect as c
from sarek.targets.cfamily.atomics import FLOAT_OPS, float_atomic_helper
from sarek.targets.cfamily.languages import LANGUAGES, Language

_BINOPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "eq": "==", "ne": "!=", "lt": "<",
           "le": "<=", "gt": ">", "ge": ">=", "and": "&&", "or": "||", "shl": "<<", "shr": ">>", "bitand": "&",
           "bitor": "|", "bitxor": "^"}
_UNOPS = {"neg": "-", "not": "!", "bitnot": "~"}

_EXPR_OPS = (s.ConstantOp, s.BinOp, s.UnOp, s.CastOp, s.BitcastOp, s.IntrinsicOp, s.MakeRecordOp, s.MakeVariantOp,
             s.FieldOp, s.PayloadOp, s.ArrayReadOp, s.ArrayLenOp, s.ArrayDimOp, s.LoadOp, s.CallOp, s.IfExprOp, s.MatchExprOp)
_LOOPS = (s.WhileOp, s.ForOp)
METAL_BUFFER_SLOTS = 31  # [[buffer(0)]] .. [[buffer(30)]]: the Metal argument table of a kernel function


def entry_name(kernel: str, target: str) -> str:
    """The C function name of kernel `kernel` on `target` (what a runtime looks up): sarek.analysis.namer's."""
    return namer.entry_name(kernel, target)


def decl_names(module: ModuleOp) -> tuple[dict[str, str], dict[tuple[str, str], str], dict[tuple[str, str], str],
                                          dict[tuple[str, str], str], dict[tuple[str, str], str]]:
    """The names sarek-legalize-names recorded: per type its typedef name; per (record, field) its member;
    per (variant, constructor) its enum tag, identifier and `make_<T>_<C>` function (a module it did not
    name keeps its own names)."""
    tn: dict[str, str] = {}
    fields: dict[tuple[str, str], str] = {}
    tags: dict[tuple[str, str], str] = {}
    cids: dict[tuple[str, str], str] = {}
    makes: dict[tuple[str, str], str] = {}
    for op in module.ops:
        if isinstance(op, s.RecordOp | s.VariantOp):
            d = op.sym_name.data
            tn[d] = namer.decl_name(op, mangle_name(d))
        if isinstance(op, s.RecordOp):
            names = [n for n, _ in op.fields]
            fields |= {(op.sym_name.data, n): m for n, m in zip(names, namer.names_of(op, namer.FIELD_NAMES, names))}
        elif isinstance(op, s.VariantOp):
            v = op.sym_name.data
            ctors = [cn for cn, _ in op.ctors]
            ids = namer.names_of(op, namer.CTOR_IDS, ctors)
            defaults = [f"make_{tn[v]}_{i}" for i in ids]
            for cn, tag, i, mk in zip(ctors, namer.names_of(op, namer.TAG_NAMES, ctors), ids,
                                      namer.names_of(op, namer.MAKE_NAMES, defaults)):
                tags[v, cn], cids[v, cn], makes[v, cn] = tag, i, mk
    return tn, fields, tags, cids, makes




# ------------------------------------------------------------------------------------------------ the lowering


class CLowering:
    def __init__(self, lang: Language, module: ModuleOp):
        self.lang = lang
        self.module = module
        self.backend = lang.backend
        self.effects = HelperEffects(module)
        self.helpers = self.effects.helpers
        self.decls: dict[str, s.RecordOp | s.VariantOp] = {
            op.sym_name.data: op for op in module.ops if isinstance(op, s.RecordOp | s.VariantOp)}
        self.tnames, self.fnames, self.tags, self.cids, self.makes = decl_names(module)
        self.vals: dict[SSAValue, SSAValue] = {}
        self.lens: dict[SSAValue, SSAValue] = {}
        self.dims: dict[SSAValue, list[SSAValue]] = {}  # the extents passed with an N-dimensional vector
        self.block: Block = Block()
        self.uses_f16 = False
        self.uses_f64 = False
        self.uses_bf16 = False
        self.uses_i64_atomics = False
        self.uses_warp = False
        self.polyfills: list[str] = []
        self.hidden = self._helpers_needing_builtins() if lang.entry_params else set[str]()

    def err(self, msg: str, op: Operation | None) -> SarekError:
        return SarekError(msg, op, self.backend)

    # -------------------------------------------------------------------------------------- types

    def ctype(self, t: Attribute, op: Operation | None = None, storage: bool = False) -> str:
        if is_integer_type(t) or scalars.is_bf16(t):
            key = "i1" if t == s.i1 else cast(str, scalars.name(t))
            if key == "i1" and storage:
                return self.lang.bool_storage
            if key == "bf16":
                self.uses_bf16 = True
            return cast(str, self.lang.types[key])
        if isinstance(t, Float16Type | Float32Type | Float64Type):
            key = {Float16Type: "f16", Float32Type: "f32", Float64Type: "f64"}[type(t)]
            ct = self.lang.types[key]
            assert ct is not None, f"{key} on {self.backend}: refused by the feature gate"
            if key == "f16":
                self.uses_f16 = True
            if key == "f64":
                self.uses_f64 = True
            return ct
        if isinstance(t, s.UnitType):
            return "void"
        if isinstance(t, s.RecordType | s.VariantType):
            return self.tnames.get(t.decl_name, mangle_name(t.decl_name))
        raise self.err(f"type {t} has no {self.backend} spelling here", op)

    def member(self, t: Attribute, name: str) -> str:
        """The C member name of field `name` of record type `t`."""
        return self.fnames.get((t.decl_name, name), name) if isinstance(t, s.RecordType) else name

    def ptr_type(self, t: s.VecType | s.ArrayType, kernel: bool, op: Operation | None) -> str:
        elt = self.ctype(t.element_type, op, storage=True)
        if isinstance(t, s.VecType):
            return (self.lang.kernel_vec if kernel else self.lang.helper_ptr["global"]).format(t=elt)
        return self.lang.helper_ptr[t.memspace.value].format(t=elt)

    # -------------------------------------------------------------------------------------- expression helpers

    def emit(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def lit(self, text: str, ctype: str) -> SSAValue:
        return self.emit(c.LitOp(text, ctype)).results[0]

    def call(self, fn: str, args: Sequence[SSAValue], ctype: str) -> SSAValue:
        return self.emit(c.CallOp(fn, args, ctype)).results[0]

    def tmpl(self, template: str, args: Sequence[SSAValue], ctype: str, effect: Effect = Effect.NONE) -> SSAValue:
        return self.mark(self.emit(c.TemplateOp(template, args, ctype)), effect)

    @staticmethod
    def mark(op: Operation, effect: Effect) -> SSAValue:
        """Say on a call/template what it reads or does, for sarek-c-form-expressions."""
        if effect != Effect.NONE:
            op.attributes[c.EFFECTS] = StringAttr("write" if effect == Effect.WRITE else "read")
        return op.results[0]

    def spell(self, name_or_template: str, args: Sequence[SSAValue], ctype: str) -> SSAValue:
        if "{" in name_or_template:
            return self.tmpl(name_or_template, args, ctype)
        return self.call(name_or_template, args, ctype)

    def to_f32(self, v: SSAValue) -> SSAValue:
        return self.call("__half2float", [v], "float")

    def from_f32(self, v: SSAValue) -> SSAValue:
        return self.call("__float2half", [self.call("sarek_f32_barrier", [v], "float")], "__half")

    def literal(self, op: s.ConstantOp) -> SSAValue:
        t, v = op.result.type, op.value
        if isinstance(t, s.UnitType):
            return self.lit("(void)0", "void")
        ct = self.ctype(t, op)
        if isinstance(v, IntegerAttr):
            n = v.value.data
            if t == s.i1:
                return self.lit(self.lang.true_false[0 if n else 1], ct)
            if scalars.is_unsigned(t) and scalars.int_width(t) >= 32:
                text = f"{n}U{self.lang.int64_suffix if scalars.int_width(t) == 64 else ''}"
            elif is_integer_type(t) and t.width.data == 64:
                text = f"{n}{self.lang.int64_suffix}" if n != -2**63 else f"(-9223372036854775807{self.lang.int64_suffix} - 1)"
            else:
                text = str(n) if n != -2**31 else "(-2147483647 - 1)"
            return self.lit(text, ct)
        x = cast(FloatAttr, v).value.data
        if isinstance(t, Float64Type):
            return self.lit(_float_text(x, ""), ct)
        f32 = self.lit(_float_text(_to_f32(x), "f"), "float")
        if isinstance(t, Float16Type):
            return self.call("__float2half", [f32], "__half")
        return f32

    # -------------------------------------------------------------------------------------- module

    def run(self) -> list[Operation]:
        tops: list[Operation] = []
        types: list[Operation] = []
        for op in self.module.ops:
            if isinstance(op, s.RecordOp):
                types += self.record(op)
            elif isinstance(op, s.VariantOp):
                types += self.variant(op)
        funcs: list[Operation] = []
        for name in self.helper_order():
            funcs.append(self.function(self.helpers[name]))
        for op in self.module.ops:
            if isinstance(op, s.KernelOp):
                funcs.append(self.function(op))
            elif not isinstance(op, s.RecordOp | s.VariantOp | s.HelperOp):
                raise self.err(f"{op.name} cannot appear at module level", op)
        lines = list(self.lang.header)
        if self.uses_f64 and self.lang.target == "opencl":
            lines.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
        if self.uses_i64_atomics:
            lines += ["#ifndef cl_khr_int64_base_atomics",
                      '#error "64-bit atomics (on i64 or f64) need cl_khr_int64_base_atomics, which this OpenCL device '
                      'lacks: use 32-bit elements"',
                      "#endif",
                      "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable",
                      "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable"]
        if self.uses_f16:
            lines += self.lang.f16_preamble
        if self.uses_bf16:
            lines += self.lang.bf16_preamble
        if self.uses_warp:
            lines += self.lang.warp_preamble
        if self.polyfills:
            lines += ["", *self.polyfills]
        if lines:
            tops.append(c.VerbatimOp("\n".join(lines) + "\n"))
        if self.lang.extern_c:
            tops.append(c.VerbatimOp('extern "C" {\n'))
        tops += types + funcs
        if self.lang.extern_c:
            tops.append(c.VerbatimOp('} /* extern "C" */'))
        return tops

    def helper_order(self) -> list[str]:
        """Helpers, callees first, in module order otherwise; recursion is refused."""
        order: list[str] = []
        state: dict[str, int] = {}

        def visit(name: str, site: Operation | None) -> None:
            if state.get(name) == 2:
                return
            assert state.get(name) != 1, f"recursive helper @{name}: refused by the feature gate"
            state[name] = 1
            for o in self.helpers[name].walk():
                if isinstance(o, s.CallOp):
                    visit(o.callee_name, o)
            state[name] = 2
            order.append(name)

        for name in self.helpers:
            visit(name, self.helpers[name])
        return order

    def _helpers_needing_builtins(self) -> set[str]:
        need: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, h in self.helpers.items():
                if name in need:
                    continue
                for o in h.walk():
                    if (isinstance(o, s.IntrinsicOp) and INTRINSICS[o.callee.data].category in (Category.INDEX, Category.WARP)) \
                            or (isinstance(o, s.CallOp) and o.callee_name in need):
                        need.add(name)
                        changed = True
                        break
        return need

    # -------------------------------------------------------------------------------------- types

    def record(self, op: s.RecordOp) -> list[Operation]:
        rn = op.sym_name.data
        st = c.StructOp(self.tnames[rn])
        for n, t in op.fields:
            st.body.block.add_op(c.FieldOp(self.ctype(t, op, storage=True), self.fnames[rn, n]))
        return [st]

    def variant(self, op: s.VariantOp) -> list[Operation]:
        tname = self.tnames[op.sym_name.data]
        ctors = op.ctors
        out: list[Operation] = [c.EnumOp([self.tags[op.sym_name.data, n] for n, _ in ctors], list(range(len(ctors))))]
        st = c.StructOp(tname)
        st.body.block.add_op(c.FieldOp("int", "tag"))
        vn = op.sym_name.data
        if any(ps for _, ps in ctors):
            un = c.UnionOp("data")
            for n, ps in ctors:
                if len(ps) == 1:
                    un.body.block.add_op(c.FieldOp(self.ctype(ps[0], op, storage=True), f"{self.cids[vn, n]}_v"))
                elif ps:
                    ns = c.NestedStructOp(f"{self.cids[vn, n]}_v")
                    for j, t in enumerate(ps):
                        ns.body.block.add_op(c.FieldOp(self.ctype(t, op, storage=True), f"_{j}"))
                    un.body.block.add_op(ns)
            st.body.block.add_op(un)
        out.append(st)
        for i, (n, ps) in enumerate(ctors):
            params = [(self.ctype(t, op), "v" if len(ps) == 1 else f"v{j}", "") for j, t in enumerate(ps)]
            f = c.FuncOp(self.makes[vn, n], self.lang.ctor_prefix, tname, params)
            self.block = f.body.block
            r = self.emit(c.DeclOp(tname, "r")).results[0]
            self.emit(c.AssignOp(self.emit(c.MemberOp(r, "tag", "int")).results[0],
                                 self.lit(self.tags[op.sym_name.data, n], "int")))
            for j, a in enumerate(f.body.block.args):
                place = r
                for fld in payload_fields(PayloadLayout.C, self.cids[vn, n], len(ps), j):
                    place = self.emit(c.MemberOp(place, fld, cast(c.ValType, a.type).text)).results[0]
                self.emit(c.AssignOp(place, a))
            self.emit(c.ReturnOp(r))
            out.append(f)
            del i
        return out

    # -------------------------------------------------------------------------------------- functions

    def function(self, op: s.KernelOp | s.HelperOp) -> c.FuncOp:
        kernel = isinstance(op, s.KernelOp)
        params: list[tuple[str, str, str]] = []
        slot = 0

        def suffix() -> str:
            nonlocal slot
            if not (kernel and self.lang.buffer_slots):
                return ""
            slot += 1
            return f" [[buffer({slot - 1})]]"

        roles: list[tuple[SSAValue | None, str]] = []
        for name, a in op.params:
            if isinstance(a.type, s.VecType | s.ArrayType):
                params.append((self.ptr_type(a.type, kernel, op), name, suffix()))
                roles.append((a, "ptr"))
                if isinstance(a.type, s.VecType):
                    lt = self.lang.kernel_scalar.format(t="int") if kernel else "int"
                    for hn in hidden_names(name, a.type.ndim):
                        params.append((lt, hn, suffix()))
                        roles.append((a, "len" if a.type.ndim == 1 else "dim"))
            else:
                ct = self.ctype(a.type, op, storage=kernel)
                params.append((self.lang.kernel_scalar.format(t=ct) if kernel else ct, name, suffix()))
                roles.append((a, "val"))
        if slot > METAL_BUFFER_SLOTS:
            raise self.err(f"kernel '{op.sym_name.data}' needs {slot} buffer slots (a vector takes two, its data "
                           f"and its length; a scalar one) and Metal's argument table has {METAL_BUFFER_SLOTS}",
                           op)
        hidden = kernel or op.sym_name.data in self.hidden
        if hidden and self.lang.entry_params:
            for t, n, sfx in self.lang.entry_params:
                params.append((t, n, sfx if kernel else ""))
                roles.append((None, "hidden"))
        if kernel:
            f = c.FuncOp(namer.decl_name(op, entry_name(op.sym_name.data, self.lang.target)), self.lang.kernel_prefix,
                         "void", params)
        else:
            h = op
            f = c.FuncOp(h.sym_name.data, self.lang.helper_prefix, self.ctype(h.return_type, op), params)
        for (v, role), carg in zip(roles, f.body.block.args):
            if v is None:
                continue
            if role == "len":
                self.lens[v] = carg
            elif role == "dim":
                self.dims.setdefault(v, []).append(carg)
            elif role in ("ptr", "val"):
                self.vals[v] = carg
        self.used_names = {n for _, n, _ in params} | binder_names(op)
        self.func_block = f.body.block
        self.hoisted = 0
        self.block = f.body.block
        self.lower_block(op.body.block)
        return f

    def fresh(self, hint: str | None) -> str:
        return namer.temporary(hint, self.used_names)

    # -------------------------------------------------------------------------------------- statements

    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.lower_op(op)

    def into(self, target: Block, src: Block) -> None:
        saved = self.block
        self.block = target
        self.lower_block(src)
        self.block = saved

    def lower_op(self, op: Operation) -> None:
        if isinstance(op, _EXPR_OPS):
            if isinstance(op, s.CallOp) and not op.results:
                self.emit(c.EvalOp(self.expr(op)))
                return
            self.expr_op(op)
        elif isinstance(op, s.LetOp | s.LetMutOp):
            init = op.value if isinstance(op, s.LetOp) else op.init
            d = self.emit(c.DeclOp(self.ctype(init.type, op), op.sym.data, self.val(init)))
            self.vals[op.result] = d.results[0]
        elif isinstance(op, s.ElemRefOp):
            self.vals[op.result] = self.emit(c.IndexOp(self.val(op.array), self.flat_index(op), self.elt_ctype(op.array, op))).results[0]
        elif isinstance(op, s.FieldRefOp):
            t = op.result.type.element_type
            bt = cast(s.RefType, op.base.type).element_type
            self.vals[op.result] = self.emit(c.MemberOp(self.val(op.base), self.member(bt, op.field.data),
                                                        self.ctype(t, op))).results[0]
        elif isinstance(op, s.StoreOp):
            self.emit(c.AssignOp(self.val(op.place), self.val(op.value)))
        elif isinstance(op, s.AllocArrayOp):
            self.alloc(op)
        elif isinstance(op, s.IfOp):
            has_else = bool(op.else_region.blocks) and op.else_region.block.first_op is not None
            i = cast(c.IfOp, self.emit(c.IfOp(self.cond_val(op.cond), has_else)))
            self.into(i.then_region.block, op.then_region.block)
            if has_else:
                self.into(i.else_region.block, op.else_region.block)
        elif isinstance(op, s.WhileOp):
            w = cast(c.WhileOp, self.emit(c.WhileOp()))
            saved = self.block
            self.block = w.cond_region.block
            for o in op.cond_region.block.ops:
                if isinstance(o, s.YieldOp):
                    self.emit(c.YieldOp(self.val(o.value)))
                else:
                    self.lower_op(o)
            self.block = saved
            self.into(w.body.block, op.body.block)
        elif isinstance(op, s.ForOp):
            ct = self.ctype(op.lo.type, op)
            step = op.step_value if op.step_value is not None else self.val(op.step_operand)
            f = cast(c.ForOp, self.emit(c.ForOp(ct, op.sym.data, self.val(op.lo), self.val(op.hi), step)))
            self.vals[op.index] = f.body.block.args[0]
            self.into(f.body.block, op.body.block)
        elif isinstance(op, s.MatchOp):
            self.match_stmt(op)
        elif isinstance(op, s.ReturnOp):
            self.emit(c.ReturnOp(self.val(op.value[0]) if op.value else None))
        elif isinstance(op, s.BreakOp):
            self.emit(c.BreakOp())
        elif isinstance(op, s.ContinueOp):
            self.emit(c.ContinueOp())
        elif isinstance(op, s.BlockOp):
            b = cast(c.BlockOp, self.emit(c.BlockOp()))
            self.into(b.body.block, op.body.block)
        elif isinstance(op, s.PragmaOp):
            self.pragma(op)
        elif isinstance(op, s.BarrierOp):
            self.emit(c.EvalOp(self.tmpl(self.lang.barrier, [], "void", Effect.WRITE)))
        elif isinstance(op, s.WarpBarrierOp):
            self.uses_warp = True
            self.emit(c.EvalOp(self.tmpl(self.lang.warp_barrier, [], "void", Effect.WRITE)))
        elif isinstance(op, s.MemFenceOp):
            self.emit(c.EvalOp(self.tmpl(self.lang.mem_fence, [], "void", Effect.WRITE)))
        elif isinstance(op, s.NativeOp):
            text = native_text(op, self.lang.target)
            assert text is not None, "a %native without text for the target: refused by the feature gate"
            self.emit(c.VerbatimOp(text))
        elif isinstance(op, s.YieldOp):
            raise self.err("sarek.yield outside a value region", op)
        else:
            raise self.err(f"{op.name} is not supported by the {self.backend} backend", op)

    def pragma(self, op: s.PragmaOp) -> None:
        text = " ".join(h.data for h in op.hints)
        stmts = [o for o in op.body.block.ops if not (isinstance(o, _EXPR_OPS) and o.results)]
        if len(stmts) == 1 and isinstance(stmts[0], _LOOPS):
            for o in op.body.block.ops:
                if o is stmts[0]:
                    self.emit(c.PragmaOp(text))
                self.lower_op(o)
            return
        b = cast(c.BlockOp, self.emit(c.BlockOp()))
        saved = self.block
        self.block = b.body.block
        for o in op.body.block.ops:
            if isinstance(o, _LOOPS):
                self.emit(c.PragmaOp(text))
            self.lower_op(o)
        self.block = saved

    def alloc(self, op: s.AllocArrayOp) -> None:
        count = constant_size(op)
        assert count is not None, "an array of non-constant size: refused by the feature gate"
        t = op.array_type
        elt = self.ctype(t.element_type, op, storage=True)
        if t.memspace == s.MemSpace.SHARED:
            assert self.func_block.parent_op() is not None and cast(c.FuncOp, self.func_block.parent_op()).prefix.data \
                == self.lang.kernel_prefix, "a shared array in a helper: refused by the feature gate"
            saved = self.block
            self.block = Block()
            n = self.lit(str(count), "int")
            d = c.ArrayDeclOp(self.lang.shared_decl.format(t=elt), op.sym.data, n)
            self.block.add_op(d)
            ops = list(self.block.ops)
            for o in ops:
                o.detach()
            anchor = self.func_block.first_op
            for _ in range(self.hoisted):
                anchor = anchor.next_op if anchor is not None else None
            for o in ops:
                if anchor is None:
                    self.func_block.add_op(o)
                else:
                    self.func_block.insert_op_before(o, anchor)
            self.hoisted += len(ops)
            self.block = saved
        else:
            n = self.lit(str(count), "int")
            d = cast(c.ArrayDeclOp, self.emit(c.ArrayDeclOp(elt, op.sym.data, n, "{0}")))
        self.vals[op.result] = d.result

    def match_stmt(self, op: s.MatchOp) -> None:
        scrut = self.val(op.scrutinee)
        vt = cast(s.VariantType, op.scrutinee.type)
        decl = cast(s.VariantOp, self.decls[vt.decl_name])
        labels = ["" if cn == s.WILDCARD else self.tags[vt.decl_name, cn] for cn, _, _ in op.case_list()]
        sw = cast(c.SwitchOp, self.emit(c.SwitchOp(self.emit(c.MemberOp(scrut, "tag", "int")).results[0], labels)))
        for (cn, binders, region), target in zip(op.case_list(), sw.cases):
            saved = self.block
            self.block = target.block
            for j, (a, bn) in enumerate(zip(region.block.args, binders)):
                if bn == "_" or not list(a.uses):
                    continue
                d = self.emit(c.DeclOp(self.ctype(a.type, op), bn, self.payload(scrut, decl, cn, j)))
                self.vals[a] = d.results[0]
            self.lower_block(region.block)
            self.block = saved

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

    # -------------------------------------------------------------------------------------- expressions

    def val(self, v: SSAValue) -> SSAValue:
        if v not in self.vals:
            raise self.err(f"value {v.name_hint or ''} is used before the backend saw it", v.owner if isinstance(v.owner, Operation) else None)
        return self.vals[v]

    def cond_val(self, v: SSAValue) -> SSAValue:
        return self.val(v)

    def flat_index(self, op: s.ArrayReadOp | s.ElemRefOp) -> SSAValue:
        """The element index of an access: its index, or the row-major offset of an N-dimensional one's
        indices (`(i * n1 + j) * n2 + k`, the extents passed with the vector or the array's constants)."""
        if len(op.indices) == 1:
            return self.val(op.index)
        const = constant_extents(op.array)
        ns = [self.lit(str(n), "int") for n in const] if const is not None else self.dims[op.array]
        it = self.ctype(op.indices[0].type, op)
        return row_major([self.val(x) for x in op.indices], ns, lambda a, b: self.emit(c.BinaryOp("*", a, b, it)).results[0],
                         lambda a, b: self.emit(c.BinaryOp("+", a, b, it)).results[0])

    def elt_ctype(self, arr: SSAValue, op: Operation) -> str:
        return self.ctype(cast(s.VecType, arr.type).element_type, op, storage=True)

    def expr_op(self, op: Operation) -> None:
        """One value, one temporary (sarek-c-form-expressions folds it later); an unused call or effect is
        evaluated for its effect, any other unused value is not printed."""
        v = op.results[0]
        if isinstance(op, s.IfExprOp | s.MatchExprOp):
            self.value_region_stmt(op)
            return
        cv = self.expr(op)
        if list(v.uses):
            d = self.emit(c.DeclOp(self.ctype(v.type, op), self.fresh(v.name_hint), cv))
            d.attributes[c.TEMP] = StringAttr(v.name_hint or "")
            self.vals[v] = d.results[0]
        elif op_effect(op, self.effects) == Effect.WRITE or isinstance(op, s.CallOp):
            self.emit(c.EvalOp(cv))

    def value_region_stmt(self, op: s.IfExprOp | s.MatchExprOp) -> None:
        """`T tmp; if (c) { ...; tmp = a; } else { ...; tmp = b; }` (a switch for a match), marked
        `sarek_c.value` so that sarek-c-form-expressions can make it `(c ? a : b)`."""
        v = op.result
        tmp_decl = self.emit(c.DeclOp(self.ctype(v.type, op), self.fresh(v.name_hint)))
        tmp_decl.attributes[c.TEMP] = StringAttr(v.name_hint or "")
        tmp = tmp_decl.results[0]
        self.vals[v] = tmp

        def arm(target: Block, region_block: Block) -> None:
            saved = self.block
            self.block = target
            for o in region_block.ops:
                if isinstance(o, s.YieldOp):
                    self.emit(c.AssignOp(tmp, self.val(o.value)))
                else:
                    self.lower_op(o)
            self.block = saved

        if isinstance(op, s.IfExprOp):
            i = cast(c.IfOp, self.emit(c.IfOp(self.val(op.cond), True)))
            i.attributes[c.VALUE] = UnitAttr()
            arm(i.then_region.block, op.then_region.block)
            arm(i.else_region.block, op.else_region.block)
            return
        scrut = self.val(op.scrutinee)
        decl = cast(s.VariantOp, self.decls[cast(s.VariantType, op.scrutinee.type).decl_name])
        cases = op.case_list()
        labels = ["" if (cn == s.WILDCARD or k == len(cases) - 1) else self.tags[decl.sym_name.data, cn]
                  for k, (cn, _, _) in enumerate(cases)]
        sw = cast(c.SwitchOp, self.emit(c.SwitchOp(self.emit(c.MemberOp(scrut, "tag", "int")).results[0], labels)))
        sw.attributes[c.VALUE] = UnitAttr()
        for (cn, binders, region), target in zip(cases, sw.cases):
            saved = self.block
            self.block = target.block
            for j, (a, bn) in enumerate(zip(region.block.args, binders)):
                if bn != "_" and list(a.uses):
                    bd = self.emit(c.DeclOp(self.ctype(a.type, op), bn, self.payload(scrut, decl, cn, j)))
                    bd.attributes[c.BINDER] = UnitAttr()
                    self.vals[a] = bd.results[0]
            self.block = saved
            arm(target.block, region.block)

    def expr(self, op: Operation) -> SSAValue:
        """Build the expression of `op` (its operands already lowered) into the current block."""
        if isinstance(op, s.ConstantOp):
            return self.literal(op)
        if isinstance(op, s.BinOp):
            return self.binop(op)
        if isinstance(op, s.UnOp):
            t = op.operand.type
            ct = self.ctype(t, op)
            if isinstance(t, Float16Type):
                return self.from_f32(self.emit(c.UnaryOp("-", self.to_f32(self.val(op.operand)), "float")).results[0])
            return self.emit(c.UnaryOp(_UNOPS[op.op.value], self.val(op.operand), ct)).results[0]
        if isinstance(op, s.CastOp):
            return self.cast(op)
        if isinstance(op, s.BitcastOp):
            src, dst = self.ctype(op.operand.type, op), self.ctype(op.result.type, op)
            if src == dst:
                return self.val(op.operand)
            return self.tmpl(self.lang.bitcast[src, dst], [self.val(op.operand)], dst)
        if isinstance(op, s.IntrinsicOp):
            return self.intrinsic(op)
        if isinstance(op, s.MakeRecordOp):
            rec = cast(s.RecordOp, self.decls[op.record_type.decl_name])
            rn = rec.sym_name.data
            names = [self.fnames[rn, n] for n, _ in rec.fields] if self.lang.record_designated else []
            return self.emit(c.RecordLitOp(self.ctype(op.record_type, op), names, [self.val(x) for x in op.fields])).results[0]
        if isinstance(op, s.MakeVariantOp):
            tn = self.ctype(op.variant_type, op)
            return self.call(self.makes[op.variant_type.decl_name, op.ctor.data], [self.val(x) for x in op.payload],
                             tn)
        if isinstance(op, s.FieldOp):
            return self.emit(c.MemberOp(self.val(op.record), self.member(op.record.type, op.field.data),
                                        self.ctype(op.result.type, op))).results[0]
        if isinstance(op, s.PayloadOp):
            decl = cast(s.VariantOp, self.decls[cast(s.VariantType, op.variant.type).decl_name])
            path = [p.data for p in op.path] if op.path is not None else None
            return self.payload(self.val(op.variant), decl, op.ctor.data, op.index.value.data, path)
        if isinstance(op, s.ArrayReadOp):
            return self.emit(c.IndexOp(self.val(op.array), self.flat_index(op), self.elt_ctype(op.array, op))).results[0]
        if isinstance(op, s.ArrayDimOp):
            return self.dims[op.array][op.dim.data]
        if isinstance(op, s.ArrayLenOp):
            if op.array not in self.lens:
                raise self.err("this vector carries no length here", op)
            return self.lens[op.array]
        if isinstance(op, s.LoadOp):
            return self.val(op.ref)
        if isinstance(op, s.CallOp):
            return self.call_helper(op)
        raise self.err(f"{op.name} is not supported by the {self.backend} backend", op)

    def binop(self, op: s.BinOp) -> SSAValue:
        t = op.lhs.type
        sym = _BINOPS[op.op.value]
        cmp = op.op in s.COMPARISONS
        rt = self.ctype(op.result.type, op)
        a, b = self.val(op.lhs), self.val(op.rhs)
        if isinstance(t, Float16Type):
            r = self.emit(c.BinaryOp(sym, self.to_f32(a), self.to_f32(b), rt if cmp else "float")).results[0]
            return r if cmp else self.from_f32(r)
        return self.emit(c.BinaryOp(sym, a, b, rt)).results[0]

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
            if scalars.is_small_int(dst) or scalars.is_unsigned(dst):
                return self.saturate(f, "float", dst, ct)
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
        if isinstance(src, Float16Type | Float32Type | Float64Type) and (scalars.is_small_int(dst) or scalars.is_unsigned(dst)):
            f = self.to_f32(x) if isinstance(src, Float16Type) else x
            return self.saturate(f, "double" if isinstance(src, Float64Type) else "float", dst, ct)
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

    def saturate(self, x: SSAValue, ft: str, dst: Attribute, ct: str) -> SSAValue:
        """float -> 8/16-bit or unsigned integer, truncating toward zero and saturating, NaN giving 0 (the
        interpreters' conversion; a plain C cast of an out-of-range value is undefined and differs by device),
        through one `sarek_sat_<T>_<float>` helper per pair."""
        name = f"sarek_sat_{scalars.name(dst)}_{ft}"
        lo, hi = scalars.int_range(dst)
        sfx = "f" if ft == "float" else ""
        top = hi + 1  # a power of two, exact in every float type
        his = f"{hi}U{self.lang.int64_suffix}" if hi >= 1 << 32 else f"{hi}U" if hi >= 1 << 31 else str(hi)
        text = (f"{self.lang.inline_prefix} {ct} {name}({ft} x) {{ return x != x ? ({ct})0 : x <= {float(lo)!r}{sfx} ? "
                f"({ct}){lo} : x >= {float(top)!r}{sfx} ? ({ct}){his} : ({ct})x; }}")
        if text not in self.polyfills:
            self.polyfills.append(text)
        return self.call(name, [x], ct)

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
            if isinstance(t, Float16Type):
                f = self.math(name, "float", [self.to_f32(a) for a in args], op)
                return self.from_f32(f)
            return self.math(name, rt, args, op)
        if info.category == Category.ATOMIC:
            return self.atomic(op, name, args, rt)
        self.uses_warp = True
        if name == "lane_id":
            return self.tmpl(self.lang.lane_id, [], "int")
        if name == "warp_size":
            return self.tmpl(self.lang.warp_size, [], "int")
        if name == "warp_shuffle" and "sarek.lane_in_range" in op.attributes:
            return self.tmpl(self.lang.shuffle, args, rt, Effect.WRITE)
        raise self.err(f"'{name}' must be lowered by sarek-lower-warp before the {self.backend} lowering", op)

    def math(self, name: str, ct: str, args: list[SSAValue], op: Operation) -> SSAValue:
        if name == "abs" and ct in self.lang.int_abs_select:  # the ptxas bug (Language.int_abs_select)
            x = args[0]
            neg = self.emit(c.BinaryOp("<", x, self.lit("0", ct), "int")).results[0]
            minus = self.emit(c.UnaryOp("-", x, ct)).results[0]
            return self.emit(c.SelectOp(neg, minus, x, ct)).results[0]
        spelled = self.lang.math(name, ct)
        if spelled is None or (self.polyfill(spelled) and ct != "float"):
            raise self.err(f"'{name}' on {ct} is not supported", op)
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
        if rt in ("long", "double") and self.lang.target == "opencl":
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


def _to_f32(x: float) -> float:
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _float_text(x: float, suffix: str) -> str:
    """Shortest text that reads back as the same f32 (suffix f) or f64 value."""
    if math.isnan(x):
        return f"(0.0{suffix} / 0.0{suffix})"
    if math.isinf(x):
        return f"({'-' if x < 0 else ''}1.0{suffix} / 0.0{suffix})"
    if suffix == "f":
        import numpy as np

        r = repr(float(np.float32(x))) if float(np.float32(x)) == x else repr(x)
        r = np.format_float_positional(np.float32(x), unique=True, trim="0") if "e" not in r else \
            np.format_float_scientific(np.float32(x), unique=True, trim="0")
    else:
        r = repr(x)
    if r.endswith("."):
        r += "0"
    if "." not in r and "e" not in r and "inf" not in r:
        r += ".0"
    return r + suffix


@dataclass(frozen=True)
class LowerCFamilyPass(ModulePass):
    """Lower the sarek dialect to the sarek_c target dialect (CUDA, HIP, OpenCL C or Metal spellings).

    Options: `target` (cuda, hip, opencl, metal). Expects the passes of `sarek-pipeline{target=...}` to have
    run before (feature gate, type order, payload substitution, legal names, warp lowering); every value gets
    a temporary, folded into expressions by `sarek-c-form-expressions` after.
    """

    name = "sarek-lower-cfamily"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lang = LANGUAGES.get(self.target)
        if lang is None:
            raise SarekError(f"sarek-lower-cfamily: unknown target '{self.target}' (known: {', '.join(LANGUAGES)})")
        tops = CLowering(lang, op).run()
        for o in list(op.body.block.ops):
            o.detach()
            o.erase(safe_erase=False)
        for t in tops:
            op.body.block.add_op(t)
