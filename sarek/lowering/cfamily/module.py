"""C-family lowering, the module: helpers in dependency order, records as typedef structs, variants as
a tag enum + struct with a union + constructors, kernels and helpers as functions (parameters, Metal
buffer slots and entry builtins)."""

from __future__ import annotations

from typing import cast

from xdsl.ir import Operation, SSAValue

from sarek.analysis import namer
from sarek.analysis.motion import binder_names
from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.analysis.shapes import hidden_names
from sarek.dialect import sarek as s
from sarek.lowering.cfamily import asynccopy, coopmat
from sarek.targets.cfamily import dialect as c


METAL_BUFFER_SLOTS = 31  # [[buffer(0)]] .. [[buffer(30)]]: the Metal argument table of a kernel function


class CLowering(asynccopy.CAsyncCopy):
    """Lowers a module: one list of `sarek_c` top-level ops."""

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
        L = self.lang
        lines = list(L.header)
        # each preamble once, when the module uses what it declares (in this order)
        for used, preamble in ((self.uses_f64, L.f64_preamble), (self.uses_i64_atomics, L.i64_atomic_preamble),
                               (self.uses_f16, L.f16_preamble), (self.uses_bf16, L.bf16_preamble),
                               (self.uses_warp, L.warp_preamble), (self.uses_grid, L.grid_preamble),
                               (self.uses_vote, L.vote_preamble), (self.uses_coop, coopmat.PREAMBLE.get(L.target, ()))):
            if used:
                lines += preamble
        if self.polyfills:
            lines += ["", *self.polyfills]
        if lines:
            tops.append(c.VerbatimOp("\n".join(lines) + "\n"))
        if self.lang.extern_c:
            tops.append(c.VerbatimOp('extern "C" {\n'))
        tops += types
        if self.type_helpers:
            tops.append(c.VerbatimOp("\n".join(self.type_helpers) + "\n"))
        if self.constant_tables:
            tops.append(c.VerbatimOp("\n".join(self.constant_tables) + "\n"))
        tops += funcs
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
                           f"and its length; a scalar one) and Metal's argument table has {METAL_BUFFER_SLOTS}; "
                           "more are not supported: pass fewer parameters (several arrays can share one Vec)", op)
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
        self.used_names = namer.TakenNames({n for _, n, _ in params} | binder_names(op))
        self.func_block = f.body.block
        self.hoisted, self.hoisted_window = 0, False
        self.block = f.body.block
        self.lower_block(op.body.block)
        return f


def entry_name(kernel: str, target: str) -> str:
    """The C function name of kernel `kernel` on `target` (what a runtime looks up): sarek.analysis.namer's."""
    return namer.entry_name(kernel, target)
