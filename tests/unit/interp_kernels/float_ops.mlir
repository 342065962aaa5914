// float32 computed in float32, f16 rounded on store, float->int conversions: o[8*i + k]
builtin.module {
  sarek.kernel @float_ops(%x : !sarek.vec<f32> "x", %y : !sarek.vec<f32> "y", %o : !sarek.vec<f32> "o", %h : !sarek.vec<f16> "h", %q : !sarek.vec<i32> "q", %n : i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %in = sarek.binop lt %i, %n : i32
    sarek.if %in {
      %a = sarek.array_read %x[%i] : !sarek.vec<f32>
      %b = sarek.array_read %y[%i] : !sarek.vec<f32>
      %c8 = sarek.constant 8 : i32
      %k1 = sarek.constant 1 : i32
      %j0 = sarek.binop mul %i, %c8 : i32
      %r0 = sarek.binop div %a, %b : f32
      %p0 = sarek.elem_ref %o[%j0] : !sarek.vec<f32>
      sarek.store %p0, %r0 : !sarek.ref<f32>
      %j1 = sarek.binop add %j0, %k1 : i32
      %s = sarek.binop add %a, %b : f32
      %r1 = sarek.binop sub %s, %b : f32
      %p1 = sarek.elem_ref %o[%j1] : !sarek.vec<f32>
      sarek.store %p1, %r1 : !sarek.ref<f32>
      %j2 = sarek.binop add %j1, %k1 : i32
      %r2 = sarek.intrinsic "sqrt"(%a) : (f32) -> f32
      %p2 = sarek.elem_ref %o[%j2] : !sarek.vec<f32>
      sarek.store %p2, %r2 : !sarek.ref<f32>
      %j3 = sarek.binop add %j2, %k1 : i32
      %r3 = sarek.intrinsic "round"(%a) : (f32) -> f32
      %p3 = sarek.elem_ref %o[%j3] : !sarek.vec<f32>
      sarek.store %p3, %r3 : !sarek.ref<f32>
      %j4 = sarek.binop add %j3, %k1 : i32
      %r4 = sarek.intrinsic "fma"(%a, %b, %a) : (f32, f32, f32) -> f32
      %p4 = sarek.elem_ref %o[%j4] : !sarek.vec<f32>
      sarek.store %p4, %r4 : !sarek.ref<f32>
      %j5 = sarek.binop add %j4, %k1 : i32
      %r5 = sarek.intrinsic "fmax"(%a, %b) : (f32, f32) -> f32
      %p5 = sarek.elem_ref %o[%j5] : !sarek.vec<f32>
      sarek.store %p5, %r5 : !sarek.ref<f32>
      %j6 = sarek.binop add %j5, %k1 : i32
      %ai = sarek.cast %a : f32 to i32
      %r6 = sarek.cast %ai : i32 to f32
      %p6 = sarek.elem_ref %o[%j6] : !sarek.vec<f32>
      sarek.store %p6, %r6 : !sarek.ref<f32>
      %j7 = sarek.binop add %j6, %k1 : i32
      %a64 = sarek.cast %a : f32 to f64
      %b64 = sarek.cast %b : f32 to f64
      %d64 = sarek.binop div %a64, %b64 : f64
      %r7 = sarek.cast %d64 : f64 to f32
      %p7 = sarek.elem_ref %o[%j7] : !sarek.vec<f32>
      sarek.store %p7, %r7 : !sarek.ref<f32>
      %hv = sarek.cast %s : f32 to f16
      %ph = sarek.elem_ref %h[%i] : !sarek.vec<f16>
      sarek.store %ph, %hv : !sarek.ref<f16>
      %pq = sarek.elem_ref %q[%i] : !sarek.vec<i32>
      sarek.store %pq, %ai : !sarek.ref<i32>
    }
  }
}
