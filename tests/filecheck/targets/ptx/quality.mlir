// RUN: sarek-opt %s -t 'ptx{opt=off}' | filecheck %s

// Lowering quality: constants are immediates (their `mov` is dropped when nothing reads the register),
// shared memory is addressed with 32 bits (`mad.lo` on the array's .u32 base; a constant index is an offset
// on the base), a[i+1] / a[i-1] share a[i]'s address with an immediate offset, and a small statement `if`
// is predicated (@p on each instruction) instead of branched around.
builtin.module {
  sarek.kernel @q(%a : !sarek.vec<f32> "a", %o : !sarek.vec<f32> "o", %n : i32 "n") {
    %c256 = sarek.constant 256 : i32
    %s = sarek.alloc_array "s"[%c256] : !sarek.array<f32, shared>
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %one = sarek.constant 1 : i32
    %ip = sarek.binop add %t, %one : i32
    %im = sarek.binop sub %t, %one : i32
    %x = sarek.array_read %a[%ip] : !sarek.vec<f32>
    %y = sarek.array_read %a[%im] : !sarek.vec<f32>
    %half = sarek.constant 0.5 : f32
    %xy = sarek.binop add %x, %y : f32
    %h = sarek.binop mul %xy, %half : f32
    %e = sarek.elem_ref %s[%t] : !sarek.array<f32, shared>
    sarek.store %e, %h : !sarek.ref<f32>
    sarek.barrier
    %z = sarek.constant 0 : i32
    %first = sarek.array_read %s[%z] : !sarek.array<f32, shared>
    %lt = sarek.binop lt %t, %n : i32
    sarek.if %lt {
      %oe = sarek.elem_ref %o[%t] : !sarek.vec<f32>
      sarek.store %oe, %first : !sarek.ref<f32>
    }
  }
}
// CHECK:       mov.u32 %u1, q_s_1;
// CHECK-NOT:   mov.s32 %s{{[0-9]+}}, 1;
// CHECK:       mul.wide.s32 %ud[[W:[0-9]+]], %s{{[0-9]+}}, 4;
// CHECK-NEXT:  add.s64 %ud[[A:[0-9]+]], %ud1, %ud[[W]];
// CHECK-NEXT:  ld.global.nc.f32 %f{{[0-9]+}}, [%ud[[A]]+4];
// CHECK-NEXT:  ld.global.nc.f32 %f{{[0-9]+}}, [%ud[[A]]+-4];
// CHECK:       mul.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f3F000000;
// CHECK:       mad.lo.s32 %u[[S:[0-9]+]], %s{{[0-9]+}}, 4, %u1;
// CHECK-NEXT:  st.shared.f32 [%u[[S]]], %f{{[0-9]+}};
// CHECK:       ld.shared.f32 %f{{[0-9]+}}, [%u1];
// CHECK:       setp.lt.s32 %p[[P:[0-9]+]],
// CHECK-NOT:   bra
// CHECK:       @%p[[P]] st.global.f32
// CHECK-NEXT:  ret;
