// RUN: sarek-opt %s -t ptx | filecheck %s

// A shared (or local) array of 16-byte lane records is declared 16-byte aligned, and its whole elements move
// as one ld.shared.v4 / st.shared.v4 (the register-blocked SGEMM's tile reads); a 12-byte f32x3 array keeps
// 4-byte alignment and lane-by-lane accesses.
builtin.module {
  sarek.record @f32x4 {x : f32, y : f32, z : f32, w : f32}
  sarek.record @f32x3 {x : f32, y : f32, z : f32}
  sarek.kernel @sh4(%a: !sarek.vec<!sarek.record<@f32x4>> "a", %b: !sarek.vec<!sarek.record<@f32x4>> "b",
                    %c: !sarek.vec<!sarek.record<@f32x3>> "c") {
    %n = sarek.constant 64 : i32
    %s = sarek.alloc_array "s"[%n] : !sarek.array<!sarek.record<@f32x4>, shared>
    %s3 = sarek.alloc_array "s3"[%n] : !sarek.array<!sarek.record<@f32x3>, shared>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %x = sarek.array_read %a[%t] : !sarek.vec<!sarek.record<@f32x4>>
    %r = sarek.elem_ref %s[%t] : !sarek.array<!sarek.record<@f32x4>, shared>
    sarek.store %r, %x : !sarek.ref<!sarek.record<@f32x4>>
    %x3 = sarek.array_read %c[%t] : !sarek.vec<!sarek.record<@f32x3>>
    %r3 = sarek.elem_ref %s3[%t] : !sarek.array<!sarek.record<@f32x3>, shared>
    sarek.store %r3, %x3 : !sarek.ref<!sarek.record<@f32x3>>
    sarek.barrier
    %k = sarek.constant 63 : i32
    %i = sarek.binop sub %k, %t : i32
    %v = sarek.array_read %s[%i] : !sarek.array<!sarek.record<@f32x4>, shared>
    %o = sarek.elem_ref %b[%t] : !sarek.vec<!sarek.record<@f32x4>>
    sarek.store %o, %v : !sarek.ref<!sarek.record<@f32x4>>
  }
}
// CHECK-DAG: .shared .align 16 .b8 sh4_s_{{[0-9]+}}[1024];
// CHECK-DAG: .shared .align 4 .b8 sh4_s3_{{[0-9]+}}[768];
// CHECK:     ld.global.nc.v4.f32 {%f[[A:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%ud{{[0-9]+}}];
// CHECK:     st.shared.v4.f32 [%u{{[0-9]+}}], {%f[[A]],
// CHECK:     st.shared.f32 [%u{{[0-9]+}}+8],
// CHECK:     bar.sync 0;
// CHECK:     ld.shared.v4.f32 {%f[[V:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%u{{[0-9]+}}];
// CHECK:     st.global.v4.f32 [%ud{{[0-9]+}}], {%f[[V]],
