// c = a * b for n x n row-major matrices (n a multiple of 16), 16x16 tiles in shared memory
builtin.module {
  sarek.kernel @matmul(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %c256 = sarek.constant 256 : i32
    %c16 = sarek.constant 16 : i32
    %c0 = sarek.constant 0 : i32
    %ta = sarek.alloc_array "ta"[%c256] : !sarek.array<f32, shared>
    %tb = sarek.alloc_array "tb"[%c256] : !sarek.array<f32, shared>
    %tx = sarek.intrinsic "thread_idx_x"() : () -> i32
    %ty = sarek.intrinsic "thread_idx_y"() : () -> i32
    %col = sarek.intrinsic "global_idx_x"() : () -> i32
    %row = sarek.intrinsic "global_idx_y"() : () -> i32
    %zero = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %zero : f32
    %ntiles = sarek.binop div %n, %c16 : i32
    %slot0 = sarek.binop mul %ty, %c16 : i32
    %slot = sarek.binop add %slot0, %tx : i32
    sarek.for "t" %t = %c0 to %ntiles step 1 : i32 {
      %t16 = sarek.binop mul %t, %c16 : i32
      %rn = sarek.binop mul %row, %n : i32
      %acol = sarek.binop add %t16, %tx : i32
      %ai = sarek.binop add %rn, %acol : i32
      %av = sarek.array_read %a[%ai] : !sarek.vec<f32>
      %pa = sarek.elem_ref %ta[%slot] : !sarek.array<f32, shared>
      sarek.store %pa, %av : !sarek.ref<f32>
      %brow = sarek.binop add %t16, %ty : i32
      %brn = sarek.binop mul %brow, %n : i32
      %bi = sarek.binop add %brn, %col : i32
      %bv = sarek.array_read %b[%bi] : !sarek.vec<f32>
      %pb = sarek.elem_ref %tb[%slot] : !sarek.array<f32, shared>
      sarek.store %pb, %bv : !sarek.ref<f32>
      sarek.barrier
      sarek.for "k" %k = %c0 to %c16 step 1 : i32 {
        %ak = sarek.binop add %slot0, %k : i32
        %x = sarek.array_read %ta[%ak] : !sarek.array<f32, shared>
        %k16 = sarek.binop mul %k, %c16 : i32
        %bk = sarek.binop add %k16, %tx : i32
        %y = sarek.array_read %tb[%bk] : !sarek.array<f32, shared>
        %xy = sarek.binop mul %x, %y : f32
        %cur = sarek.load %acc : !sarek.ref<f32>
        %nxt = sarek.binop add %cur, %xy : f32
        sarek.store %acc, %nxt : !sarek.ref<f32>
      }
      sarek.barrier
    }
    %rn2 = sarek.binop mul %row, %n : i32
    %ci = sarek.binop add %rn2, %col : i32
    %pc = sarek.elem_ref %c[%ci] : !sarek.vec<f32>
    %res = sarek.load %acc : !sarek.ref<f32>
    sarek.store %pc, %res : !sarek.ref<f32>
  }
}
