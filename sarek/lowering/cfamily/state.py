"""C-family lowering, state and helpers: the names of declarations, `CBase` (the language, the module's
helpers, effects and names; C types; emitting values, templates, literals; temporaries)."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from sarek.analysis import namer
from sarek.analysis.effects import Effect, HelperEffects
from sarek.analysis.names import mangle_name
from sarek.diagnostics import SarekError
from sarek.dialect import scalars
from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.targets.cfamily import dialect as c
from sarek.targets.cfamily.languages import Language


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


class CBase:
    """The state of lowering one module and what every concern uses."""

    # the function being lowered, set by `CLowering.function`: its names, its body, shared arrays hoisted there
    used_names: namer.TakenNames
    func_block: Block
    hoisted: int
    hoisted_window: bool  # the dynamic shared-memory window is declared (sarek.analysis.shared_window)

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
        self.uses_grid = False  # a grid barrier: the language's grid_preamble
        self.uses_vote = False
        self.polyfills: list[str] = []
        self.type_helpers: list[str] = []  # helper functions over the declared types (printed after them)
        self.constant_tables: list[str] = []  # module-scope constant arrays (sarek-constant-tables)
        self.hidden = self._helpers_needing_builtins() if lang.entry_params else set[str]()

    def err(self, msg: str, op: Operation | None) -> SarekError:
        return SarekError(msg, op, self.backend)

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

    def literal_text(self, t: Attribute, v: Attribute) -> str:
        """The C spelling of a bool, integer or float constant (an f16 one as its float)."""
        if isinstance(v, IntegerAttr):
            n = v.value.data
            if t == s.i1:
                return self.lang.true_false[0 if n else 1]
            if scalars.is_unsigned(t) and scalars.int_width(t) >= 32:
                return f"{n}U{self.lang.int64_suffix if scalars.int_width(t) == 64 else ''}"
            if is_integer_type(t) and t.width.data == 64:
                return f"{n}{self.lang.int64_suffix}" if n != -2**63 else f"(-9223372036854775807{self.lang.int64_suffix} - 1)"
            return str(n) if n != -2**31 else "(-2147483647 - 1)"
        x = cast(FloatAttr, v).value.data
        if isinstance(t, Float64Type):
            return _float_text(x, "")
        return _float_text(_to_f32(x), "f")

    def literal(self, op: s.ConstantOp) -> SSAValue:
        t, v = op.result.type, op.value
        if isinstance(t, s.UnitType):
            return self.lit("(void)0", "void")
        if isinstance(t, Float16Type):
            return self.call("__float2half", [self.lit(self.literal_text(t, v), "float")], "__half")
        return self.lit(self.literal_text(t, v), "float" if isinstance(v, FloatAttr) and not isinstance(t, Float64Type)
                        else self.ctype(t, op))

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

    def fresh(self, hint: str | None) -> str:
        return namer.temporary(hint, self.used_names)

    def val(self, v: SSAValue) -> SSAValue:
        if v not in self.vals:
            raise self.err(f"value {v.name_hint or ''} is used before the backend saw it", v.owner if isinstance(v.owner, Operation) else None)
        return self.vals[v]

    def cond_val(self, v: SSAValue) -> SSAValue:
        return self.val(v)


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
