// c = a * b (n x n, row-major) with 16x16 shared tiles; launch with block (16, 16)
builtin.module {
  sarek.kernel @matmul_tiled(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %c0 = sarek.constant 0 : i32
    %c1 = sarek.constant 1 : i32
    %c15 = sarek.constant 15 : i32
    %c16 = sarek.constant 16 : i32
    %c256 = sarek.constant 256 : i32
    %ta = sarek.alloc_array "ta"[%c256] : !sarek.array<f32, shared>
    %tb = sarek.alloc_array "tb"[%c256] : !sarek.array<f32, shared>
    %tx0 = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tx = sarek.let "tx" %tx0 : i32
    %ty0 = sarek.intrinsic "thread_idx_y"() : () -> i32
    %ty = sarek.let "ty" %ty0 : i32
    %bx = sarek.intrinsic "block_idx_x"() : () -> i32
    %by = sarek.intrinsic "block_idx_y"() : () -> i32
    %r0 = sarek.binop mul %by, %c16 : i32
    %r1 = sarek.binop add %r0, %ty : i32
    %row = sarek.let "row" %r1 : i32
    %k0 = sarek.binop mul %bx, %c16 : i32
    %k1 = sarek.binop add %k0, %tx : i32
    %col = sarek.let "col" %k1 : i32
    %zf = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %zf : f32
    %np = sarek.binop add %n, %c15 : i32
    %nt = sarek.binop div %np, %c16 : i32
    %tyx0 = sarek.binop mul %ty, %c16 : i32
    %slot = sarek.binop add %tyx0, %tx : i32
    sarek.for "t" %t = %c0 to %nt step 1 : i32 {
      %t16 = sarek.binop mul %t, %c16 : i32
      %ac = sarek.binop add %t16, %tx : i32
      %ok1 = sarek.binop lt %row, %n : i32
      %ok2 = sarek.binop lt %ac, %n : i32
      %oka = sarek.binop and %ok1, %ok2 : i1
      %va = sarek.if_expr %oka -> f32 {
        %ia0 = sarek.binop mul %row, %n : i32
        %ia = sarek.binop add %ia0, %ac : i32
        %x = sarek.array_read %a[%ia] : !sarek.vec<f32>
        sarek.yield %x : f32
      } else {
        %z = sarek.constant 0.0 : f32
        sarek.yield %z : f32
      }
      %pa = sarek.elem_ref %ta[%slot] : !sarek.array<f32, shared>
      sarek.store %pa, %va : !sarek.ref<f32>
      %br = sarek.binop add %t16, %ty : i32
      %ok3 = sarek.binop lt %br, %n : i32
      %ok4 = sarek.binop lt %col, %n : i32
      %okb = sarek.binop and %ok3, %ok4 : i1
      %vb = sarek.if_expr %okb -> f32 {
        %ib0 = sarek.binop mul %br, %n : i32
        %ib = sarek.binop add %ib0, %col : i32
        %y = sarek.array_read %b[%ib] : !sarek.vec<f32>
        sarek.yield %y : f32
      } else {
        %z = sarek.constant 0.0 : f32
        sarek.yield %z : f32
      }
      %pb = sarek.elem_ref %tb[%slot] : !sarek.array<f32, shared>
      sarek.store %pb, %vb : !sarek.ref<f32>
      sarek.barrier
      sarek.for "k" %k = %c0 to %c16 step 1 : i32 {
        %i1 = sarek.binop add %tyx0, %k : i32
        %x = sarek.array_read %ta[%i1] : !sarek.array<f32, shared>
        %k16 = sarek.binop mul %k, %c16 : i32
        %i2 = sarek.binop add %k16, %tx : i32
        %y = sarek.array_read %tb[%i2] : !sarek.array<f32, shared>
        %xy = sarek.binop mul %x, %y : f32
        %av = sarek.load %acc : !sarek.ref<f32>
        %s = sarek.binop add %av, %xy : f32
        sarek.store %acc, %s : !sarek.ref<f32>
      }
      sarek.barrier
    }
    %ok5 = sarek.binop lt %row, %n : i32
    %ok6 = sarek.binop lt %col, %n : i32
    %okc = sarek.binop and %ok5, %ok6 : i1
    sarek.if %okc {
      %ic0 = sarek.binop mul %row, %n : i32
      %ic = sarek.binop add %ic0, %col : i32
      %pc = sarek.elem_ref %c[%ic] : !sarek.vec<f32>
      %fin = sarek.load %acc : !sarek.ref<f32>
      sarek.store %pc, %fin : !sarek.ref<f32>
    }
  }
}
