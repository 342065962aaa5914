// histogram with old values, plus max/cas/exch on a global vector and adds on a shared counter
builtin.module {
  sarek.kernel @atomics(%x : !sarek.vec<i32> "x", %hist : !sarek.vec<i32> "hist", %old : !sarek.vec<i32> "old", %mx : !sarek.vec<i32> "mx", %f : !sarek.vec<f32> "f", %n : i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %c1 = sarek.constant 1 : i32
    %sh = sarek.alloc_array "cnt"[%c1] : !sarek.array<i32, shared>
    %c0 = sarek.constant 0 : i32
    %in = sarek.binop lt %i, %n : i32
    sarek.if %in {
      %v = sarek.array_read %x[%i] : !sarek.vec<i32>
      %c8 = sarek.constant 8 : i32
      %b = sarek.binop rem %v, %c8 : i32
      %o = sarek.intrinsic "atomic_add"(%hist, %b, %c1) : (!sarek.vec<i32>, i32, i32) -> i32
      %po = sarek.elem_ref %old[%i] : !sarek.vec<i32>
      sarek.store %po, %o : !sarek.ref<i32>
      %m = sarek.intrinsic "atomic_max"(%mx, %c0, %v) : (!sarek.vec<i32>, i32, i32) -> i32
      %c2 = sarek.constant 2 : i32
      %m2 = sarek.intrinsic "atomic_cas"(%mx, %c1, %c0, %i) : (!sarek.vec<i32>, i32, i32, i32) -> i32
      %m3 = sarek.intrinsic "atomic_exch"(%mx, %c2, %i) : (!sarek.vec<i32>, i32, i32) -> i32
      %s = sarek.intrinsic "atomic_inc"(%sh, %c0) : (!sarek.array<i32, shared>, i32) -> i32
      %fv = sarek.cast %v : i32 to f32
      %fo = sarek.intrinsic "atomic_add"(%f, %c0, %fv) : (!sarek.vec<f32>, i32, f32) -> f32
      %fs = sarek.binop add %fo, %fv : f32
      %c3 = sarek.constant 3 : i32
      %p3 = sarek.binop add %i, %c1 : i32
      %pf = sarek.elem_ref %f[%p3] : !sarek.vec<f32>
      sarek.store %pf, %fs : !sarek.ref<f32>
      %c8b = sarek.constant 8 : i32
      %sm = sarek.intrinsic "atomic_sub"(%hist, %c8b, %s) : (!sarek.vec<i32>, i32, i32) -> i32
    }
  }
}
