// sarek.bitcast i32 <-> f32 (tests/unit/test_bitcast.py)
sarek.kernel @bc(%v : !sarek.vec<f32> "v", %w : !sarek.vec<i32> "w", %u : !sarek.vec<f32> "u") {
  %i = sarek.intrinsic "global_thread_id"() : () -> i32
  %x = sarek.array_read %v[%i] : !sarek.vec<f32>
  %b = sarek.bitcast %x : f32 to i32
  %one = sarek.constant 1 : i32
  %b2 = sarek.binop add %b, %one : i32
  %pw = sarek.elem_ref %w[%i] : !sarek.vec<i32>, i32
  sarek.store %pw, %b2 : !sarek.ref<i32>
  %y = sarek.bitcast %b2 : i32 to f32
  %pu = sarek.elem_ref %u[%i] : !sarek.vec<f32>, i32
  sarek.store %pu, %y : !sarek.ref<f32>
}
