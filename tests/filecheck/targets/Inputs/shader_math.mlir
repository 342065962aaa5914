// math spellings and polyfills: log10 cbrt fmod round hypot copysign rsqrt atan2 expm1 log1p fabs, clz popcount
builtin.module {
  sarek.kernel @math_mix(%x : !sarek.vec<f32> "x", %out : !sarek.vec<f32> "out", %iv : !sarek.vec<i32> "iv", %iout : !sarek.vec<i32> "iout", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %a = sarek.array_read %x[%g] : !sarek.vec<f32>
      %c07 = sarek.constant 0.7 : f32
      %c1 = sarek.constant 1.0 : f32
      %c3 = sarek.constant 3.0 : f32
      %half = sarek.constant 0.5 : f32
      %ab = sarek.intrinsic "fabs"(%a) : (f32) -> f32
      %ab1 = sarek.binop add %ab, %c1 : f32
      %m1 = sarek.intrinsic "log10"(%ab1) : (f32) -> f32
      %m2 = sarek.intrinsic "cbrt"(%a) : (f32) -> f32
      %m3 = sarek.intrinsic "fmod"(%a, %c07) : (f32, f32) -> f32
      %a3 = sarek.binop mul %a, %c3 : f32
      %m4 = sarek.intrinsic "round"(%a3) : (f32) -> f32
      %m5 = sarek.intrinsic "hypot"(%a, %c1) : (f32, f32) -> f32
      %ah = sarek.binop sub %a, %half : f32
      %m6 = sarek.intrinsic "copysign"(%c1, %ah) : (f32, f32) -> f32
      %m7 = sarek.intrinsic "rsqrt"(%ab1) : (f32) -> f32
      %m8 = sarek.intrinsic "atan2"(%a, %c3) : (f32, f32) -> f32
      %m9 = sarek.intrinsic "expm1"(%a) : (f32) -> f32
      %m10 = sarek.intrinsic "log1p"(%ab) : (f32) -> f32
      %s1 = sarek.binop add %m1, %m2 : f32
      %s2 = sarek.binop add %s1, %m3 : f32
      %s3 = sarek.binop add %s2, %m4 : f32
      %s4 = sarek.binop add %s3, %m5 : f32
      %s5 = sarek.binop add %s4, %m6 : f32
      %s6 = sarek.binop add %s5, %m7 : f32
      %s7 = sarek.binop add %s6, %m8 : f32
      %s8 = sarek.binop add %s7, %m9 : f32
      %s9 = sarek.binop add %s8, %m10 : f32
      %p = sarek.elem_ref %out[%g] : !sarek.vec<f32>
      sarek.store %p, %s9 : !sarek.ref<f32>
      %i = sarek.array_read %iv[%g] : !sarek.vec<i32>
      %cz = sarek.intrinsic "clz"(%i) : (i32) -> i32
      %pc = sarek.intrinsic "popcount"(%i) : (i32) -> i32
      %c7 = sarek.constant 7 : i32
      %md = sarek.binop rem %i, %c7 : i32
      %dv = sarek.binop div %i, %c7 : i32
      %c3i = sarek.constant 3 : i32
      %sh = sarek.binop shr %i, %c3i : i32
      %c100 = sarek.constant 100 : i32
      %r1 = sarek.binop mul %cz, %c100 : i32
      %r2 = sarek.binop add %r1, %pc : i32
      %r3 = sarek.binop mul %md, %c100 : i32
      %r4 = sarek.binop add %r2, %r3 : i32
      %r5 = sarek.binop add %r4, %dv : i32
      %r6 = sarek.binop bitxor %r5, %sh : i32
      %pi = sarek.elem_ref %iout[%g] : !sarek.vec<i32>
      sarek.store %pi, %r6 : !sarek.ref<i32>
    }
  }
}
