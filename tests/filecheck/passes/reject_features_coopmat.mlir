// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=ptx}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-reject-features{target=hip}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %s -p 'sarek-reject-features{target=opencl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=metal}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=METAL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=WGSL

// Every target without cooperative matrices refuses at the first coop op, with its reason; HIP (MFMA) has no
// 8-bit path; PTX (mma.sync m16n8k32) and GLSL (GL_KHR_cooperative_matrix) have.
builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "qc" acc 16x16 : i32 loc("k.py":3:3)
  }
}
// CUDA: sarek.coopmat_decl "qc" acc 16x16 : i32
// PTX: sarek.coopmat_decl "qc" acc 16x16 : i32
// HIP: k.py:3:3: error: HIP: cooperative matrices: a 16x16 'acc' fragment of i32 is not supported on this target (supported: f16 x f32 at 16x16x16 (and multiples up to 64))
// OPENCL: k.py:3:3: error: OpenCL: cooperative matrices not yet supported (OpenCL C has no portable matrix API (only vendor extensions))
// METAL: k.py:3:3: error: Metal: cooperative matrices not yet supported (the simdgroup_matrix lowering is not implemented for this target yet)
// GLSL: sarek.coopmat_decl "qc" acc 16x16 : i32
// WGSL: k.py:3:3: error: WGSL: cooperative matrices not yet supported (wgpu's cooperative matrices are experimental: wgpu-py cannot enable EXPERIMENTAL_COOPERATIVE_MATRIX and naga's SPIR-V reader refuses the CooperativeMatrixKHR capability)

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

// On GLSL an 8-bit (or f16) fragment moves through a Vec or Array parameter, not a shared array (held one element per word
// there); bf16 fragments are refused with the list (GL_EXT_bfloat16 is newer than glslang 13).
builtin.module {
  sarek.kernel @k() {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 32 : i32
    %n = sarek.constant 512 : i32
    %sh = sarek.alloc_array "sh"[%n] : !sarek.array<ui8, shared>
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_load "qa" from %sh[%z] stride %s : !sarek.array<ui8, shared> loc("k.py":7:3)
  }
}
// GLSL: k.py:7:3: error: GLSL: cooperative matrices: fragment 'qa' of u8 elements moves through a shared or local array, which GLSL holds one element per 32-bit word; load it from a Vec or Array parameter

// -----

builtin.module {
  sarek.kernel @k() {
    sarek.coopmat_decl "fa" a 16x16 : bf16 loc("k.py":8:3)
  }
}
// GLSL: k.py:8:3: error: GLSL: cooperative matrices: a 16x16 'a' fragment of bf16 is not supported on this target (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))
