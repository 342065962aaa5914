// RUN: sarek-opt %s -t 'ptx{opt=off fp=exact}' | filecheck %s
// RUN: sarek-opt %s -p sarek-lower-ptx | filecheck %s --check-prefix=IR

// Header, .param space (vector = u64 pointer + s32 length), global index, guarded branch, element addressing.
builtin.module {
  sarek.kernel @vector_add(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%g] : !sarek.vec<f32>
      %y = sarek.array_read %b[%g] : !sarek.vec<f32>
      %s = sarek.binop add %x, %y : f32
      %p = sarek.elem_ref %c[%g] : !sarek.vec<f32>
      sarek.store %p, %s : !sarek.ref<f32>
    }
  }
}

// CHECK:      .version 9.0
// CHECK-NEXT: .target sm_90
// CHECK-NEXT: .address_size 64
// CHECK:      .visible .entry vector_add(
// CHECK-NEXT:   .param .u64 vector_add_param_0,
// CHECK-NEXT:   .param .s32 vector_add_param_1,
// CHECK:        .param .s32 vector_add_param_6
// CHECK:        .reg .pred %p<2>;
// CHECK:        ld.param.u64 [[A:%ud[0-9]+]], [vector_add_param_0];
// CHECK-NEXT:   cvta.to.global.u64 [[A]], [[A]];
// CHECK:        mov.u32 [[CTA:%s[0-9]+]], %ctaid.x;
// CHECK-NEXT:   mov.u32 [[NT:%s[0-9]+]], %ntid.x;
// CHECK-NEXT:   mov.u32 [[TID:%s[0-9]+]], %tid.x;
// CHECK-NEXT:   mad.lo.s32 [[G:%s[0-9]+]], [[CTA]], [[NT]], [[TID]];
// CHECK-NEXT:   setp.lt.s32 [[P:%p[0-9]+]], [[G]],
// CHECK-NEXT:   @![[P]] bra [[END:\$L_endif_[0-9]+]];
// CHECK-NEXT:   mul.wide.s32 [[OFF:%ud[0-9]+]], [[G]], 4;
// CHECK-NEXT:   add.s64 [[EA:%ud[0-9]+]], [[A]], [[OFF]];
// CHECK-NEXT:   ld.global.nc.f32 %f{{[0-9]+}}, [[[EA]]];
// CHECK:        add.rn.f32
// CHECK:        st.global.f32 [%ud{{[0-9]+}}], %f{{[0-9]+}};
// CHECK-NEXT: [[END]]:
// CHECK-NEXT:   ret;

// IR: sarek_ptx.entry attributes {sym_name = "vector_add"
// IR: sarek_ptx.mad {mods = ["lo", "s32"]
// IR: sarek_ptx.bra {mods = [], args = ["$L_endif_{{[0-9]+}}"], guard = #sarek_ptx.reg<pred, {{[0-9]+}}>, guard_neg}
// IR: sarek_ptx.label "$L_endif_{{[0-9]+}}"
