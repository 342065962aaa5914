"""Which cooperative-matrix shapes and types each target compiles, and why the others refuse them.

The capability gate (sarek.analysis.features, `sarek-reject-features`) reads this table: a target with no
entry in `SHAPES` refuses every `sarek.coopmat_*` op with its `REFUSALS` reason; a target with one refuses, at
the op, a fragment or a multiply-accumulate whose types and shape are not in its list, naming the list.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.ir import Operation

from sarek.dialect import sarek as s


@dataclass(frozen=True)
class Config:
    """d = a @ b + c with `inputs` elements (a and b), `acc` elements (c and d), a MxK, b KxN; with `up_to`,
    also M, N and K any multiple of m, n and k up to `up_to` (tiles the lowering composes from the base shape)."""

    inputs: tuple[str, ...]
    acc: tuple[str, ...]
    m: int
    n: int
    k: int
    up_to: int = 0

    def text(self) -> str:
        more = f" (and multiples up to {self.up_to})" if self.up_to else ""
        return f"{'/'.join(self.inputs)} x {'/'.join(self.acc)} at {self.m}x{self.n}x{self.k}{more}"

    def fits(self, m: int, n: int, k: int) -> bool:
        if not self.up_to:
            return (m, n, k) == (self.m, self.n, self.k)
        return all(0 < x <= self.up_to and x % base == 0 for x, base in ((m, self.m), (n, self.n), (k, self.k)))


#: the portable shapes (docs/KERNELS.md): every target with matrix hardware compiles these
PORTABLE = (Config(("f16",), ("f32", "f16"), 16, 16, 16), Config(("bf16",), ("f32",), 16, 16, 16),
            Config(("u8", "i8"), ("i32",), 16, 16, 32))

#: target -> the configurations it compiles (CUDA: nvcuda::wmma m16n16k16 pieces, composed into tiles up to 64
#: in each dimension: a 64x64 accumulator is 16 wmma fragments, register blocking written by the lowering; the
#: 8-bit 16x16x32 is two k-steps; wmma has bf16 only with f32 accumulators)
SHAPES: dict[str, tuple[Config, ...]] = {"cuda": tuple(replace(c, up_to=64) for c in PORTABLE),
                                         # HIP: MFMA on CDNA (wave64): f32_16x16x16f16; i32 16x16x16i8 twice
                                         # (gfx90a) or 16x16x32_i8 (gfx94x) for 8-bit
                                         "hip": (Config(("f16",), ("f32",), 16, 16, 16, 64),
                                                 Config(("u8", "i8"), ("i32",), 16, 16, 32, 64)),
                                         # PTX: mma.sync m16n8k16 pieces, f32 accumulators; m16n8k32 for 8-bit
                                         "ptx": (Config(("f16", "bf16"), ("f32",), 16, 16, 16, 64),
                                                 Config(("u8", "i8"), ("i32",), 16, 16, 32, 64)),
                                         # Metal: simdgroup_matrix 8x8 pieces (half, float; bfloat from MSL
                                         # 3.1) composed into the portable 16x16x16 and tiles up to 64; 8x8x8
                                         # itself is Metal's own shape
                                         "metal": (Config(("f16",), ("f32", "f16"), 8, 8, 8, 64),
                                                   Config(("bf16",), ("f32",), 8, 8, 8, 64)),
                                         # GLSL: GL_KHR_cooperative_matrix pieces (f16 16x16x16, 8-bit 16x16x32:
                                         # what Vulkan drivers offer); bf16 needs GL_EXT_bfloat16 (not in glslang 13)
                                         "glsl": (Config(("f16",), ("f32", "f16"), 16, 16, 16, 64),
                                                  Config(("u8", "i8"), ("i32",), 16, 16, 32, 64))}

#: targets holding local (per-thread) arrays of 8/16-bit elements one per 32-bit word: no narrow fragment moves
#: through them (GLSL packs a shared array a narrow fragment moves through, sarek.lowering.shader.coopmat)
WORD_ARRAYS = ("glsl",)
#: target -> why it refuses cooperative matrices
REFUSALS: dict[str, str] = {
    "opencl": "OpenCL C has no portable matrix API (only vendor extensions)",
    "wgsl": ("wgpu's cooperative matrices are experimental: wgpu-py (0.32, wgpu-native 29) cannot enable wgpu's "
             "experimental features, which EXPERIMENTAL_COOPERATIVE_MATRIX needs (its instance and device extras have "
             "no such field), wgpu's matrices are 8x8 f32 only, and naga's SPIR-V reader refuses the "
             "CooperativeMatrixKHR capability"),
}


#: target -> element type -> why its matrices have no such elements (said before the supported list)
ELEMENT_REFUSALS: dict[str, dict[str, str]] = {
    "glsl": {"bf16": "GL_EXT_bfloat16 (bfloat16_t matrices) is newer than the pinned glslang 13.1.1, which rejects "
                     "the extension, so no bf16 GLSL can be validated"},
    "metal": dict.fromkeys(("u8", "i8", "i32"), "Metal's simdgroup_matrix holds half, float and bfloat elements only (no "
                                   "integer matrices)"),
}
#: target -> memory spaces its fragments cannot be loaded from or stored to, and why
SPACE_REFUSALS: dict[str, dict[str, str]] = {
    "metal": {"local": "Metal's simdgroup_load/simdgroup_store read and write device or threadgroup memory only"},
}


def _elt(t: object) -> str:
    e = str(t)
    return "u8" if e == "ui8" else e


def _supported(target: str) -> str:
    return "; ".join(c.text() for c in SHAPES[target])


#: the targets with warpgroup fragments (`scope="warpgroup"`: Hopper's wgmma, PTX at `.target sm_90a`)
WARPGROUP_TARGETS = ("ptx",)
WARPGROUP_REFUSAL = ("warpgroup fragments (scope=\"warpgroup\") are not supported on this target: they lower to "
                     "Hopper's warpgroup MMA (wgmma), which only PTX reaches (`.target sm_90a`); use warp fragments "
                     "(the default scope) here")


def _warpgroup(op: Operation) -> bool:
    frag = op.frag.data if isinstance(op, s.CoopmatDeclOp | s.CoopmatFillOp | s.CoopmatLoadOp | s.CoopmatStoreOp) \
        else op.d.data if isinstance(op, s.CoopmatMulAddOp) else None
    return frag is not None and s.is_warpgroup(op, frag)


def uses_warpgroup(module: Operation) -> bool:
    """Whether `module` holds warpgroup fragments (on PTX: wgmma, which needs `.target sm_90a`)."""
    return any(_warpgroup(op) for op in module.walk())


def coopmat_refusal(op: Operation, target: str) -> str | None:
    """Why `target` (one with cooperative matrices) cannot compile `op`, or None."""
    configs = SHAPES.get(target)
    if configs is None:
        return None
    if _warpgroup(op):  # shapes and types checked by the op's verifier and the front end
        return None if target in WARPGROUP_TARGETS else WARPGROUP_REFUSAL
    if isinstance(op, s.CoopmatDeclOp):
        use, e, r, c = op.use.data, _elt(op.element_type), op.rows.value.data, op.cols.value.data
        ok = any((use == "a" and e in x.inputs and x.fits(r, x.n, c)) or
                 (use == "b" and e in x.inputs and x.fits(x.m, c, r)) or
                 (use == "acc" and e in x.acc and x.fits(r, c, x.k)) for x in configs)
        if not ok:
            why = ELEMENT_REFUSALS.get(target, {}).get(e)
            return (f"a {r}x{c} '{use}' fragment of {e} is not supported on this target{f': {why}' if why else ''} "
                    f"(supported: {_supported(target)})")
    if isinstance(op, s.CoopmatMulAddOp):
        fa, fc = s.fragment_decl(op, op.a.data), s.fragment_decl(op, op.c.data)
        fb = s.fragment_decl(op, op.b.data)
        m, k, n = fa.rows.value.data, fa.cols.value.data, fb.cols.value.data
        a, acc = _elt(fa.element_type), _elt(fc.element_type)
        if not any(a in x.inputs and acc in x.acc and x.fits(m, n, k) for x in configs):
            return (f"a multiply-accumulate of {a} into {acc} at {m}x{n}x{k} is not supported on this target "
                    f"(supported: {_supported(target)})")
    if isinstance(op, s.CoopmatFillOp) and target == "ptx" and s.fragment_decl(op, op.frag.data).use.data != "acc":
        return "the PTX lowering fills accumulator fragments only; load an 'a' or 'b' fragment from memory"
    if isinstance(op, s.CoopmatLoadOp | s.CoopmatStoreOp) and isinstance(op.array.type, s.ArrayType) and \
            (why := SPACE_REFUSALS.get(target, {}).get(op.array.type.memspace.value)) is not None:
        return f"fragment '{op.frag.data}' moves through a {op.array.type.memspace.value} array: {why}"
    if isinstance(op, s.CoopmatLoadOp | s.CoopmatStoreOp) and target in WORD_ARRAYS and \
            isinstance(op.array.type, s.ArrayType) and op.array.type.memspace == s.MemSpace.LOCAL and \
            (e := _elt(s.fragment_decl(op, op.frag.data).element_type)) in ("u8", "i8", "f16"):
        return (f"fragment '{op.frag.data}' of {e} elements moves through a local array, which sarek's GLSL holds one "
                "element per 32-bit word (coopMatLoad/coopMatStore need the elements packed); load it from a Vec or "
                "Array parameter or a shared array, or stage f32/i32 (an accumulator) in a local array")
    if isinstance(op, s.CoopmatLoadOp) and target == "cuda":
        d = s.fragment_decl(op, op.frag.data)
        f = s.enclosing_function(op)
        first = next(o for o in f.walk() if isinstance(o, s.CoopmatLoadOp) and o.frag.data == op.frag.data) \
            if f is not None else op
        if d.use.data != "acc" and (first.col_major is None) != (op.col_major is None):
            return (f"fragment '{op.frag.data}' is loaded both row-major and col-major: a wmma '{d.use.data}' fragment "
                    "has one layout; declare one fragment per layout")
    return None
