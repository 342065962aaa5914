// runtime marshalling: bool vectors (int on devices), f64, i64 atomics, a record by value, a bool scalar
builtin.module {
  sarek.record @pt {x : f32, flag : i1, w : f64}
  sarek.kernel @mix(%b : !sarek.vec<i1> "b", %o : !sarek.vec<f64> "o", %cnt : !sarek.vec<i64> "cnt", %p : !sarek.record<@pt> "p", %neg : i1 "neg", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %bv = sarek.array_read %b[%g] : !sarek.vec<i1>
      %w = sarek.field %p "w" : f64
      %x = sarek.field %p "x" : f32
      %xd = sarek.cast %x : f32 to f64
      %s = sarek.binop add %w, %xd : f64
      %zero = sarek.constant 0.0 : f64
      %ns = sarek.binop sub %zero, %s : f64
      %v = sarek.if_expr %neg -> f64 {
        sarek.yield %ns : f64
      } else {
        sarek.yield %s : f64
      }
      %r = sarek.if_expr %bv -> f64 {
        sarek.yield %v : f64
      } else {
        sarek.yield %zero : f64
      }
      %po = sarek.elem_ref %o[%g] : !sarek.vec<f64>
      sarek.store %po, %r : !sarek.ref<f64>
      %nb = sarek.unop not %bv : i1
      %pb = sarek.elem_ref %b[%g] : !sarek.vec<i1>
      sarek.store %pb, %nb : !sarek.ref<i1>
      %z = sarek.constant 0 : i32
      %one = sarek.constant 1 : i64
      %old = sarek.intrinsic "atomic_add"(%cnt, %z, %one) : (!sarek.vec<i64>, i32, i64) -> i64
    }
  }
}
