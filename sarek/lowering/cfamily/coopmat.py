"""C-family lowering, cooperative matrices: `sarek.coopmat_*` -> CUDA `nvcuda::wmma`, HIP MFMA (CDNA), Metal
`simdgroup_matrix`.

Every fragment becomes a grid of native 16x16 fragments (pieces) named `sarek_frag_<name>[_<i>_<j>]`:
a sarek 16x32 u8 `a` fragment is two m16n16k16 pieces along k, so the portable 8-bit shape 16x16x32 is two wmma
k-steps. A load or store moves each piece at its offset (row-major: `i*16*stride + j*16`, col-major: `j*16*stride
+ i*16`); `d = a @ b + c` is `d[i][j] = a[i][k] b[k][j] + (k == 0 ? c : d)[i][j]` over the pieces, k in order. An
`a`/`b` wmma fragment carries its memory layout in its type, so the layout of a fragment's loads is decided here
from its loads (mixed layouts on one a/b fragment are refused by the capability gate). Shared arrays of a kernel
using them are declared `__align__(32)` (wmma addresses must be 256-bit aligned). Other C-family targets
never get here: the gate refuses cooperative matrices on them (sarek.analysis.coopmat_support).

HIP: `__builtin_amdgcn_mfma_f32_16x16x16f16` over a 64-lane wavefront; a piece is 4 elements per lane (lane l
holds A[l % 16][4 (l / 16) + j], B[4 (l / 16) + j][l % 16], C[4 (l / 16) + j][l % 16], j < 4), moved by the
preamble's per-lane load/store helpers. RDNA has no MFMA: compiling for it stops at an `#error` saying so.

Metal: 8x8 pieces (`simdgroup_half8x8`, `simdgroup_float8x8`, `simdgroup_bfloat8x8`), so the portable 16x16x16
is 2x2 pieces per fragment and two k-steps; a 32-lane simdgroup owns them. `simdgroup_load`/`simdgroup_store`
move a piece from device or threadgroup memory (col-major: the transpose argument), the pointer cast to the
matrix's element type (sarek-widen-f16 left f16 buffers as their bits; bf16 is held as its bits too).
`simdgroup_multiply_accumulate` multiplies half or bfloat pieces into float or half ones. bfloat needs MSL 3.1:
a kernel with bf16 fragments stops at an `#error` below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.ir import Operation, SSAValue

from sarek.analysis.effects import Effect
from sarek.dialect import sarek as s
from sarek.lowering.cfamily.statements import CStatements, lowers
from sarek.targets.cfamily import dialect as c

PIECE = 16
#: Metal's simdgroup_matrix side
METAL_PIECE = 8
WMMA = "nvcuda::wmma::"
_USE = {"a": "matrix_a", "b": "matrix_b", "acc": "accumulator"}
_ELEMENT = {"f16": "half", "bf16": "__nv_bfloat16", "u8": "unsigned char", "i8": "signed char", "f32": "float",
            "i32": "int"}
#: CUDA bf16 a/b loads from shared memory: the header's bf16 `load_matrix_sync` gives NVVM a generic address (its
#: f16 loads get `.shared`), which ptxas turns into per-element generic loads and MOVM transposes instead of
#: ldmatrix; these overloads name the shared state space in the PTX (`wmma.load.{a,b}.sync.aligned.{row,col}
#: .m16n16k16.shared.bf16`, 4 registers of packed pairs: the header's own fragment layout)
_BF16_SHARED_LOAD = "sarek_wmma_load_shared"
_BF16_SHARED_HELPER = r"""#define SAREK_WMMA_LD_BF16(U, L) \
__device__ __forceinline__ void sarek_wmma_load_shared(nvcuda::wmma::fragment<nvcuda::wmma::matrix_##U, 16, 16, 16, \
    __nv_bfloat16, nvcuda::wmma::L##_major>& f, const __nv_bfloat16* p, unsigned ldm) { \
  unsigned* r = reinterpret_cast<unsigned*>(f.x); \
  asm volatile("wmma.load." #U ".sync.aligned." #L ".m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;" \
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) \
               : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(ldm) : "memory"); \
}
SAREK_WMMA_LD_BF16(a, row) SAREK_WMMA_LD_BF16(a, col) SAREK_WMMA_LD_BF16(b, row) SAREK_WMMA_LD_BF16(b, col)
#undef SAREK_WMMA_LD_BF16"""
#: a fill value's C expression as the wmma element type (sarek keeps bf16 as its bits in an unsigned short)
_FILL = {"bf16": "__ushort_as_bfloat16({0})"}
#: HIP's 8-bit path: a 16x16 byte piece is 4 bytes per lane packed in an int (byte j: the element at 4 (l / 16) + j,
#: as for f16), an i32 accumulator piece a sarek_i4. MFMA multiplies signed bytes: gfx908/gfx90a compose k = 32
#: from two v_mfma_i32_16x16x16i8, gfx94x (which dropped that instruction) takes v_mfma_i32_16x16x32_i8 on the two
#: pieces' bytes side by side (a and b carry the same k in the same slot, so the sum is the same). u8 splits each
#: byte u = lo + 128 hi (lo = u & 127, hi = u >> 7: both valid i8) into four signed products, combined wrapping.
_HIP_INT8 = (
    "typedef int sarek_i4 __attribute__((ext_vector_type(4)));",
    "typedef unsigned sarek_u4 __attribute__((ext_vector_type(4)));",
    "__device__ __forceinline__ int sarek_mfma_load_a(const unsigned char* p, int s, int col) {",
    "  int l = (int)__lane_id(); unsigned v = 0;",
    "  for (int j = 0; j < 4; ++j) v |= (unsigned)p[sarek_mfma_at(l % 16, 4 * (l / 16) + j, s, col)] << (8 * j);",
    "  return (int)v;",
    "}",
    "__device__ __forceinline__ int sarek_mfma_load_b(const unsigned char* p, int s, int col) {",
    "  int l = (int)__lane_id(); unsigned v = 0;",
    "  for (int j = 0; j < 4; ++j) v |= (unsigned)p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)] << (8 * j);",
    "  return (int)v;",
    "}",
    "__device__ __forceinline__ sarek_i4 sarek_mfma_load_acc(const int* p, int s, int col) {",
    "  int l = (int)__lane_id(); sarek_i4 v;",
    "  for (int j = 0; j < 4; ++j) v[j] = p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)];",
    "  return v;",
    "}",
    "__device__ __forceinline__ void sarek_mfma_store_acc(int* p, int s, int col, sarek_i4 v) {",
    "  int l = (int)__lane_id();",
    "  for (int j = 0; j < 4; ++j) p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)] = v[j];",
    "}",
    "/* c + a @ b over two k pieces of signed bytes (a0/b0: k 0..15, a1/b1: k 16..31) */",
    "__device__ __forceinline__ sarek_i4 sarek_mfma_i8(int a0, int a1, int b0, int b1, sarek_i4 c) {",
    "#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)",
    "  return __builtin_amdgcn_mfma_i32_16x16x32_i8((long)(((unsigned long)(unsigned)a1 << 32) | (unsigned)a0),",
    "                                               (long)(((unsigned long)(unsigned)b1 << 32) | (unsigned)b0), c, 0, 0, 0);",
    "#else",
    "  return __builtin_amdgcn_mfma_i32_16x16x16i8(a1, b1, __builtin_amdgcn_mfma_i32_16x16x16i8(a0, b0, c, 0, 0, 0), 0, 0, 0);",
    "#endif",
    "}",
    "/* the same for unsigned bytes: lo * lo + 128 (hi * lo + lo * hi) + 16384 hi * hi, wrapping like C */",
    "__device__ __forceinline__ sarek_i4 sarek_mfma_u8(int a0, int a1, int b0, int b1, sarek_i4 c) {",
    "  const int L = 0x7f7f7f7f, H = 0x01010101; const sarek_i4 z = {0, 0, 0, 0};",
    "  int la0 = a0 & L, la1 = a1 & L, lb0 = b0 & L, lb1 = b1 & L;",
    "  int ha0 = (a0 >> 7) & H, ha1 = (a1 >> 7) & H, hb0 = (b0 >> 7) & H, hb1 = (b1 >> 7) & H;",
    "  sarek_u4 lo = (sarek_u4)sarek_mfma_i8(la0, la1, lb0, lb1, c);",
    "  sarek_u4 mid = (sarek_u4)sarek_mfma_i8(ha0, ha1, lb0, lb1, sarek_mfma_i8(la0, la1, hb0, hb1, z));",
    "  sarek_u4 hi = (sarek_u4)sarek_mfma_i8(ha0, ha1, hb0, hb1, z);",
    "  return (sarek_i4)(lo + (mid << 7) + (hi << 14));",
    "}",
)
#: HIP: the C type of one piece, by element type
_HIP_PIECE = {"f16": "sarek_h4", "f32": "sarek_f4", "i32": "sarek_i4", "u8": "int", "i8": "int"}
PREAMBLE = {"cuda": ("#include <mma.h>", "#include <cuda_bf16.h>"), "hip": (
    "#if defined(__HIP_DEVICE_COMPILE__) && !defined(__gfx908__) && !defined(__gfx90a__) && !defined(__gfx940__) \\",
    "    && !defined(__gfx941__) && !defined(__gfx942__)",
    "#error \"sarek: cooperative matrices on HIP need CDNA's MFMA (gfx908, gfx90a, gfx94x); RDNA GPUs have none\"",
    "#endif",
    "#include <hip/hip_fp16.h>",
    "typedef _Float16 sarek_h4 __attribute__((ext_vector_type(4)));",
    "typedef float sarek_f4 __attribute__((ext_vector_type(4)));",
    "/* MFMA 16x16x16 per-lane elements: lane l holds row (a) or column (b, acc) l % 16, the other index",
    "   4 * (l / 16) + j; `col` says the buffer is column-major */",
    "__device__ __forceinline__ int sarek_mfma_at(int r, int c, int s, int col) { return col ? c * s + r : r * s + c; }",
    "__device__ __forceinline__ sarek_h4 sarek_mfma_load_a(const __half* p, int s, int col) {",
    "  int l = (int)__lane_id(); sarek_h4 v;",
    "  for (int j = 0; j < 4; ++j) v[j] = (_Float16)__half2float(p[sarek_mfma_at(l % 16, 4 * (l / 16) + j, s, col)]);",
    "  return v;",
    "}",
    "__device__ __forceinline__ sarek_h4 sarek_mfma_load_b(const __half* p, int s, int col) {",
    "  int l = (int)__lane_id(); sarek_h4 v;",
    "  for (int j = 0; j < 4; ++j) v[j] = (_Float16)__half2float(p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)]);",
    "  return v;",
    "}",
    "__device__ __forceinline__ sarek_f4 sarek_mfma_load_acc(const float* p, int s, int col) {",
    "  int l = (int)__lane_id(); sarek_f4 v;",
    "  for (int j = 0; j < 4; ++j) v[j] = p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)];",
    "  return v;",
    "}",
    "__device__ __forceinline__ void sarek_mfma_store_acc(float* p, int s, int col, sarek_f4 v) {",
    "  int l = (int)__lane_id();",
    "  for (int j = 0; j < 4; ++j) p[sarek_mfma_at(4 * (l / 16) + j, l % 16, s, col)] = v[j];",
    "}",
    *_HIP_INT8,
), "metal": ("#include <metal_simdgroup_matrix>",)}
#: sarek element type -> Metal simdgroup_matrix element type (the gate refuses the others)
_METAL_ELEMENT = {"f16": "half", "bf16": "bfloat", "f32": "float"}
#: a fill value (f16: its f32 after sarek-widen-f16; bf16: its bits) as the Metal element type
_METAL_FILL = {"f16": "(half)({0})", "bf16": "as_type<bfloat>((ushort)({0}))", "f32": "{0}"}
_METAL_BF16 = ("#if __METAL_VERSION__ < 310",
               "#error \"sarek: bf16 cooperative matrices on Metal need MSL 3.1 (simdgroup_bfloat8x8)\"", "#endif")


@dataclass(frozen=True)
class _Frag:
    name: str
    use: str
    elt: str
    rows: int
    cols: int
    size: int = PIECE  # the side of a native piece

    def piece(self, i: int, j: int) -> str:
        base = f"sarek_frag_{self.name}"
        return base if (self.rows, self.cols) == (self.size, self.size) else f"{base}_{i}_{j}"

    def pieces(self) -> list[tuple[int, int, str]]:
        return [(i, j, self.piece(i, j)) for i in range(self.rows // self.size) for j in range(self.cols // self.size)]


def mma_pieces(fd: _Frag, fa: _Frag, fb: _Frag, fc: _Frag) -> list[tuple[str, str, str, str]]:
    """(d, a, b, c) piece names of `d = a @ b + c` over the pieces, k in order (c for k == 0, then d)."""
    n = fd.size
    return [(fd.piece(i, j), fa.piece(i, k), fb.piece(k, j), (fc if k == 0 else fd).piece(i, j))
            for i in range(fd.rows // n) for j in range(fd.cols // n) for k in range(fa.cols // n)]


def piece_offset(i: int, j: int, col: bool, size: int) -> str:
    """The element offset of piece (i, j) from the fragment's first element, `{2}` the row stride (col-major:
    the column stride)."""
    r, cc = (j, i) if col else (i, j)
    return (f" + ({{2}}) * {r * size}" if r else "") + (f" + {cc * size}" if cc else "")


def col_major_loads(op: Operation, frag: str) -> bool:
    """Whether the loads of `frag` in `op`'s function are column-major (the first one decides; the gate refuses
    an a/b fragment loaded both ways)."""
    f = s.enclosing_function(op)
    assert f is not None
    return next((o.col_major is not None for o in f.walk() if isinstance(o, s.CoopmatLoadOp) and o.frag.data == frag),
                False)


def shared_buffer(op: s.CoopmatLoadOp) -> bool:
    """Whether `op` loads from a shared-memory array."""
    t = op.array.type
    return isinstance(t, s.ArrayType) and t.memspace == s.MemSpace.SHARED


class CCoopmat(CStatements):
    """Lowers cooperative-matrix ops to wmma calls (CUDA) or MFMA builtins (HIP)."""

    uses_coop: bool = False

    def frag(self, op: Operation, name: str) -> _Frag:
        d = s.fragment_decl(op, name)
        elt = str(d.element_type)
        return _Frag(name, d.use.data, "u8" if elt == "ui8" else elt, d.rows.value.data, d.cols.value.data,
                     METAL_PIECE if self.lang.target == "metal" else PIECE)

    def stmt(self, template: str, args: Sequence[SSAValue]) -> None:
        self.emit(c.EvalOp(self.tmpl(template, args, "void", Effect.WRITE)))

    def alloc(self, op: s.AllocArrayOp) -> None:
        """Shared arrays of a CUDA kernel using cooperative matrices or asynchronous copies are 32-byte aligned
        (wmma's loads and stores need 256-bit aligned addresses, cp.async's 16-byte copies 16-byte ones)."""
        f = s.enclosing_function(op)
        if self.lang.target != "cuda" or op.array_type.memspace != s.MemSpace.SHARED or f is None or \
                not any(isinstance(o, (*s.COOPMAT_OPS, s.CopyAsyncOp)) for o in f.walk()):
            return super().alloc(op)
        saved = self.lang
        self.lang = replace(saved, shared_decl=saved.shared_decl.replace("__shared__", "__shared__ __align__(32)"))
        try:
            super().alloc(op)
        finally:
            self.lang = saved

    @lowers(*s.COOPMAT_OPS)
    def coopmat(self, op: Operation) -> None:
        hip = self.lang.target == "hip"
        if self.lang.target not in PREAMBLE:
            raise self.err(f"{op.name} is not supported by the {self.backend} backend", op)
        self.uses_coop = True
        if self.lang.target == "metal":
            return self.metal_coop(op)
        if isinstance(op, s.CoopmatMulAddOp):
            fd, fa, fb, fc = (self.frag(op, x.data) for x in (op.d, op.a, op.b, op.c))
            if hip and fa.elt in ("u8", "i8"):
                return self.hip_int8_mma(fd, fa, fb, fc)
            for d, a, b, cc in mma_pieces(fd, fa, fb, fc):
                self.stmt(f"{d} = __builtin_amdgcn_mfma_f32_16x16x16f16({a}, {b}, {cc}, 0, 0, 0)" if hip
                          else f"{WMMA}mma_sync({d}, {a}, {b}, {cc})", [])
            return
        assert isinstance(op, s.CoopmatDeclOp | s.CoopmatFillOp | s.CoopmatLoadOp | s.CoopmatStoreOp)
        f = self.frag(op, op.frag.data)
        if isinstance(op, s.CoopmatDeclOp):
            elt = _ELEMENT[f.elt]
            layout = "" if f.use == "acc" else \
                f", {WMMA}{'col_major' if col_major_loads(op, f.name) else 'row_major'}"
            for _, _, p in f.pieces():
                self.emit(c.VerbatimOp(f"{_HIP_PIECE[f.elt]} {p};" if hip else
                                       f"{WMMA}fragment<{WMMA}{_USE[f.use]}, 16, 16, 16, {elt}{layout}> {p};"))
            return
        if isinstance(op, s.CoopmatFillOp):
            v = self.val(op.value)
            for _, _, p in f.pieces():
                if hip and f.elt in ("u8", "i8"):  # the byte in each of the 4
                    self.stmt(f"{p} = (int)((unsigned)(unsigned char)({{0}}) * 0x01010101u)", [v])
                elif hip:
                    x = "(_Float16)__half2float({0})" if f.elt == "f16" else "{0}"
                    self.stmt(f"{p} = {_HIP_PIECE[f.elt]}({x})", [v])
                else:
                    self.stmt(f"{WMMA}fill_fragment({p}, {_FILL.get(f.elt, '{0}')})", [v])
            return
        col = op.col_major is not None
        args = [self.val(op.array), self.val(op.index), self.val(op.stride)]
        ptr = ("(const unsigned char*)" if hip else f"(const {_ELEMENT[f.elt]}*)") \
            if f.use != "acc" and (not hip or f.elt in ("u8", "i8")) else ""
        mem = f", {WMMA}{'mem_col_major' if col else 'mem_row_major'}" if f.use == "acc" else ""
        for i, j, p in f.pieces():
            at = f"{ptr}({{0}} + ({{1}}){piece_offset(i, j, col, PIECE)})"
            if hip and isinstance(op, s.CoopmatLoadOp):
                self.stmt(f"{p} = sarek_mfma_load_{f.use}({at}, {{2}}, {int(col)})", args)
            elif hip:
                self.stmt(f"sarek_mfma_store_acc({at}, {{2}}, {int(col)}, {p})", args)
            elif isinstance(op, s.CoopmatLoadOp) and f.elt == "bf16" and f.use != "acc" and shared_buffer(op):
                if _BF16_SHARED_HELPER not in self.polyfills:
                    self.polyfills.append(_BF16_SHARED_HELPER)
                self.stmt(f"{_BF16_SHARED_LOAD}({p}, {at}, {{2}})", args)
            elif isinstance(op, s.CoopmatLoadOp):
                self.stmt(f"{WMMA}load_matrix_sync({p}, {at}, {{2}}{mem})", args)
            else:
                self.stmt(f"{WMMA}store_matrix_sync({at}, {p}, {{2}}{mem})", args)

    def hip_int8_mma(self, fd: _Frag, fa: _Frag, fb: _Frag, fc: _Frag) -> None:
        """d = a @ b + c on 8-bit HIP pieces: one sarek_mfma_u8/i8 per pair of k pieces (the gate's 16x16x32
        multiples make k even)."""
        for i in range(fd.rows // PIECE):
            for j in range(fd.cols // PIECE):
                for k in range(0, fa.cols // PIECE, 2):
                    cc = (fc if k == 0 else fd).piece(i, j)
                    self.stmt(f"{fd.piece(i, j)} = sarek_mfma_{fa.elt}({fa.piece(i, k)}, {fa.piece(i, k + 1)}, "
                              f"{fb.piece(k, j)}, {fb.piece(k + 1, j)}, {cc})", [])

    def metal_coop(self, op: Operation) -> None:
        """One cooperative-matrix op as Metal simdgroup_matrix calls over 8x8 pieces."""
        if isinstance(op, s.CoopmatMulAddOp):
            fd, fa, fb, fc = (self.frag(op, x.data) for x in (op.d, op.a, op.b, op.c))
            for d, a, b, cc in mma_pieces(fd, fa, fb, fc):
                self.stmt(f"simdgroup_multiply_accumulate({d}, {a}, {b}, {cc})", [])
            return
        assert isinstance(op, s.CoopmatDeclOp | s.CoopmatFillOp | s.CoopmatLoadOp | s.CoopmatStoreOp)
        f = self.frag(op, op.frag.data)
        elt = _METAL_ELEMENT[f.elt]
        if isinstance(op, s.CoopmatDeclOp):
            fn = s.enclosing_function(op)
            if f.elt == "bf16" and fn is not None and op is next(
                    o for o in fn.walk() if isinstance(o, s.CoopmatDeclOp) and str(o.element_type) == "bf16"):
                for line in _METAL_BF16:  # once, before the kernel's first bf16 fragment
                    self.emit(c.VerbatimOp(line))
            for _, _, p in f.pieces():
                self.emit(c.VerbatimOp(f"simdgroup_{elt}8x8 {p};"))
            return
        if isinstance(op, s.CoopmatFillOp):
            v = self.val(op.value)
            for _, _, p in f.pieces():
                self.stmt(f"{p} = make_filled_simdgroup_matrix<{elt}, 8, 8>({_METAL_FILL[f.elt]})", [v])
            return
        col = op.col_major is not None
        t = op.array.type
        space = "threadgroup" if isinstance(t, s.ArrayType) and t.memspace == s.MemSpace.SHARED else "device"
        load = isinstance(op, s.CoopmatLoadOp)
        ptr = f"({space} {'const ' if load else ''}{elt}*)"
        tail = ", ulong2(0, 0), true" if col else ""
        args = [self.val(op.array), self.val(op.index), self.val(op.stride)]
        for i, j, p in f.pieces():
            at = f"{ptr}({{0}} + ({{1}}){piece_offset(i, j, col, METAL_PIECE)})"
            self.stmt(f"simdgroup_load({p}, {at}, {{2}}{tail})" if load else
                      f"simdgroup_store({p}, {at}, {{2}}{tail})", args)
