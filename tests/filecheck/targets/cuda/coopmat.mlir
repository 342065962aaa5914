// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' -t cuda --split-input-file | filecheck %s
// Cooperative matrices on cuda: nvcuda::wmma. A 16x16 fragment is one wmma fragment; the 8-bit 16x32 / 32x16
// fragments are two m16n16k16 pieces along k (two mma_sync k-steps); an a/b fragment's layout comes from its
// loads; the accumulator's is given per load/store.

builtin.module {
  sarek.kernel @hgemm(%a : !sarek.vec<f16, 2> "a", %b : !sarek.vec<f16, 2> "b", %c : !sarek.vec<f32, 2> "c") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 0.0 : f32
    %lda = sarek.array_dim %a, 1 : !sarek.vec<f16, 2>
    %ldc = sarek.array_dim %c, 1 : !sarek.vec<f32, 2>
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %a[%z] stride %lda : !sarek.vec<f16, 2>
    sarek.coopmat_load "fb" from %b[%z] stride %lda col_major : !sarek.vec<f16, 2>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %ldc col_major : !sarek.vec<f32, 2>
  }
}
// CHECK:      #include <mma.h>
// CHECK:      extern "C" __global__ void hgemm(
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> sarek_frag_fa;
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> sarek_frag_fb;
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> sarek_frag_acc;
// CHECK-NEXT:   nvcuda::wmma::fill_fragment(sarek_frag_acc, 0.0f);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_fa, (const half*)(a + (0)), sarek_a_dim1);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_fb, (const half*)(b + (0)), sarek_a_dim1);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_acc, sarek_frag_fa, sarek_frag_fb, sarek_frag_acc);
// CHECK-NEXT:   nvcuda::wmma::store_matrix_sync((c + (0)), sarek_frag_acc, sarek_c_dim1, nvcuda::wmma::mem_col_major);
// CHECK-NEXT: }

// -----

builtin.module {
  sarek.kernel @imma(%q : !sarek.vec<i8> "q", %d : !sarek.vec<i32> "d", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    sarek.coopmat_decl "qa" a 16x32 : i8
    sarek.coopmat_decl "qb" b 32x16 : i8
    sarek.coopmat_decl "qc" acc 16x16 : i32
    sarek.coopmat_decl "qd" acc 16x16 : i32
    sarek.coopmat_load "qa" from %q[%z] stride %n : !sarek.vec<i8>
    sarek.coopmat_load "qb" from %q[%n] stride %n col_major : !sarek.vec<i8>
    sarek.coopmat_load "qc" from %d[%z] stride %n : !sarek.vec<i32>
    sarek.coopmat_muladd "qd" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qd" to %d[%z] stride %n : !sarek.vec<i32>
  }
}
// CHECK:      extern "C" __global__ void imma(
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char, nvcuda::wmma::row_major> sarek_frag_qa_0_0;
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char, nvcuda::wmma::row_major> sarek_frag_qa_0_1;
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, signed char, nvcuda::wmma::col_major> sarek_frag_qb_0_0;
// CHECK-NEXT:   nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, signed char, nvcuda::wmma::col_major> sarek_frag_qb_1_0;
// CHECK:        nvcuda::wmma::load_matrix_sync(sarek_frag_qa_0_0, (const signed char*)(q + (0)), n);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_qa_0_1, (const signed char*)(q + (0) + 16), n);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_qb_0_0, (const signed char*)(q + (n)), n);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_qb_1_0, (const signed char*)(q + (n) + 16), n);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_qc, (d + (0)), n, nvcuda::wmma::mem_row_major);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_qd, sarek_frag_qa_0_0, sarek_frag_qb_0_0, sarek_frag_qc);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_qd, sarek_frag_qa_0_1, sarek_frag_qb_1_0, sarek_frag_qd);
// CHECK-NEXT:   nvcuda::wmma::store_matrix_sync((d + (0)), sarek_frag_qd, n, nvcuda::wmma::mem_row_major);

// -----

// A 32x32 accumulator from 32x16 and 16x32 fragments: 2x2 pieces, each one mma_sync; the shared tile the
// fragments load from is 32-byte aligned (wmma's address rule).
builtin.module {
  sarek.kernel @blocked(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 32 : i32
    %n = sarek.constant 512 : i32
    %sh = sarek.alloc_array "tile"[%n] : !sarek.array<f16, shared>
    sarek.coopmat_decl "fa" a 32x16 : f16
    sarek.coopmat_decl "fb" b 16x32 : f16
    sarek.coopmat_decl "acc" acc 32x32 : f32
    sarek.coopmat_load "fa" from %sh[%z] stride %s : !sarek.array<f16, shared>
    sarek.coopmat_load "fb" from %a[%z] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "acc" from %c[%z] stride %s : !sarek.vec<f32>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
  }
}
// CHECK:      extern "C" __global__ void blocked(
// CHECK-NEXT:   __shared__ __align__(32) __half tile[512];
// CHECK:        nvcuda::wmma::load_matrix_sync(sarek_frag_fa_1_0, (const half*)(tile + (0) + (32) * 16), 32);
// CHECK:        nvcuda::wmma::mma_sync(sarek_frag_acc_0_0, sarek_frag_fa_0_0, sarek_frag_fb_0_0, sarek_frag_acc_0_0);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_acc_0_1, sarek_frag_fa_0_0, sarek_frag_fb_0_1, sarek_frag_acc_0_1);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_acc_1_0, sarek_frag_fa_1_0, sarek_frag_fb_0_0, sarek_frag_acc_1_0);
// CHECK-NEXT:   nvcuda::wmma::mma_sync(sarek_frag_acc_1_1, sarek_frag_fa_1_0, sarek_frag_fb_0_1, sarek_frag_acc_1_1);
// CHECK:        nvcuda::wmma::store_matrix_sync((c + (0) + (32) * 16 + 16), sarek_frag_acc_1_1, 32, nvcuda::wmma::mem_row_major);

// -----

// bf16 a/b fragments loaded from shared memory go through sarek_wmma_load_shared (inline PTX naming the shared
// state space: the header's bf16 loads are generic, so ptxas would use element loads, not ldmatrix); a bf16 load
// from global memory and the accumulator's keep load_matrix_sync.
builtin.module {
  sarek.kernel @bgemm(%a : !sarek.vec<bf16> "a", %c : !sarek.vec<f32> "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 32 : i32
    %n = sarek.constant 512 : i32
    %sh = sarek.alloc_array "tile"[%n] : !sarek.array<bf16, shared>
    sarek.coopmat_decl "fa" a 32x16 : bf16
    sarek.coopmat_decl "fb" b 16x16 : bf16
    sarek.coopmat_decl "fg" b 16x16 : bf16
    sarek.coopmat_decl "acc" acc 32x16 : f32
    sarek.coopmat_load "fa" from %sh[%z] stride %s : !sarek.array<bf16, shared>
    sarek.coopmat_load "fb" from %sh[%n] stride %s col_major : !sarek.array<bf16, shared>
    sarek.coopmat_load "fg" from %a[%z] stride %s : !sarek.vec<bf16>
    sarek.coopmat_load "acc" from %c[%z] stride %s : !sarek.vec<f32>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_muladd "acc" = "fa" * "fg" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
  }
}
// CHECK:      #include <mma.h>
// CHECK:      #define SAREK_WMMA_LD_BF16(U, L)
// CHECK:        asm volatile("wmma.load." #U ".sync.aligned." #L ".m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;"
// CHECK:      SAREK_WMMA_LD_BF16(a, row) SAREK_WMMA_LD_BF16(a, col) SAREK_WMMA_LD_BF16(b, row) SAREK_WMMA_LD_BF16(b, col)
// CHECK:      extern "C" __global__ void bgemm(
// CHECK:        nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::col_major> sarek_frag_fb;
// CHECK:        sarek_wmma_load_shared(sarek_frag_fa_0_0, (const __nv_bfloat16*)(tile + (0)), 32);
// CHECK-NEXT:   sarek_wmma_load_shared(sarek_frag_fa_1_0, (const __nv_bfloat16*)(tile + (0) + (32) * 16), 32);
// CHECK-NEXT:   sarek_wmma_load_shared(sarek_frag_fb, (const __nv_bfloat16*)(tile + (512)), 32);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_fg, (const __nv_bfloat16*)(a + (0)), 32);
// CHECK-NEXT:   nvcuda::wmma::load_matrix_sync(sarek_frag_acc_0_0, (c + (0)), 32, nvcuda::wmma::mem_row_major);
