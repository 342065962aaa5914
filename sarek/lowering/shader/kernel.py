"""One kernel to one `shader` op: interface names, buffers, push constants / uniform params, the abi, assembly."""

from __future__ import annotations

import json
from typing import Any, cast

from xdsl.dialects.builtin import IntegerType, StringAttr
from xdsl.ir import BlockArgument, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.language import err
from sarek.analysis.layout import LayoutError, scalar_kind
from sarek.analysis.namer import comment_text
from sarek.analysis.shader_params import PARAMS, param_block
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
        # push constants / params layout (sarek.analysis.shader_params; what a language cannot hold is refused
        # by the feature gate, interface_refusal)
        try:
            block = param_block(self.module, k, L.name)
        except LayoutError as e:
            raise err(e.message, k, self.lang) from None
        dim_offsets = block.dims
        for n, a in vecs:
            for ln, o in zip(dim_names[a], dim_offsets[a.index]):
                param_fields.append({"name": ln, "type": "i32", "offset": o, "param": None})
        for n, a in scalars:
            t = a.type
            slot = block.scalars[a.index]
            attr = ""
            if slot.layout is not None:
                if PARAMS[L.name].record_align is not None:
                    attr = L.record_param_attr.format(s=slot.size)
                leaves = []
                lay_json = slot.layout.to_json()
            else:
                self.ty(t, k)
                leaves = [(0, t)]
                lay_json = None
            param_fields.append({"name": scalar_names[a], "type": str(t), "offset": slot.offset, "param": a.index,
                                 "leaves": [[o, scalar_kind(x)] for o, x in leaves], "size": slot.size,
                                 "attr": attr, "layout": lay_json})
        psize = block.size  # its limit: the feature gate's (interface_refusal) or the device's, at launch
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
            # a bool field in a WGSL buffer record: refused by the feature gate (interface_refusal)
            dims = tuple(L.param_ref.format(ln) for ln in dim_names[a])
            self.storage[a] = Storage(buf_names[a], et, rep, "global", dims[0], dims)
            lay = self.layout(et, k)
            abi_params.append({"name": n, "index": a.index, "kind": "vec", "binding": i, "elem": str(et),
                               "scalar": scalar_kind(et) if S.is_scalar_type(et) else None,
                               "layout": lay.to_json(), "len_offset": dim_offsets[a.index][0], "repr": rep,
                               **({"dim_offsets": dim_offsets[a.index]} if len(dims) > 1 else {})})
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
        body.add_op(O["comment"](f"kernel {comment_text(k.sym_name.data)}; workgroup size {X}x{Y}x{Z} is a compile-time "
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
        for o in self.coop_globals:
            body.add_op(o)
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
               "params_binding": len(vecs), "features": sorted(self.features), "shared_bytes": self.shared_bytes,
               **({"coopmat": sorted(map(list, self.coop_shapes))} if self.coop_shapes else {})}
        sh.properties["abi"] = StringAttr(json.dumps(abi, sort_keys=True))
        return sh
