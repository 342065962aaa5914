// c[i] = a[i] + b[i] for i < n
builtin.module {
  sarek.kernel @vector_add(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %tid = sarek.let "tid" %g : i32
    %lt = sarek.binop lt %tid, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%tid] : !sarek.vec<f32>
      %y = sarek.array_read %b[%tid] : !sarek.vec<f32>
      %s = sarek.binop add %x, %y : f32
      %p = sarek.elem_ref %c[%tid] : !sarek.vec<f32>
      sarek.store %p, %s : !sarek.ref<f32>
    }
  }
}
