"""Module-scope declarations (records, variants, constructor functions), element layouts (sarek.analysis.layout's)
and whole-kernel analyses."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    Float16Type,
    IntegerType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis import namer, shader_names
from sarek.analysis.layout import LayoutError, StorageLayout, storage_layout
from sarek.analysis.type_order import sort_type_decls
from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.lowering.shader.language import err
from sarek.lowering.shader.state import LoweringState, int_width, scalar_key


class Declarations(LoweringState):
    """Type declarations in dependency order, layouts, the type gate and the collections made before lowering."""

    def decl_types(self) -> None:
        """Records and variants in dependency order (records first on ties: sarek.analysis.type_order, the
        order-type-decls pass's rule), with constructor functions."""
        placed = sort_type_decls([*self.records.values(), *self.variants.values()])
        for o in placed:
            if isinstance(o, S.RecordOp):
                self.decl_record(o)
            else:
                self.decl_variant(o)

    def interface_names(self) -> tuple[list[str], list[list[str]], list[str]]:
        """The kernel's buffers, their lengths or extents and its scalar parameters, as recorded
        (sarek.analysis.shader_names)."""
        return shader_names.kernel_interface(self.kernel)

    def fdecl(self, name: str, t: Attribute, op: Operation | None) -> str:
        return self.lang.field.format(t=self.ty(t, op), n=name)

    def decl_record(self, r: S.RecordOp) -> None:
        nm = self.type_name(r.sym_name.data)
        fields = [self.fdecl(self.field_name(r.sym_name.data, f), t, r) for f, t in r.fields]
        self.struct_ops.append(self.O["struct"](nm, fields))

    def decl_variant(self, v: S.VariantOp) -> None:
        vn = v.sym_name.data
        nm = self.type_name(vn)
        fields = [self.fdecl("tag", IntegerType(32), v)]
        for c, ps in v.ctors:
            if len(ps) == 1:
                fields.append(self.fdecl(self.payload_path(vn, c, 1, 0), ps[0], v))
            elif len(ps) > 1:
                if self.nested_payloads:
                    pn = self.payload_struct(vn, c)
                    self.struct_ops.append(self.O["struct"](pn, [self.fdecl(f"_{i}", p, v) for i, p in enumerate(ps)]))
                    fields.append(self.lang.field.format(t=pn, n=f"{self.ctor_id(vn, c)}_v"))
                else:
                    fields.extend(self.fdecl(self.payload_path(vn, c, len(ps), i), p, v) for i, p in enumerate(ps))
        self.struct_ops.append(self.O["struct"](nm, fields))
        vt = S.VariantType(vn)
        for c, ps in v.ctors:
            fn = self.ctor_name(namer.MAKE_NAMES, vn, c)
            params = [self.fdecl(f"v{i}", p, v) for i, p in enumerate(ps)]
            L = self.lang
            sig = L.func.format(r=nm, n=fn, p=", ".join(params))
            r = L.var_uninit.format(t=nm, n="r") if L.locals_zeroed else L.var.format(t=nm, n="r", v=self.zero(vt))
            body = [r, f"r.tag = {self.tag_const(vn, c)}"]
            for i in range(len(ps)):
                body.append(f"r.{self.payload_path(vn, c, len(ps), i)} = v{i}")
            body.append("return r")
            f = self.O["func"](sig)
            for s in body:
                f.regions[0].block.add_op(self.O["stmt"](s))
            self.ctor_funcs.append(f)

    # ---- element layouts (sarek.analysis.layout's: host aligned C vs device)

    def layout(self, t: Attribute, op: Operation | None) -> StorageLayout:
        """The host and device layout of a buffer element or by-value parameter of type `t`."""
        try:
            return storage_layout(self.module, t, self.lang.payload)
        except LayoutError as e:
            raise err(e.message, op, self.lang) from None

    # -------------------------------------------------------------------------------- analysis

    def check_features(self) -> None:
        """Whole-kernel type gate (kernel, reachable helpers, declarations)."""
        types: list[tuple[Attribute, Operation]] = []
        for d in [*self.records.values(), *self.variants.values()]:
            if isinstance(d, S.RecordOp):
                types += [(t, d) for _, t in d.fields]
            else:
                types += [(t, d) for _, ps in d.ctors for t in ps]
        funcs: list[Operation] = [self.kernel, *self.reachable_helpers()]
        for f in funcs:
            if isinstance(f, S.HelperOp):
                types.append((f.return_type, f))
            for op in f.walk():
                for r in op.results:
                    types.append((r.type, op))
                for reg in op.regions:
                    for b in reg.blocks:
                        types += [(a.type, op) for a in b.args]
                # gated (analysis/features.py: Feature.NATIVE; Feature.COOPMAT but on GLSL)
                assert not isinstance(op, S.NativeOp) and (self.lang.name == "glsl" or not isinstance(
                    op, S.COOPMAT_OPS)), op.name
        for t, op in types:
            while isinstance(t, S.VecType | S.ArrayType | S.RefType):
                t = t.element_type
            # gated: FLOAT16, FLOAT64/INT64 on WGSL, UINT8 (analysis/features.py); only the features are collected
            assert not isinstance(t, Float16Type) and int_width(t) != 8, t
            key = scalar_key(t)
            if key in ("f64", "i64", "u64"):
                assert self.lang.scalar[key] is not None, key
                self.features.add("shader-f64" if key == "f64" else "shader-int64")

    def reachable_helpers(self) -> list[S.HelperOp]:
        for f in [self.kernel, *self.helpers.values()]:
            for op in f.walk():
                if isinstance(op, S.CallOp) and op.callee_name not in self.helpers:
                    raise err(f"call of an undeclared helper @{op.callee_name}", op, self.lang)
        return shader_names.reachable_helpers(self.kernel, self.helpers)

    def collect_source_names(self) -> None:
        for f in [self.kernel, *self.helpers.values()]:
            self.all_source_names.update(n.data for n in f.param_names)
            for op in f.walk():
                n: object = getattr(op.properties.get("name"), "data", None)
                if isinstance(n, str):
                    self.all_source_names.add(n)
                if isinstance(op, S.MatchOp | S.MatchExprOp):
                    for _, bs, _ in op.case_list():
                        self.all_source_names.update(bs)

    def collect_atomics(self) -> None:
        """Names of buffers/shared arrays used as an atomic target, resolved through helper calls."""

        def walk(f: Operation, env: dict[SSAValue, str]) -> None:
            for op in f.walk():
                if isinstance(op, S.IntrinsicOp) and INTRINSICS[op.callee.data].category == Category.ATOMIC:
                    base = op.args[0]
                    if base in env:
                        self.atomic_storage.add(env[base])
                        self.atomic_names.setdefault(env[base], set()).add(op.callee.data)
                elif isinstance(op, S.AllocArrayOp):
                    env[op.result] = f"alloc:{id(op)}"
                elif isinstance(op, S.CallOp):
                    h = self.helpers[op.callee_name]
                    if h.sym_name.data in stack:
                        continue
                    sub: dict[SSAValue, str] = {a: env[x] for a, x in zip(h.body.block.args, op.args) if x in env}
                    stack.append(h.sym_name.data)
                    walk(h, sub)
                    stack.pop()

        stack: list[str] = []
        walk(self.kernel, {a: f"param:{a.index}" for a in self.kernel.body.block.args if isinstance(a.type, S.VecType)})
