// float atomics (refused by the glsl/wgsl capability table; the lowering itself spells them as CAS loops)
builtin.module {
  sarek.kernel @fsum(%vals : !sarek.vec<f32> "vals", %total : !sarek.vec<f32> "total", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %v = sarek.array_read %vals[%g] : !sarek.vec<f32>
      %zero = sarek.constant 0 : i32
      %o = sarek.intrinsic "atomic_add"(%total, %zero, %v) : (!sarek.vec<f32>, i32, f32) -> f32
      %one = sarek.constant 1 : i32
      %o2 = sarek.intrinsic "atomic_max"(%total, %one, %v) : (!sarek.vec<f32>, i32, f32) -> f32
    }
  }
}
