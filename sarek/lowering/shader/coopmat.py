"""Cooperative matrices on GLSL: `sarek.coopmat_*` -> `GL_KHR_cooperative_matrix` (subgroup scope).

A sarek fragment is a grid of native pieces named `sarek_frag_<name>[_<i>_<j>]`: accumulators 16x16, `a`
16xK, `b` Kx16 with K = 16 for f16 inputs and 32 for 8-bit ones (the shapes Vulkan drivers offer; the
capability gate, sarek.analysis.coopmat_support, admits multiples up to 64). A load or store moves each piece
with `coopMatLoad` / `coopMatStore` at its element offset (row-major `i*R*stride + j*C`, column-major
`j*C*stride + i*R`) and the layout `gl_CooperativeMatrixLayoutRowMajor` / `ColumnMajor`; `d = a @ b + c` is
`coopMatMulAdd` over the pieces, k in order. u8 inputs accumulate in a `uint` matrix (drivers offer u8 x u8 ->
u32, not -> i32; the bits are the same, stored to the i32 buffer as they are).

Buffers: a vector sarek-pack-narrow stored as 32-bit words (8-bit elements; the ops marked `sarek.words`)
is read and written through a second declaration of its binding with the narrow element type
(`sarek_coop_<name>`), so element offsets stay exact. The shader then needs VK_KHR_cooperative_matrix and,
per element type, 8-bit or 16-bit storage: the abi's `features` and `coopmat` (the native shapes used, which
the vulkan-glsl device checks against the driver's list) say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any, cast

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation

from sarek.dialect import sarek as S
from sarek.lowering.shader.atomics import Atomics
from sarek.lowering.shader.language import err
from sarek.passes.pack_narrow import PACKED

#: element type -> its GLSL spelling in a matrix or a buffer
_GLSL_ELT = {"f16": "float16_t", "f32": "float", "u8": "uint8_t", "i8": "int8_t", "i32": "int", "u32": "uint"}
#: the extensions each element type needs (beyond GL_KHR_cooperative_matrix's own)
_TYPE_EXT = {"f16": "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require",
             "u8": "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require",
             "i8": "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require"}
_TYPE_FEATURE = {"f16": "shader-f16", "u8": "shader-int8", "i8": "shader-int8"}
#: fragment element type -> the Storage.repr of a shared array it moves through (Lang.reprs: packed elements)
NARROW_SHARED = {"f16": "f16word", "u8": "u8word", "i8": "i8word"}
COOP_EXTENSIONS = ("#extension GL_KHR_cooperative_matrix : require",
                   "#extension GL_KHR_memory_scope_semantics : require")
_USE = {"a": "gl_MatrixUseA", "b": "gl_MatrixUseB", "acc": "gl_MatrixUseAccumulator"}
_LAYOUT = ("gl_CooperativeMatrixLayoutRowMajor", "gl_CooperativeMatrixLayoutColumnMajor")


@dataclass(frozen=True)
class _Frag:
    name: str
    use: str
    elt: str  # the GLSL matrix component's sarek name (an i32 accumulator of u8 inputs: u32)
    rows: int
    cols: int
    k: int  # the native K of its multiply (16, or 32 for 8-bit inputs)

    @property
    def piece_shape(self) -> tuple[int, int]:
        return {"a": (16, self.k), "b": (self.k, 16)}.get(self.use, (16, 16))

    @property
    def type(self) -> str:
        r, c = self.piece_shape
        return f"coopmat<{_GLSL_ELT[self.elt]}, gl_ScopeSubgroup, {r}, {c}, {_USE[self.use]}>"

    def pieces(self) -> list[tuple[int, int, str]]:
        r, c = self.piece_shape
        base = f"sarek_frag_{self.name}"
        whole = (self.rows, self.cols) == (r, c)
        return [(i, j, base if whole else f"{base}_{i}_{j}") for i in range(self.rows // r)
                for j in range(self.cols // c)]

    def piece(self, i: int, j: int) -> str:
        return next(p for a, b, p in self.pieces() if (a, b) == (i, j))


def _elt(t: object) -> str:
    e = str(t)
    return "u8" if e == "ui8" else e


class Coopmat(Atomics):
    """Lowers cooperative-matrix ops to GL_KHR_cooperative_matrix calls (GLSL only: the gate refuses WGSL)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        #: the narrow aliases of packed vectors (module-scope declarations, after the buffers)
        self.coop_globals: list[Operation] = []
        #: (M, N, K, input, accumulator) of each native multiply-accumulate, for the abi
        self.coop_shapes: set[tuple[int, int, int, str, str]] = set()

    def frag(self, op: Operation, name: str) -> _Frag:
        d = S.fragment_decl(op, name)
        f = S.enclosing_function(op)
        assert f is not None
        muls = [o for o in f.walk() if isinstance(o, S.CoopmatMulAddOp) and name in (o.a.data, o.b.data, o.c.data,
                                                                                      o.d.data)]
        inputs = {_elt(S.fragment_decl(o, o.a.data).element_type) for o in muls}
        elt = _elt(d.element_type)
        k = 32 if (inputs or {elt}) & {"u8", "i8"} else 16
        if d.use.data == "acc" and elt == "i32" and "u8" in inputs:
            elt = "u32"
        return _Frag(name, d.use.data, elt, d.rows.value.data, d.cols.value.data, k)

    def coop_require(self, f: _Frag) -> None:
        self.features.add("cooperative-matrix")
        for d in (*COOP_EXTENSIONS, *((_TYPE_EXT[f.elt],) if f.elt in _TYPE_EXT else ())):
            if d not in self.extensions:
                self.extensions.append(d)
        if f.elt in _TYPE_FEATURE:
            self.features.add(_TYPE_FEATURE[f.elt])

    def narrow_shared_repr(self, alloc: S.AllocArrayOp) -> str:
        """The Storage.repr of a shared array: its elements packed in their own type (NARROW_SHARED) where a
        narrow fragment moves through it (sarek-pack-narrow made it 32-bit words, the op marked WORDS), so
        coopMatLoad/coopMatStore see the elements at their offsets; "plain" otherwise."""
        for use in alloc.result.uses:
            o = use.operation
            if isinstance(o, S.CoopmatLoadOp | S.CoopmatStoreOp) and S.WORDS in o.attributes and o.array is alloc.result:
                elt = _elt(S.fragment_decl(o, o.frag.data).element_type)
                if elt in NARROW_SHARED:
                    return NARROW_SHARED[elt]
        return "plain"

    def coop_buffer(self, op: S.CoopmatLoadOp | S.CoopmatStoreOp, f: _Frag) -> str:
        """The buffer a load/store names: the array's own (a shared array of packed narrow elements included),
        or the narrow alias of a packed vector."""
        st = self.storage_of(op.array, op)
        if S.WORDS not in op.attributes or st.space == "shared" and st.repr == NARROW_SHARED.get(f.elt):
            return st.name
        k = self.kernel
        packed: Mapping[str, Attribute] = cast(DictionaryAttr, k.attributes[PACKED]).data if PACKED in k.attributes \
            else {}
        vecs = [(n, a) for n, a in k.params if isinstance(a.type, S.VecType)]
        hit = next(((i, n, a) for i, (n, a) in enumerate(vecs) if self.storage.get(a) is st), None)
        if hit is None or hit[1] not in packed or st.space != "global":
            raise err(f"fragment '{f.name}' of {f.elt} elements: this array holds them one per 32-bit word on GLSL "
                      "(a local array, or a shared one reached through a helper or also used atomically); load it "
                      "from a Vec or Array parameter or a shared array of the kernel", op, self.lang)
        i, _, a = hit
        return self.coop_alias(i, a, f.elt if f.elt != "u32" else "i32")

    def coop_alias(self, binding: int, a: BlockArgument, elt: str) -> str:
        """`sarek_coop_<name>`: the vector at `binding` declared again with `elt` elements."""
        member = f"sarek_coop_{self.storage[a].name}"
        if member not in self.globals:
            self.globals.add(member)
            blk = f"sarek_coop_block_{self.storage[a].name}"
            self.globals.add(blk)
            self.coop_globals.append(self.O["global"](self.lang.buffer.format(i=binding, blk=blk, t=_GLSL_ELT[elt],
                                                                              n=member)))
        return member

    def coopmat(self, op: Operation, out: Block) -> None:
        if self.lang.name != "glsl":
            raise err(f"{op.name} is not supported on {self.lang.name}", op, self.lang)
        if isinstance(op, S.CoopmatMulAddOp):
            fd, fa, fb, fc = (self.frag(op, x.data) for x in (op.d, op.a, op.b, op.c))
            for f in (fa, fc):
                self.coop_require(f)
            self.coop_shapes.add((16, 16, fa.k, fa.elt, fc.elt))
            pr, pk = fa.piece_shape
            for i in range(fd.rows // pr):
                for j in range(fd.cols // 16):
                    for k in range(fa.cols // pk):
                        c = (fc if k == 0 else fd).piece(i, j)
                        self.stmt(out, f"{fd.piece(i, j)} = coopMatMulAdd({fa.piece(i, k)}, {fb.piece(k, j)}, {c})")
            return
        assert isinstance(op, S.CoopmatDeclOp | S.CoopmatFillOp | S.CoopmatLoadOp | S.CoopmatStoreOp)
        f = self.frag(op, op.frag.data)
        self.coop_require(f)
        if isinstance(op, S.CoopmatDeclOp):
            for _, _, p in f.pieces():
                self.stmt(out, f"{f.type} {p}")
            return
        if isinstance(op, S.CoopmatFillOp):
            v = self.expr(op.value)
            for _, _, p in f.pieces():
                self.stmt(out, f"{p} = {f.type}({_GLSL_ELT[f.elt]}({v}))")
            return
        buf = self.coop_buffer(op, f)
        col = op.col_major is not None
        idx, stride = self.index(op.index), self.index(op.stride)
        pr, pc = f.piece_shape
        for i, j, p in f.pieces():
            r, c = (j * pc, i * pr) if col else (i * pr, j * pc)
            off = (f" + {stride} * {r}" if r else "") + (f" + {c}" if c else "")
            at = f"uint({idx}{off})"
            call = "coopMatLoad" if isinstance(op, S.CoopmatLoadOp) else "coopMatStore"
            self.stmt(out, f"{call}({p}, {buf}, {at}, uint({stride}), {_LAYOUT[col]})")
