"""PTX lowering, kernels: `Lowering` (all the concerns) lowers each kernel to a `sarek_ptx.entry`, its
parameters loaded from the parameter space."""

from __future__ import annotations

from xdsl.ir import Operation

from sarek.analysis.reach import reaches
from sarek.analysis.shared_window import ALIGN, WINDOW, dynamic_window, marker
from sarek.dialect import scalars
from sarek.dialect import sarek as sk
from sarek.lowering.ptx.asynccopy import AsyncCopyLowering
from sarek.lowering.ptx.emitter import Emitter
from sarek.lowering.ptx.state import FnState
from sarek.lowering.ptx.values import Buf, Sc, entry_name, narrow_mem, ptx_error, scalar_reg_type
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr


#: the name of the hidden last parameter of an entry with a grid barrier: the global address of a u32 the runtime
#: zeroes before each (cooperative) launch; the barriers count arrivals on it (ControlLowering.op_GridBarrierOp)
GRID_COUNTER = "grid_counter"


class Lowering(AsyncCopyLowering):
    """The whole PTX lowering of a module: one `sarek_ptx.entry` per kernel."""

    def run(self) -> list[Operation]:
        out: list[Operation] = []
        for op in self.module.ops:
            if isinstance(op, sk.KernelOp):
                window = dynamic_window(self.module, op)
                if window is not None:  # its shared arrays past the static limit (sarek.analysis.shared_window)
                    if not any(isinstance(o, px.RawOp) and WINDOW in o.text.data for o in out):
                        out.append(px.RawOp(f".extern .shared .align {ALIGN} .b8 {WINDOW}[];"))
                    out.append(px.RawOp(f"// {marker(op, window)}"))
                out.append(self.kernel(op))
        return out

    def kernel(self, k: sk.KernelOp) -> px.EntryOp:
        name = entry_name(k.sym_name.data)
        em = Emitter(name)
        st = FnState(em)
        params: list[tuple[str, str, int]] = []
        try:
            from sarek.analysis.writes import written_params

            written = written_params(self.module, k.sym_name.data)
        except Exception:  # no effect analysis: treat every vector as written
            written = set(range(len(k.params)))
        for i, (pname, arg) in enumerate(k.params):
            t = arg.type
            base = f"{name}_param_{len(params)}"
            if isinstance(t, sk.VecType):
                ptr = em.reg("u64")
                params.append((base, "u64", 8))
                em.emit(px.LdOp, "param.u64", ptr, AddrAttr(base))
                em.emit(px.CvtaOp, "to.global.u64", ptr, ptr)
                lens: list[RegAttr | int] = []
                for _ in range(t.ndim):  # its length, or the extents of an N-dimensional one
                    ln = em.reg("s32")
                    lname = f"{name}_param_{len(params)}"
                    params.append((lname, "s32", 4))
                    em.emit(px.LdOp, "param.s32", ln, AddrAttr(lname))
                    lens.append(ln)
                self.layout(t.element_type, k)
                st.env[arg] = Buf(t.element_type, "global", ptr, lens[0], readonly=i not in written,
                                  dims=tuple(lens) if t.ndim > 1 else ())
            elif isinstance(t, sk.RecordType | sk.VariantType):
                size, align = self.size_align(t, k)
                params.append((base, f"b8[{size}]", align))
                st.env[arg] = self.load_mem(st, t, "param", base, 0, k)
            else:
                rt = scalar_reg_type(t)
                if rt is None:
                    raise ptx_error(f"kernel parameter '{pname}' has type {t}, which has no PTX parameter form", k)
                if rt == "pred":
                    params.append((base, "s32", 4))
                    tmp = em.reg("s32")
                    em.emit(px.LdOp, "param.s32", tmp, AddrAttr(base))
                    st.env[arg] = Sc(t, em.setp("ne", "s32", tmp, 0))
                elif rt == "f16":
                    params.append((base, "b16", 2))
                    r = em.reg("f16")
                    em.emit(px.LdOp, "param.b16", r, AddrAttr(base))
                    st.env[arg] = Sc(t, r)
                elif scalars.is_narrow(t):
                    mt = narrow_mem(t)
                    params.append((base, mt, int(mt[1:]) // 8))
                    st.env[arg] = self.load_mem(st, t, "param", base, 0, k)
                else:
                    params.append((base, rt, 8 if rt in ("s64", "f64") else 4))
                    r = em.reg(rt)
                    em.emit(px.LdOp, f"param.{rt}", r, AddrAttr(base))
                    st.env[arg] = Sc(t, r)
        if reaches(self.module, k, (sk.GridBarrierOp,)):  # the hidden counter its grid barriers count on
            params.append((f"{name}_{GRID_COUNTER}", "u64", 8))
            st.grid_counter = em.reg("u64")
            em.emit(px.LdOp, "param.u64", st.grid_counter, AddrAttr(f"{name}_{GRID_COUNTER}"))
            em.emit(px.CvtaOp, "to.global.u64", st.grid_counter, st.grid_counter)
        self.block(st, k.body.block)
        em.emit(px.RetOp, "")
        em.drop_dead_consts()
        entry = px.EntryOp(name, params)
        for op in em.decls + em.ops:
            entry.body.block.add_op(op)
        return entry
