// double precision: out[i] = sqrt(x*x + y*y) + fma(x, y, 1.0) + floor(x)
builtin.module {
  sarek.kernel @norm_f64(%x : !sarek.vec<f64> "x", %y : !sarek.vec<f64> "y", %out : !sarek.vec<f64> "out", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %a = sarek.array_read %x[%g] : !sarek.vec<f64>
      %b = sarek.array_read %y[%g] : !sarek.vec<f64>
      %aa = sarek.binop mul %a, %a : f64
      %bb = sarek.binop mul %b, %b : f64
      %s = sarek.binop add %aa, %bb : f64
      %r = sarek.intrinsic "sqrt"(%s) : (f64) -> f64
      %one = sarek.constant 1.0 : f64
      %f = sarek.intrinsic "fma"(%a, %b, %one) : (f64, f64, f64) -> f64
      %fl = sarek.intrinsic "floor"(%a) : (f64) -> f64
      %t = sarek.binop add %r, %f : f64
      %u = sarek.binop add %t, %fl : f64
      %p = sarek.elem_ref %out[%g] : !sarek.vec<f64>
      sarek.store %p, %u : !sarek.ref<f64>
    }
  }
}
