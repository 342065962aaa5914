// f16 storage: y[i] = (f16)((f32)x[i] * s) + x[i] in f16 arithmetic (f32 compute, round to nearest even)
builtin.module {
  sarek.kernel @f16_scale(%x : !sarek.vec<f16> "x", %y : !sarek.vec<f16> "y", %s : f32 "s", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %h = sarek.array_read %x[%i] : !sarek.vec<f16>
      %f = sarek.cast %h : f16 to f32
      %fs = sarek.binop mul %f, %s : f32
      %hs = sarek.cast %fs : f32 to f16
      %sum = sarek.binop add %hs, %h : f16
      %p = sarek.elem_ref %y[%i] : !sarek.vec<f16>
      sarek.store %p, %sum : !sarek.ref<f16>
    }
  }
}
