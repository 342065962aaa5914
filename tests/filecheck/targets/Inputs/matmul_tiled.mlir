// C = A * B for n x n row-major matrices, 16 x 16 tiles in shared memory (n a multiple of 16)
builtin.module {
  sarek.kernel @matmul(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %c256 = sarek.constant 256 : i32
    %ta = sarek.alloc_array "tile_a"[%c256] : !sarek.array<f32, shared>
    %tb = sarek.alloc_array "tile_b"[%c256] : !sarek.array<f32, shared>
    %c16 = sarek.constant 16 : i32
    %tx0 = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tx = sarek.let "tx" %tx0 : i32
    %ty0 = sarek.intrinsic "thread_idx_y"() : () -> i32
    %ty = sarek.let "ty" %ty0 : i32
    %bx = sarek.intrinsic "block_idx_x"() : () -> i32
    %by = sarek.intrinsic "block_idx_y"() : () -> i32
    %col0 = sarek.binop mul %bx, %c16 : i32
    %col1 = sarek.binop add %col0, %tx : i32
    %col = sarek.let "col" %col1 : i32
    %row0 = sarek.binop mul %by, %c16 : i32
    %row1 = sarek.binop add %row0, %ty : i32
    %row = sarek.let "row" %row1 : i32
    %zf = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %zf : f32
    %zero = sarek.constant 0 : i32
    %tiles = sarek.binop div %n, %c16 : i32
    %slot0 = sarek.binop mul %ty, %c16 : i32
    %slot1 = sarek.binop add %slot0, %tx : i32
    %slot = sarek.let "slot" %slot1 : i32
    sarek.for "t" %t = %zero to %tiles step 1 : i32 {
      %t16 = sarek.binop mul %t, %c16 : i32
      %acol = sarek.binop add %t16, %tx : i32
      %rn = sarek.binop mul %row, %n : i32
      %ai = sarek.binop add %rn, %acol : i32
      %av = sarek.array_read %a[%ai] : !sarek.vec<f32>
      %pa = sarek.elem_ref %ta[%slot] : !sarek.array<f32, shared>
      sarek.store %pa, %av : !sarek.ref<f32>
      %brow = sarek.binop add %t16, %ty : i32
      %bn = sarek.binop mul %brow, %n : i32
      %bi = sarek.binop add %bn, %col : i32
      %bv = sarek.array_read %b[%bi] : !sarek.vec<f32>
      %pb = sarek.elem_ref %tb[%slot] : !sarek.array<f32, shared>
      sarek.store %pb, %bv : !sarek.ref<f32>
      sarek.barrier
      sarek.pragma ["unroll"] {
        sarek.for "k" %k = %zero to %c16 step 1 : i32 {
          %ak0 = sarek.binop mul %ty, %c16 : i32
          %ak = sarek.binop add %ak0, %k : i32
          %x = sarek.array_read %ta[%ak] : !sarek.array<f32, shared>
          %bk0 = sarek.binop mul %k, %c16 : i32
          %bk = sarek.binop add %bk0, %tx : i32
          %y = sarek.array_read %tb[%bk] : !sarek.array<f32, shared>
          %xy = sarek.binop mul %x, %y : f32
          %cur = sarek.load %acc : !sarek.ref<f32>
          %sum = sarek.binop add %cur, %xy : f32
          sarek.store %acc, %sum : !sarek.ref<f32>
        }
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
