// RUN: sarek-opt %s -p 'sarek-pipeline{target=glsl block=32}' -t glsl --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl}' --split-input-file | filecheck %s --check-prefix=PACK
// RUN: sarek-opt %s -p 'sarek-widen-f16{target=glsl}' --split-input-file | filecheck %s --check-prefix=WIDEN
// Cooperative matrices on GLSL: GL_KHR_cooperative_matrix at subgroup scope. sarek-pack-narrow stores the 8-bit
// vectors as words and marks their coop loads `sarek.words`; the lowering reads them through a second
// declaration of the same binding with the narrow element type. u8 inputs accumulate in a uint matrix (drivers
// offer u8 x u8 -> u32; the bits are the i32 buffer's).

builtin.module {
  sarek.kernel @u8mm(%a : !sarek.vec<ui8> "a", %b : !sarek.vec<ui8> "b", %c : !sarek.vec<i32> "c") {
    %z = sarek.constant 0 : i32
    %k = sarek.constant 32 : i32
    %n = sarek.constant 16 : i32
    %x = sarek.constant 0 : i32
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_decl "qb" b 32x16 : ui8
    sarek.coopmat_decl "qc" acc 16x16 : i32
    sarek.coopmat_fill "qc", %x : i32
    sarek.coopmat_load "qa" from %a[%z] stride %k : !sarek.vec<ui8>
    sarek.coopmat_load "qb" from %b[%z] stride %n : !sarek.vec<ui8>
    sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qc" to %c[%z] stride %n : !sarek.vec<i32>
  }
}
// PACK:      sarek.coopmat_load "qa" from %{{.*}}[%{{.*}}] stride %{{.*}} : !sarek.vec<i32> attributes {sarek.words}
// PACK:      sarek.coopmat_store "qc" to %{{.*}}[%{{.*}}] stride %{{.*}} : !sarek.vec<i32>{{$}}
// CHECK:      #version 450
// CHECK-NEXT: #extension GL_KHR_cooperative_matrix : require
// CHECK-NEXT: #extension GL_KHR_memory_scope_semantics : require
// CHECK-NEXT: #extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// CHECK:      layout(std430, set = 0, binding = 0) buffer Buffer_a { int a[]; };
// CHECK:      layout(std430, set = 0, binding = 2) buffer Buffer_c { int c[]; };
// CHECK-NEXT: layout(std430, set = 0, binding = 0) buffer sarek_coop_block_a { uint8_t sarek_coop_a[]; };
// CHECK-NEXT: layout(std430, set = 0, binding = 1) buffer sarek_coop_block_b { uint8_t sarek_coop_b[]; };
// CHECK:      void main() {
// CHECK-NEXT:   coopmat<uint8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> sarek_frag_qa;
// CHECK-NEXT:   coopmat<uint8_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> sarek_frag_qb;
// CHECK-NEXT:   coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> sarek_frag_qc;
// CHECK-NEXT:   sarek_frag_qc = coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(uint(0));
// CHECK-NEXT:   coopMatLoad(sarek_frag_qa, sarek_coop_a, uint(0), uint(32), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT:   coopMatLoad(sarek_frag_qb, sarek_coop_b, uint(0), uint(16), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT:   sarek_frag_qc = coopMatMulAdd(sarek_frag_qa, sarek_frag_qb, sarek_frag_qc);
// CHECK-NEXT:   coopMatStore(sarek_frag_qc, c, uint(0), uint(16), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT: }

// -----

// A 32x32 i8 tile over k = 32 composes four 16x16 accumulator pieces from two a and two b pieces (one k-step);
// a column-major b piece (i, j) starts at j*16*stride + i*32; int8_t inputs accumulate in int (the scalar `s`
// is the push constant `s_`).
builtin.module {
  sarek.kernel @i8mm(%a : !sarek.vec<i8> "a", %c : !sarek.vec<i32> "c", %s : i32 "s") {
    %z = sarek.constant 0 : i32
    sarek.coopmat_decl "qa" a 32x32 : i8
    sarek.coopmat_decl "qb" b 32x32 : i8
    sarek.coopmat_decl "qc" acc 32x32 : i32
    sarek.coopmat_load "qa" from %a[%z] stride %s : !sarek.vec<i8>
    sarek.coopmat_load "qb" from %a[%s] stride %s col_major : !sarek.vec<i8>
    sarek.coopmat_load "qc" from %c[%z] stride %s : !sarek.vec<i32>
    sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qc" to %c[%z] stride %s col_major : !sarek.vec<i32>
  }
}
// CHECK:      coopmat<int8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> sarek_frag_qa_0_0;
// CHECK-NEXT: coopmat<int8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> sarek_frag_qa_1_0;
// CHECK-NEXT: coopmat<int8_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> sarek_frag_qb_0_0;
// CHECK-NEXT: coopmat<int8_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> sarek_frag_qb_0_1;
// CHECK-NEXT: coopmat<int, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> sarek_frag_qc_0_0;
// CHECK:      coopMatLoad(sarek_frag_qa_1_0, sarek_coop_a, uint(0 + s_ * 16), uint(s_), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT: coopMatLoad(sarek_frag_qb_0_0, sarek_coop_a, uint(s_), uint(s_), gl_CooperativeMatrixLayoutColumnMajor);
// CHECK-NEXT: coopMatLoad(sarek_frag_qb_0_1, sarek_coop_a, uint(s_ + s_ * 16), uint(s_), gl_CooperativeMatrixLayoutColumnMajor);
// CHECK:      sarek_frag_qc_1_1 = coopMatMulAdd(sarek_frag_qa_1_0, sarek_frag_qb_0_1, sarek_frag_qc_1_1);
// CHECK:      coopMatStore(sarek_frag_qc_0_1, c, uint(0 + s_ * 16), uint(s_), gl_CooperativeMatrixLayoutColumnMajor);

// -----

// f16 vectors hold their bits (sarek-widen-f16, then 32-bit words): the coop loads read them through a float16_t
// declaration of the binding; f16 inputs need the float16 arithmetic-types extension.
builtin.module {
  sarek.kernel @hmm(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %x = sarek.constant 0.0 : f32
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%s] stride %s col_major : !sarek.vec<f16>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
  }
}
// WIDEN:      sarek.coopmat_load "fa" from %{{.*}}[%{{.*}}] stride %{{.*}} : !sarek.vec<ui16> attributes {sarek.words}
// CHECK:      #extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// CHECK:      layout(std430, set = 0, binding = 0) buffer sarek_coop_block_a { float16_t sarek_coop_a[]; };
// CHECK:      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> sarek_frag_fa;
// CHECK:      coopMatLoad(sarek_frag_fa, sarek_coop_a, uint(0), uint(16), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT: coopMatLoad(sarek_frag_fb, sarek_coop_a, uint(16), uint(16), gl_CooperativeMatrixLayoutColumnMajor);
// CHECK-NEXT: sarek_frag_acc = coopMatMulAdd(sarek_frag_fa, sarek_frag_fb, sarek_frag_acc);
// CHECK-NEXT: coopMatStore(sarek_frag_acc, c, uint(0), uint(16), gl_CooperativeMatrixLayoutRowMajor);

// -----

// A shared array an f16 (or 8-bit) fragment moves through is packed in its element type (`shared float16_t`), so
// coopMatLoad/coopMatStore see elements at their offsets; its element stores and reads convert the 32-bit words
// the IR holds after sarek-pack-narrow (the f16 bits) through packHalf2x16/unpackHalf2x16; a shared u8 array is
// `shared uint8_t`. Other shared arrays of narrow types keep one element per word. An f16 element copied as it is
// (sarek-widen-f16) stores the bits it read, not their round trip through f32.
builtin.module {
  sarek.kernel @staged(%a : !sarek.vec<f16> "a", %q : !sarek.vec<ui8> "q", %c : !sarek.vec<f32> "c", %ci : !sarek.vec<i32> "ci") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %t = sarek.constant 32 : i32
    %n = sarek.constant 256 : i32
    %n8 = sarek.constant 512 : i32
    %x = sarek.constant 0.0 : f32
    %xi = sarek.constant 0 : i32
    %sa = sarek.alloc_array "sa"[%n] : !sarek.array<f16, shared>
    %sq = sarek.alloc_array "sq"[%n8] : !sarek.array<ui8, shared>
    %so = sarek.alloc_array "so"[%n] : !sarek.array<f16, shared>
    %v = sarek.array_read %a[%z] : !sarek.vec<f16>
    %ra = sarek.elem_ref %sa[%z] : !sarek.array<f16, shared>
    sarek.store %ra, %v : !sarek.ref<f16>
    %ro = sarek.elem_ref %so[%z] : !sarek.array<f16, shared>
    sarek.store %ro, %v : !sarek.ref<f16>
    %qv = sarek.array_read %q[%z] : !sarek.vec<ui8>
    %rq = sarek.elem_ref %sq[%z] : !sarek.array<ui8, shared>
    sarek.store %rq, %qv : !sarek.ref<ui8>
    sarek.barrier
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %sa[%z] stride %s : !sarek.array<f16, shared>
    sarek.coopmat_load "fb" from %sa[%z] stride %s col_major : !sarek.array<f16, shared>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_decl "qb" b 32x16 : ui8
    sarek.coopmat_decl "qc" acc 16x16 : i32
    sarek.coopmat_fill "qc", %xi : i32
    sarek.coopmat_load "qa" from %sq[%z] stride %t : !sarek.array<ui8, shared>
    sarek.coopmat_load "qb" from %sq[%z] stride %s : !sarek.array<ui8, shared>
    sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qc" to %ci[%z] stride %s : !sarek.vec<i32>
  }
}
// PACK:       sarek.coopmat_load "qa" from %{{.*}}[%{{.*}}] stride %{{.*}} : !sarek.array<i32, shared> attributes {sarek.words}
// CHECK-DAG:  shared float16_t sa[256];
// CHECK-DAG:  shared uint8_t sq[512];
// CHECK-DAG:  shared int so[256];
// CHECK:      int [[BITS:sarek_t[0-9]+]] = (a[0] & 65535);
// CHECK-NEXT: sa[0] = float16_t(unpackHalf2x16(uint([[BITS]])).x);
// CHECK-NEXT: so[0] = [[BITS]];
// CHECK-NEXT: sq[0] = uint8_t((q[0] & 255));
// CHECK:      coopMatLoad(sarek_frag_fa, sa, uint(0), uint(16), gl_CooperativeMatrixLayoutRowMajor);
// CHECK-NEXT: coopMatLoad(sarek_frag_fb, sa, uint(0), uint(16), gl_CooperativeMatrixLayoutColumnMajor);
// CHECK:      coopMatLoad(sarek_frag_qa, sq, uint(0), uint(32), gl_CooperativeMatrixLayoutRowMajor);
