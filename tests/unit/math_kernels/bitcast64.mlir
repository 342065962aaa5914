// sarek.bitcast i64 <-> f64 (tests/unit/test_bitcast.py)
sarek.kernel @bcd(%v : !sarek.vec<f64> "v", %w : !sarek.vec<i64> "w", %u : !sarek.vec<f64> "u") {
  %i = sarek.intrinsic "global_thread_id"() : () -> i32
  %x = sarek.array_read %v[%i] : !sarek.vec<f64>
  %b = sarek.bitcast %x : f64 to i64
  %one = sarek.constant 1 : i64
  %b2 = sarek.binop add %b, %one : i64
  %pw = sarek.elem_ref %w[%i] : !sarek.vec<i64>, i32
  sarek.store %pw, %b2 : !sarek.ref<i64>
  %y = sarek.bitcast %b2 : i64 to f64
  %pu = sarek.elem_ref %u[%i] : !sarek.vec<f64>, i32
  sarek.store %pu, %y : !sarek.ref<f64>
}
