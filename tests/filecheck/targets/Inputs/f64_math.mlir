// y[i] = sqrt(x[i]) * exp(-x[i] / 8) + sin(x[i]) (f64), z[i] = (f32) y[i]
builtin.module {
  sarek.kernel @f64_math(%x : !sarek.vec<f64> "x", %y : !sarek.vec<f64> "y", %z : !sarek.vec<f32> "z", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %x0 = sarek.array_read %x[%i] : !sarek.vec<f64>
      %v = sarek.let "v" %x0 : f64
      %s = sarek.intrinsic "sqrt"(%v) : (f64) -> f64
      %eight = sarek.constant 8.0 : f64
      %q = sarek.binop div %v, %eight : f64
      %mq = sarek.unop neg %q : f64
      %e = sarek.intrinsic "exp"(%mq) : (f64) -> f64
      %se = sarek.binop mul %s, %e : f64
      %sn = sarek.intrinsic "sin"(%v) : (f64) -> f64
      %r = sarek.binop add %se, %sn : f64
      %res = sarek.let "res" %r : f64
      %py = sarek.elem_ref %y[%i] : !sarek.vec<f64>
      sarek.store %py, %res : !sarek.ref<f64>
      %f = sarek.cast %res : f64 to f32
      %pz = sarek.elem_ref %z[%i] : !sarek.vec<f32>
      sarek.store %pz, %f : !sarek.ref<f32>
    }
  }
}
