"""One kernel to one `shader` op: interface names, buffers, push constants / uniform params, the abi, assembly."""

from __future__ import annotations

import json
from typing import Any, cast

from xdsl.dialects.builtin import IntegerType, StringAttr
from xdsl.ir import BlockArgument, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.language import err
from sarek.analysis.layout import ScalarLayout, round_up, scalar_kind, scalar_layout
from sarek.lowering.shader.state import Scope, Storage, scalar_key
from sarek.lowering.shader.statements import Statements


class ShaderLowering(Statements):
    """The lowering of one kernel (`run` builds its `shader` op)."""

    # -------------------------------------------------------------------------------- the shader

    def run(self) -> Operation:
        L = self.lang
        O = self.O
        k = self.kernel
        self.check_features()
        self.collect_source_names()
        self.collect_atomics()
        # names of the interface, in order: buffers, macros/params, struct types
        vecs = [(n, a) for n, a in k.params if isinstance(a.type, S.VecType)]
        scalars = [(n, a) for n, a in k.params if not isinstance(a.type, S.VecType)]
        param_fields: list[dict[str, Any]] = []
        abi_params: list[dict[str, Any]] = []
        bufs, dims, names = self.interface_names()
        buf_names: dict[BlockArgument, str] = {a: b for (_, a), b in zip(vecs, bufs)}
        dim_names: dict[BlockArgument, list[str]] = {a: ds for (_, a), ds in zip(vecs, dims)}
        scalar_names: dict[BlockArgument, str] = {a: e for (_, a), e in zip(scalars, names)}
        self.globals.update(bufs)
        if L.macros:
            self.macros.update(x for ds in dims for x in ds)
        (self.macros if L.macros else self.globals).update(names)
        # push constants / params layout
        off = 0
        maxa = 4
        dim_offsets: dict[BlockArgument, list[int]] = {}
        for n, a in vecs:
            for ln in dim_names[a]:
                param_fields.append({"name": ln, "type": "i32", "offset": off, "param": None})
                dim_offsets.setdefault(a, []).append(off)
                off += 4
        for n, a in scalars:
            t = a.type
            attr = ""
            lay_json = None
            if isinstance(t, S.RecordType | S.VariantType):
                lay = self.layout(t, k)
                all_leaves = [*lay.leaves, *(x for c in lay.ctors or () for x in c)]
                al = max([4] + [x.size for x in all_leaves])
                s = lay.dev_size
                if L.record_param_align is not None:
                    nested = (isinstance(t, S.RecordType) and any(
                        not S.is_scalar_type(ft) for _, ft in self.records[t.decl_name].fields)) or (
                        isinstance(t, S.VariantType) and any(
                            not S.is_scalar_type(pt) for _, ps in self.variants[t.decl_name].ctors for pt in ps))
                    if nested or any(x.size != 4 or x.kind == "b4" for x in all_leaves):
                        raise err(f"parameter '{n}': a record/variant passed by value on wgsl must hold only i32/f32 "
                                  "fields (uniform buffer layout)", k, self.lang)
                    al = L.record_param_align
                    s = round_up(lay.dev_size, al)
                    attr = L.record_param_attr.format(s=s)
                leaves = []
                lay_json = lay.to_json()
            else:
                self.ty(t, k)
                s = al = cast(ScalarLayout, scalar_layout(t)).size
                leaves = [(0, t)]
            off = round_up(off, al)
            maxa = max(maxa, al)
            param_fields.append({"name": scalar_names[a], "type": str(t), "offset": off, "param": a.index,
                                 "leaves": [[o, scalar_kind(x)] for o, x in leaves], "size": s, "attr": attr,
                                 "layout": lay_json})
            off += s
        psize = round_up(off, L.params_align or maxa)
        if L.params_limit is not None and psize > L.params_limit:
            raise err(f"push constants need {psize} bytes; Vulkan guarantees {L.params_limit}", k, self.lang)
        # type declarations
        self.decl_types()
        # storage of vector params
        for i, (n, a) in enumerate(vecs):
            et = cast(S.VecType, a.type).element_type
            rep = "plain"
            if f"param:{a.index}" in self.atomic_storage:
                rep = self.atomic_repr(et, k, f"param:{a.index}")
            elif et == IntegerType(1):
                rep = L.bool_repr
            if not L.bool_in_buffer_record and isinstance(et, S.RecordType):
                if any(x.kind == "b4" for x in self.layout(et, k).leaves):
                    raise err(f"vector '{n}': a bool field in a record is not host-shareable in WGSL", k, self.lang)
            dims = tuple(L.param_ref.format(ln) for ln in dim_names[a])
            self.storage[a] = Storage(buf_names[a], et, rep, "global", dims[0], dims)
            lay = self.layout(et, k)
            abi_params.append({"name": n, "index": a.index, "kind": "vec", "binding": i, "elem": str(et),
                               "scalar": scalar_kind(et) if S.is_scalar_type(et) else None,
                               "layout": lay.to_json(), "len_offset": dim_offsets[a][0], "repr": rep,
                               **({"dim_offsets": dim_offsets[a]} if len(dims) > 1 else {})})
        for n, a in scalars:
            ref = L.param_ref.format(scalar_names[a])
            self.vals[a] = L.param_bool.format(ref) if a.type == IntegerType(1) else ref
            pf = next(p for p in param_fields if p["param"] == a.index)
            abi_params.append({"name": n, "index": a.index, "kind": "scalar", "type": str(a.type), "offset": pf["offset"],
                               "leaves": pf["leaves"], "size": pf["size"], "layout": pf["layout"]})
        # body
        mainf = O["func"]("")
        self.lower_block(k.body.block, mainf.regions[0].block, Scope())
        # assemble
        sh = O["shader"](k.sym_name.data, "")
        body = sh.regions[0].block
        X, Y, Z = self.block
        for d in L.version:
            body.add_op(O["directive"](d))
        for feature, d in L.feature_directives:
            if feature in self.features:
                body.add_op(O["directive"](d))
        for e in self.extensions:
            body.add_op(O["directive"](e))
        body.add_op(O["comment"](f"kernel {k.sym_name.data}; workgroup size {X}x{Y}x{Z} is a compile-time "
                                 f"specialization (option block=X,Y,Z)"))
        if L.workgroup_directive is not None:
            body.add_op(O["directive"](L.workgroup_directive.format(X=X, Y=Y, Z=Z)))
        for o in self.struct_ops:
            body.add_op(o)
        for o in self.ctor_funcs:
            body.add_op(o)
        for fs in self.polyfills.values():
            for o in fs:
                body.add_op(o)
        for i, (n, a) in enumerate(vecs):
            st = self.storage[a]
            T = self.storage_type(st.elem, st.repr, k)
            blk = "" if L.buffer_block is None else self.global_name(f"block:{st.name}")
            body.add_op(O["global"](L.buffer.format(i=i, blk=blk, t=T, n=st.name)))
        if param_fields:
            fl: list[tuple[str, str, str]] = []
            for p in param_fields:
                if p["param"] is None:
                    ts = L.scalar["i32"]
                else:
                    t = k.body.block.args[cast(int, p["param"])].type
                    ts = L.param_scalar.get(str(scalar_key(t))) or self.ty(t, k)
                fl.append((p.get("attr", ""), p["name"], str(ts)))
            for o in L.params_block(O, fl, len(vecs)):
                body.add_op(o)
        for o in self.shared_decls:
            body.add_op(o)
        inputs = [*L.builtin_inputs, *(L.subgroup_inputs if self.uses_subgroup else ())]
        for _, n, t in inputs:
            body.add_op(O["global"](L.private_global.format(n=n, t=t)))
        for o in self.spec_ops:
            body.add_op(o)
        ps = ", ".join(L.entry_input.format(b=b, n=n, t=t) for b, n, t in inputs)
        mainf.properties["text"] = StringAttr(L.entry.format(X=X, Y=Y, Z=Z, p=ps))
        first = mainf.regions[0].block.first_op
        for _, n, _ in inputs:
            st = O["stmt"](L.entry_copy.format(n=n))
            if first is None:
                mainf.regions[0].block.add_op(st)
            else:
                mainf.regions[0].block.insert_op_before(st, first)
        body.add_op(mainf)
        abi = {"kernel": k.sym_name.data, "lang": self.lang.name, "block": list(self.block),
               "params": sorted(abi_params, key=lambda p: p["index"]), "params_size": psize if param_fields else 0,
               "params_binding": len(vecs), "features": sorted(self.features)}
        sh.properties["abi"] = StringAttr(json.dumps(abi, sort_keys=True))
        return sh
