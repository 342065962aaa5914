// y[i] = alpha * x[i] + y[i]
builtin.module {
  sarek.kernel @saxpy(%alpha : f32 "alpha", %x : !sarek.vec<f32> "x", %y : !sarek.vec<f32> "y", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %xv = sarek.array_read %x[%i] : !sarek.vec<f32>
      %yv = sarek.array_read %y[%i] : !sarek.vec<f32>
      %ax = sarek.binop mul %alpha, %xv : f32
      %s = sarek.binop add %ax, %yv : f32
      %p = sarek.elem_ref %y[%i] : !sarek.vec<f32>
      sarek.store %p, %s : !sarek.ref<f32>
    }
  }
}
