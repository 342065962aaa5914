"""One kernel to one `shader` op: interface names, buffers, push constants / uniform params, the abi, assembly."""

from __future__ import annotations

import json
from typing import Any, cast

from xdsl.dialects.builtin import IntegerType, StringAttr
from xdsl.ir import BlockArgument, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.language import err, is_swizzle
from sarek.lowering.shader.layout import round_up, scalar_kind, scalar_size
from sarek.lowering.shader.state import Scope, Storage
from sarek.lowering.shader.statements import Statements


class ShaderLowering(Statements):
    """The lowering of one kernel (`run` builds its `shader` op)."""

    # -------------------------------------------------------------------------------- the shader

    def run(self) -> Operation:
        g = self.lang.glsl
        O = self.O
        k = self.kernel
        self.check_features()
        self.collect_source_names()
        self.collect_atomics()
        # names of the interface, in order: buffers, macros/params, struct types
        vecs = [(n, a) for n, a in k.params if isinstance(a.type, S.VecType)]
        scalars = [(n, a) for n, a in k.params if not isinstance(a.type, S.VecType)]
        if g:
            for n, a in vecs:
                pass
        param_fields: list[dict[str, Any]] = []
        abi_params: list[dict[str, Any]] = []
        buf_names: dict[BlockArgument, str] = {}
        for n, a in vecs:
            buf_names[a] = self.reserve_global(n)
        len_names: dict[BlockArgument, str] = {}
        dim_names: dict[BlockArgument, list[str]] = {}  # the extents of an N-dimensional vector
        for n, a in vecs:
            rank = cast(S.VecType, a.type).ndim
            for d in range(rank):
                ln = (f"{buf_names[a]}_len" if g else f"sarek_{buf_names[a]}_length") if rank == 1 else (
                    f"{buf_names[a]}_dim{d}" if g else f"sarek_{buf_names[a]}_dim{d}")
                while ln in self.globals or ln in self.macros:
                    ln = "sarek_" + ln
                if g:
                    self.macros.add(ln)
                dim_names.setdefault(a, []).append(ln)
            len_names[a] = dim_names[a][0]
        scalar_names: dict[BlockArgument, str] = {}
        members = self.variant_members()
        for n, a in scalars:
            e = self.lang.escape(n)
            # a GLSL macro named like a swizzle (`x`, `xy`, `rgb` ...) would rewrite `gl_GlobalInvocationID.x`,
            # one named like a variant member (`tag`, `C_v`, `_0`) every `v.tag`
            while e in self.globals or e in self.macros or any(e in ds for ds in dim_names.values()) or (g and (is_swizzle(e) or e in members)):
                e = e + "_"
            if g:
                self.macros.add(e)
            else:
                self.globals.add(e)
            scalar_names[a] = e
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
                lay = self.elem_layout(t, k)
                all_leaves = lay.leaves + [x for c in (lay.ctors or []) for x in c]
                al = max([4] + [x.size for x in all_leaves])
                s = lay.dev_size
                if not g:
                    nested = (isinstance(t, S.RecordType) and any(
                        not S.is_scalar_type(ft) for _, ft in self.records[t.decl_name].fields)) or (
                        isinstance(t, S.VariantType) and any(
                            not S.is_scalar_type(pt) for _, ps in self.variants[t.decl_name].ctors for pt in ps))
                    if nested or any(x.size != 4 or x.kind == "b4" for x in all_leaves):
                        raise err(f"parameter '{n}': a record/variant passed by value on wgsl must hold only i32/f32 "
                                  "fields (uniform buffer layout)", k, self.lang)
                    al = 16
                    s = round_up(lay.dev_size, 16)
                    attr = f"@align(16) @size({s}) "
                leaves = []
                lay_json = lay.to_json()
            else:
                self.ty(t, k)
                s = al = scalar_size(t)
                leaves = [(0, t)]
            off = round_up(off, al)
            maxa = max(maxa, al)
            param_fields.append({"name": scalar_names[a], "type": str(t), "offset": off, "param": a.index,
                                 "leaves": [[o, scalar_kind(x)] for o, x in leaves], "size": s, "attr": attr,
                                 "layout": lay_json})
            off += s
        psize = round_up(off, 16 if not g else maxa)
        if g and psize > 128:
            raise err(f"push constants need {psize} bytes; Vulkan guarantees 128", k, self.lang)
        # shared arrays are module-scope names: reserve them before any local or temporary is named
        for f in [k, *self.reachable_helpers()]:
            for o in f.walk():
                if isinstance(o, S.AllocArrayOp) and o.result.type.memspace == S.MemSpace.SHARED:
                    self.shared_names[o] = self.reserve_global(o.sym.data)
        # type declarations
        self.decl_types()
        # storage of vector params
        for i, (n, a) in enumerate(vecs):
            et = cast(S.VecType, a.type).element_type
            rep = "plain"
            if f"param:{a.index}" in self.atomic_storage:
                rep = self.atomic_repr(et, k)
            elif not g and et == IntegerType(1):
                rep = "boolbits"
            if not g and isinstance(et, S.RecordType):
                for _, x in self.host_layout(et, k)[2]:
                    if x == IntegerType(1):
                        raise err(f"vector '{n}': a bool field in a record is not host-shareable in WGSL",
                                  k, self.lang)
            dims = tuple(ln if g else f"params.{ln}" for ln in dim_names[a])
            self.storage[a] = Storage(buf_names[a], et, rep, "global", dims[0], dims)
            lay = self.elem_layout(et, k)
            abi_params.append({"name": n, "index": a.index, "kind": "vec", "binding": i, "elem": str(et),
                               "scalar": scalar_kind(et) if S.is_scalar_type(et) else None,
                               "layout": lay.to_json(), "len_offset": dim_offsets[a][0], "repr": rep,
                               **({"dim_offsets": dim_offsets[a]} if len(dims) > 1 else {})})
        for n, a in scalars:
            self.vals[a] = scalar_names[a] if g else (
                f"(params.{scalar_names[a]} != 0i)" if a.type == IntegerType(1) else f"params.{scalar_names[a]}")
            pf = next(p for p in param_fields if p["param"] == a.index)
            abi_params.append({"name": n, "index": a.index, "kind": "scalar", "type": str(a.type), "offset": pf["offset"],
                               "leaves": pf["leaves"], "size": pf["size"], "layout": pf["layout"]})
        # body
        mainf = O["func"]("void main()" if g else "")
        self.lower_block(k.body.block, mainf.regions[0].block, Scope())
        # assemble
        sh = O["shader"](k.sym_name.data, "")
        body = sh.regions[0].block
        X, Y, Z = self.block
        if g:
            body.add_op(O["directive"]("#version 450"))
            if "shader-f64" in self.features:
                body.add_op(O["directive"]("#extension GL_ARB_gpu_shader_fp64 : require"))
            if "shader-int64" in self.features:
                body.add_op(O["directive"]("#extension GL_ARB_gpu_shader_int64 : require"))
            for e in self.extensions:
                body.add_op(O["directive"](e))
        body.add_op(O["comment"](f"kernel {k.sym_name.data}; workgroup size {X}x{Y}x{Z} is a compile-time "
                                 f"specialization (option block=X,Y,Z)"))
        if g:
            body.add_op(O["directive"](f"layout(local_size_x = {X}, local_size_y = {Y}, local_size_z = {Z}) in;"))
        for o in self.struct_ops:
            body.add_op(o)
        for o in self.ctor_funcs:
            body.add_op(o)
        for fs in self.polyfills.values():
            for o in fs:
                body.add_op(o)
        for n, a in vecs:
            st = self.storage[a]
            T = self.storage_type(st.elem, st.repr, k)
            i = vecs.index((n, a))
            if g:
                blk = self.reserve_global(f"Buffer_{st.name}")  # not a record named Buffer_<v>
                body.add_op(O["global"](f"layout(std430, set = 0, binding = {i}) buffer {blk} {{ {T} {st.name}[]; }};"))
            else:
                body.add_op(O["global"](f"@group(0) @binding({i}) var<storage, read_write> {st.name} : array<{T}>;"))
        if param_fields:
            if g:
                fl: list[str] = []
                for p in param_fields:
                    t = "int" if p["param"] is None else self.ty(k.body.block.args[cast(int, p["param"])].type, k)
                    fl.append(f"{t} {p['name']};")
                body.add_op(O["global"]("layout(push_constant) uniform PushConstants { " + " ".join(fl) + " } pc;"))
                for p in param_fields:
                    body.add_op(O["directive"](f"#define {p['name']} pc.{p['name']}"))
            else:
                fl = []
                for p in param_fields:
                    t = "i32" if p["param"] is None else k.body.block.args[cast(int, p["param"])].type
                    ts = "i32" if t == "i32" or t == IntegerType(1) else self.ty(t, k)
                    fl.append(f"{p.get('attr', '')}{p['name']} : {ts}")
                body.add_op(O["struct"]("Params", fl))
                body.add_op(O["global"](f"@group(0) @binding({len(vecs)}) var<uniform> params : Params;"))
        for o in self.shared_decls:
            body.add_op(o)
        if not g:
            for b in ("gid", "lid", "wid", "nwg"):
                body.add_op(O["global"](f"var<private> sarek_{b} : vec3<u32>;"))
            if self.uses_subgroup:
                body.add_op(O["global"]("var<private> sarek_sg_lane : u32;"))
                body.add_op(O["global"]("var<private> sarek_sg_size : u32;"))
        for o in self.spec_ops:
            body.add_op(o)
        if not g:
            ps = ["@builtin(global_invocation_id) sarek_gid_in : vec3<u32>",
                  "@builtin(local_invocation_id) sarek_lid_in : vec3<u32>",
                  "@builtin(workgroup_id) sarek_wid_in : vec3<u32>",
                  "@builtin(num_workgroups) sarek_nwg_in : vec3<u32>"]
            pro = [f"sarek_{b} = sarek_{b}_in" for b in ("gid", "lid", "wid", "nwg")]
            if self.uses_subgroup:
                ps += ["@builtin(subgroup_invocation_id) sarek_sg_lane_in : u32",
                       "@builtin(subgroup_size) sarek_sg_size_in : u32"]
                pro += ["sarek_sg_lane = sarek_sg_lane_in", "sarek_sg_size = sarek_sg_size_in"]
            mainf.properties["text"] = StringAttr(f"@compute @workgroup_size({X}, {Y}, {Z})\nfn main({', '.join(ps)})")
            first = mainf.regions[0].block.first_op
            for s in pro:
                st = O["stmt"](s)
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
