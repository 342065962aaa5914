// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=ptx}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-reject-features{target=hip}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %s -p 'sarek-reject-features{target=opencl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=metal}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=METAL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=WGSL

// Every target without cooperative matrices refuses at the first coop op, with its reason; Metal's
// simdgroup_matrix has no integer elements; PTX (mma.sync m16n8k32), HIP (MFMA i8 on CDNA) and GLSL
// (GL_KHR_cooperative_matrix) have an 8-bit path.
builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "qc" acc 16x16 : i32 loc("k.py":3:3)
  }
}
// CUDA: sarek.coopmat_decl "qc" acc 16x16 : i32
// PTX: sarek.coopmat_decl "qc" acc 16x16 : i32
// HIP: sarek.coopmat_decl "qc" acc 16x16 : i32
// OPENCL: k.py:3:3: error: OpenCL: cooperative matrices not yet supported (OpenCL C has no portable matrix API (only vendor extensions))
// METAL: k.py:3:3: error: Metal: cooperative matrices: a 16x16 'acc' fragment of i32 is not supported on this target: Metal's simdgroup_matrix holds half, float and bfloat elements only (no integer matrices) (supported: f16 x f32/f16 at 8x8x8 (and multiples up to 64); bf16 x f32 at 8x8x8 (and multiples up to 64))
// GLSL: sarek.coopmat_decl "qc" acc 16x16 : i32
// WGSL: k.py:3:3: error: WGSL: cooperative matrices not yet supported (wgpu's cooperative matrices are experimental: wgpu-py (0.32, wgpu-native 29) cannot enable wgpu's experimental features, which EXPERIMENTAL_COOPERATIVE_MATRIX needs (its instance and device extras have no such field), wgpu's matrices are 8x8 f32 only, and naga's SPIR-V reader refuses the CooperativeMatrixKHR capability)

// -----

// The portable shapes (f16, and u8 at 16x16x32), row- and column-major: CUDA compiles them.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16> "a", %q : !sarek.vec<ui8> "q", %c : !sarek.vec<f32> "c", %d : !sarek.vec<i32> "d") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_load "fa" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%z] stride %s col_major : !sarek.vec<f16>
    sarek.coopmat_load "fc" from %c[%z] stride %s : !sarek.vec<f32>
    sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
    sarek.coopmat_store "fc" to %c[%z] stride %s : !sarek.vec<f32>
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_decl "qb" b 32x16 : ui8
    sarek.coopmat_decl "qc" acc 16x16 : i32
    sarek.coopmat_load "qa" from %q[%z] stride %s : !sarek.vec<ui8>
    sarek.coopmat_load "qb" from %q[%z] stride %s : !sarek.vec<ui8>
    sarek.coopmat_load "qc" from %d[%z] stride %s : !sarek.vec<i32>
    sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qc" to %d[%z] stride %s : !sarek.vec<i32>
  }
}
// CUDA: sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"

// -----

// A fragment shape outside the target's list (on cuda, multiples of 16 up to 64) is refused at its declaration,
// naming the list.
builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "fa" a 24x16 : f16 loc("k.py":4:3)
  }
}
// CUDA: k.py:4:3: error: CUDA: cooperative matrices: a 24x16 'a' fragment of f16 is not supported on this target (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); bf16 x f32 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))

// -----

// wmma has bf16 only with f32 accumulators: the multiply-accumulate is refused.
builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "fa" a 16x16 : bf16
    sarek.coopmat_decl "fb" b 16x16 : bf16
    sarek.coopmat_decl "fc" acc 16x16 : f16
    sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc" loc("k.py":5:3)
  }
}
// CUDA: k.py:5:3: error: CUDA: cooperative matrices: a multiply-accumulate of bf16 into f16 at 16x16x16 is not supported on this target (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); bf16 x f32 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))

// -----

// A wmma a/b fragment has one layout: loading it both ways is refused at the second load.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16> "a") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_load "fb" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%z] stride %s col_major : !sarek.vec<f16> loc("k.py":6:3)
  }
}
// CUDA: k.py:6:3: error: CUDA: cooperative matrices: fragment 'fb' is loaded both row-major and col-major: a wmma 'b' fragment has one layout; declare one fragment per layout

// -----

// On GLSL an 8-bit (or f16) fragment moves through a Vec or Array parameter or a shared array (packed there), not a
// local array (held one element per word); bf16 fragments are refused with the reason (glslang 13.1.1 rejects
// GL_EXT_bfloat16) and the list.
builtin.module {
  sarek.kernel @k() {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 32 : i32
    %n = sarek.constant 512 : i32
    %sh = sarek.alloc_array "sh"[%n] : !sarek.array<ui8, local>
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_load "qa" from %sh[%z] stride %s : !sarek.array<ui8, local> loc("k.py":7:3)
  }
}
// GLSL: k.py:7:3: error: GLSL: cooperative matrices: fragment 'qa' of u8 elements moves through a local array, which sarek's GLSL holds one element per 32-bit word (coopMatLoad/coopMatStore need the elements packed); load it from a Vec or Array parameter or a shared array, or stage f32/i32 (an accumulator) in a local array

// -----

builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "fa" a 16x16 : bf16 loc("k.py":8:3)
  }
}
// GLSL: k.py:8:3: error: GLSL: cooperative matrices: a 16x16 'a' fragment of bf16 is not supported on this target: GL_EXT_bfloat16 (bfloat16_t matrices) is newer than the pinned glslang 13.1.1, which rejects the extension, so no bf16 GLSL can be validated (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))

// -----

// Metal composes 8x8 simdgroup_matrix pieces: 8x8x8 itself and the portable 16x16x16 (f16, bf16) compile; an
// 8-bit fragment is refused with the reason, as is a fragment moving through a local (thread) array, which
// simdgroup_load cannot read.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 8 : i32
    sarek.coopmat_decl "fa" a 8x8 : f16
    sarek.coopmat_decl "fb" b 8x8 : f16
    sarek.coopmat_decl "fc" acc 8x8 : f16
    sarek.coopmat_decl "ga" a 16x16 : bf16
    sarek.coopmat_decl "gb" b 16x16 : bf16
    sarek.coopmat_decl "gc" acc 16x16 : f32
    sarek.coopmat_load "fa" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%z] stride %s col_major : !sarek.vec<f16>
    sarek.coopmat_load "fc" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
    sarek.coopmat_store "fc" to %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_muladd "gc" = "ga" * "gb" + "gc"
  }
}
// METAL: sarek.coopmat_muladd "gc" = "ga" * "gb" + "gc"

// -----

builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "qa" a 16x32 : i8 loc("k.py":9:3)
  }
}
// METAL: k.py:9:3: error: Metal: cooperative matrices: a 16x32 'a' fragment of i8 is not supported on this target: Metal's simdgroup_matrix holds half, float and bfloat elements only (no integer matrices) (supported: f16 x f32/f16 at 8x8x8 (and multiples up to 64); bf16 x f32 at 8x8x8 (and multiples up to 64))

// -----

builtin.module {
  sarek.kernel @k() {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %n = sarek.constant 256 : i32
    %l = sarek.alloc_array "l"[%n] : !sarek.array<f32, local>
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_store "fc" to %l[%z] stride %s : !sarek.array<f32, local> loc("k.py":10:3)
  }
}
// METAL: k.py:10:3: error: Metal: cooperative matrices: fragment 'fc' moves through a local array: Metal's simdgroup_load/simdgroup_store read and write device or threadgroup memory only
