// i64 vectors and scalars (GLSL only), bool vectors and params, a local array, for loops up and down
builtin.module {
  sarek.kernel @misc(%w : !sarek.vec<i64> "w", %b : !sarek.vec<i1> "b", %flag : i1 "flag", %k : i64 "k", %o : !sarek.vec<i32> "o", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %w[%g] : !sarek.vec<i64>
      %y = sarek.binop mul %x, %k : i64
      %p = sarek.elem_ref %w[%g] : !sarek.vec<i64>
      sarek.store %p, %y : !sarek.ref<i64>
      %bv = sarek.array_read %b[%g] : !sarek.vec<i1>
      %nb = sarek.unop not %bv : i1
      %r = sarek.binop and %nb, %flag : i1
      %pb = sarek.elem_ref %b[%g] : !sarek.vec<i1>
      sarek.store %pb, %r : !sarek.ref<i1>
      %c8 = sarek.constant 8 : i32
      %loc = sarek.alloc_array "loc"[%c8] : !sarek.array<i32, local>
      %z = sarek.constant 0 : i32
      sarek.for "j" %j = %z to %g step 1 : i32 {
        %c7 = sarek.constant 7 : i32
        %jj = sarek.binop bitand %j, %c7 : i32
        %pl = sarek.elem_ref %loc[%jj] : !sarek.array<i32, local>
        %old = sarek.load %pl : !sarek.ref<i32>
        %nw = sarek.binop add %old, %j : i32
        sarek.store %pl, %nw : !sarek.ref<i32>
      }
      %s = sarek.let_mut "s" %z : i32
      sarek.for "j" %j = %c8 to %z step -1 : i32 {
        %c1 = sarek.constant 1 : i32
        %jm = sarek.binop sub %j, %c1 : i32
        %v = sarek.array_read %loc[%jm] : !sarek.array<i32, local>
        %sv = sarek.load %s : !sarek.ref<i32>
        %m = sarek.binop mul %sv, %c8 : i32
        %t = sarek.binop add %m, %v : i32
        sarek.store %s, %t : !sarek.ref<i32>
      }
      %fin = sarek.load %s : !sarek.ref<i32>
      %po = sarek.elem_ref %o[%g] : !sarek.vec<i32>
      sarek.store %po, %fin : !sarek.ref<i32>
    }
  }
}
