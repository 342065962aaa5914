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
