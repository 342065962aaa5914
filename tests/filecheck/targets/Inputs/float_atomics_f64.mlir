// f64 atomics on a vector: every op (targets/<t>/float_atomics.mlir; Metal and WGSL have no f64)
builtin.module {
  sarek.kernel @k(%d : !sarek.vec<f64> "d", %o : !sarek.vec<f64> "o", %y : f64 "y") {
    %z = sarek.constant 0 : i32
    %a = sarek.intrinsic "atomic_add"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64
    %s = sarek.intrinsic "atomic_sub"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64
    %m = sarek.intrinsic "atomic_min"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64
    %n = sarek.intrinsic "atomic_max"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64
    %e = sarek.intrinsic "atomic_exch"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64
    %c = sarek.intrinsic "atomic_cas"(%d, %z, %y, %a) : (!sarek.vec<f64>, i32, f64, f64) -> f64
    %r1 = sarek.binop add %a, %s : f64
    %r2 = sarek.binop add %r1, %m : f64
    %r3 = sarek.binop add %r2, %n : f64
    %r4 = sarek.binop add %r3, %e : f64
    %r5 = sarek.binop add %r4, %c : f64
    %p = sarek.elem_ref %o[%z] : !sarek.vec<f64>
    sarek.store %p, %r5 : !sarek.ref<f64>
  }
}
