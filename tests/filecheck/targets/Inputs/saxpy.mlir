// y[i] = alpha * x[i] + y[i] for i < n
builtin.module {
  sarek.kernel @saxpy(%alpha : f32 "alpha", %x : !sarek.vec<f32> "x", %y : !sarek.vec<f32> "y", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %xi = sarek.array_read %x[%i] : !sarek.vec<f32>
      %ax = sarek.binop mul %alpha, %xi : f32
      %yi = sarek.array_read %y[%i] : !sarek.vec<f32>
      %r = sarek.binop add %ax, %yi : f32
      %p = sarek.elem_ref %y[%i] : !sarek.vec<f32>
      sarek.store %p, %r : !sarek.ref<f32>
    }
  }
}
