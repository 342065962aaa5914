// helpers whose vector formals ("dst", "src", "v") are named unlike the kernel's buffers, called with
// several bindings; a record-returning helper; helpers calling helpers
builtin.module {
  sarek.record @pair {lo : f32, hi : f32}
  sarek.helper @sq(%x : f32 "x") -> f32 {
    %r = sarek.binop mul %x, %x : f32
    sarek.return %r : f32
  }
  sarek.helper @minmax(%a : f32 "a", %b : f32 "b") -> !sarek.record<@pair> {
    %lo = sarek.intrinsic "fmin"(%a, %b) : (f32, f32) -> f32
    %hi = sarek.intrinsic "fmax"(%a, %b) : (f32, f32) -> f32
    %r = sarek.make_record @pair(%lo, %hi)
    sarek.return %r : !sarek.record<@pair>
  }
  sarek.helper @add_into(%dst : !sarek.vec<f32> "dst", %src : !sarek.vec<f32> "src", %i : i32 "i") -> !sarek.unit {
    %s = sarek.array_read %src[%i] : !sarek.vec<f32>
    %d = sarek.array_read %dst[%i] : !sarek.vec<f32>
    %q = sarek.call @sq(%s) : (f32) -> f32
    %t = sarek.binop add %d, %q : f32
    %p = sarek.elem_ref %dst[%i] : !sarek.vec<f32>
    sarek.store %p, %t : !sarek.ref<f32>
    sarek.return
  }
  sarek.helper @len_of(%v : !sarek.vec<f32> "v") -> i32 {
    %l = sarek.array_len %v : !sarek.vec<f32>
    sarek.return %l : i32
  }
  sarek.kernel @helpers_vec(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %out : !sarek.vec<f32> "out", %mm : !sarek.vec<!sarek.record<@pair>> "mm", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %la = sarek.call @len_of(%a) : (!sarek.vec<f32>) -> i32
    %lt = sarek.binop lt %i, %la : i32
    sarek.if %lt {
      %av = sarek.array_read %a[%i] : !sarek.vec<f32>
      %po = sarek.elem_ref %out[%i] : !sarek.vec<f32>
      sarek.store %po, %av : !sarek.ref<f32>
      sarek.call @add_into(%out, %b, %i) : (!sarek.vec<f32>, !sarek.vec<f32>, i32) -> ()
      sarek.call @add_into(%out, %a, %i) : (!sarek.vec<f32>, !sarek.vec<f32>, i32) -> ()
      sarek.call @add_into(%b, %a, %i) : (!sarek.vec<f32>, !sarek.vec<f32>, i32) -> ()
      %bv = sarek.array_read %b[%i] : !sarek.vec<f32>
      %r = sarek.call @minmax(%av, %bv) : (f32, f32) -> !sarek.record<@pair>
      %pm = sarek.elem_ref %mm[%i] : !sarek.vec<!sarek.record<@pair>>
      sarek.store %pm, %r : !sarek.ref<!sarek.record<@pair>>
    }
  }
}
