// dst[i] = {x = src[i].x + 1, y = src[i].y}
builtin.module {
  sarek.record @point {x : f32, y : f32}
  sarek.kernel @shift_points(%src : !sarek.vec<!sarek.record<@point>> "src", %dst : !sarek.vec<!sarek.record<@point>> "dst", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %tid = sarek.let "tid" %g : i32
    %lt = sarek.binop lt %tid, %n : i32
    sarek.if %lt {
      %e = sarek.array_read %src[%tid] : !sarek.vec<!sarek.record<@point>>
      %p = sarek.let "p" %e : !sarek.record<@point>
      %px = sarek.field %p "x" : f32
      %one = sarek.constant 1.0 : f32
      %nx = sarek.binop add %px, %one : f32
      %py = sarek.field %p "y" : f32
      %r = sarek.make_record @point(%nx, %py)
      %next = sarek.let "next" %r : !sarek.record<@point>
      %d = sarek.elem_ref %dst[%tid] : !sarek.vec<!sarek.record<@point>>
      sarek.store %d, %next : !sarek.ref<!sarek.record<@point>>
      %dy = sarek.field_ref %d "y" : !sarek.ref<f32>
      %two = sarek.constant 2.0 : f32
      %y2 = sarek.binop mul %py, %two : f32
      sarek.store %dy, %y2 : !sarek.ref<f32>
    }
  }
}
