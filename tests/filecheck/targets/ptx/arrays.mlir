// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// RUN: sarek-opt %s --split-input-file -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=WIDE
// N-dimensional arrays in PTX: one .s32 parameter per extent, row-major offsets as mul/add chains (a vector's
// in s64, a shared or local array's in s32)

// CHECK:      .visible .entry nd(
// CHECK-NEXT: 	.param .u64 nd_param_0,
// CHECK-NEXT: 	.param .s32 nd_param_1,
// CHECK-NEXT: 	.param .s32 nd_param_2,
// CHECK-NEXT: 	.param .u64 nd_param_3,
// CHECK-NEXT: 	.param .s32 nd_param_4,
// CHECK-NEXT: 	.param .s32 nd_param_5,
// CHECK-NEXT: 	.param .s32 nd_param_6,
// CHECK-NEXT: 	.param .u64 nd_param_7,
// CHECK-NEXT: 	.param .s32 nd_param_8
// CHECK:      .shared .align 4 .b8 nd_t_1[80];
// CHECK-NEXT: .local .align 4 .b8 nd_l_2[24];
// CHECK:      ld.param.s32 [[A1:%s[0-9]+]], [nd_param_2];
// CHECK:      ld.param.s32 [[U1:%s[0-9]+]], [nd_param_5];
// CHECK-NEXT: ld.param.s32 [[U2:%s[0-9]+]], [nd_param_6];
// CHECK:      mov.u32 [[J:%s[0-9]+]], %tid.x;
// CHECK-NEXT: mov.u32 [[I:%s[0-9]+]], %tid.y;
//   the shared array starts at zero (sarek-zero-shared): a loop over the block's threads, then a barrier
// CHECK:      setp.lt.s32 {{%p[0-9]+}}, {{%s[0-9]+}}, 20;
// CHECK:      st.shared.f32 [{{%u[0-9]+}}], {{%f[0-9]+}};
// CHECK:      bar.sync 0;
//   so does the local array, each time its declaration runs: one store per word at constant offsets
// CHECK:      mov.u32 {{%u[0-9]+}}, nd_l_2;
// CHECK-NEXT: st.local.b32 [nd_l_2], 0;
// CHECK-NEXT: st.local.b32 [nd_l_2+4], 0;
// CHECK-NEXT: st.local.b32 [nd_l_2+8], 0;
// CHECK-NEXT: st.local.b32 [nd_l_2+12], 0;
// CHECK-NEXT: st.local.b32 [nd_l_2+16], 0;
// CHECK-NEXT: st.local.b32 [nd_l_2+20], 0;
//   the helper's m[i, j] (inlined): i * a.shape[1] + j, in s64 (each extent is s32, their product need not be)
// CHECK:      mul.wide.s32 [[M:%sd[0-9]+]], [[I]], [[A1]];
// CHECK-NEXT: cvt.s64.s32 [[JW:%sd[0-9]+]], [[J]];
// CHECK-NEXT: add.s64 {{%sd[0-9]+}}, [[M]], [[JW]];
//   t[i, j] on the (4, 5) shared array: constant extents, s32
// CHECK:      mul.lo.s32 [[T:%s[0-9]+]], [[I]], 5;
// CHECK-NEXT: add.s32 {{%s[0-9]+}}, [[T]], [[J]];
// CHECK:      st.shared.f32
//   u[i, u.shape[1], j]: (i * n1 + n1) * n2 + j in s64
// CHECK:      mul.wide.s32 [[X:%sd[0-9]+]], [[I]], [[U1]];
// CHECK-NEXT: cvt.s64.s32 [[U1W:%sd[0-9]+]], [[U1]];
// CHECK-NEXT: add.s64 [[Y:%sd[0-9]+]], [[X]], [[U1W]];
// CHECK-NEXT: cvt.s64.s32 [[U2W:%sd[0-9]+]], [[U2]];
// CHECK-NEXT: mul.lo.s64 [[Z:%sd[0-9]+]], [[Y]], [[U2W]];
// CHECK-NEXT: cvt.s64.s32 [[JW2:%sd[0-9]+]], [[J]];
// CHECK-NEXT: add.s64 {{%sd[0-9]+}}, [[Z]], [[JW2]];

builtin.module {
  sarek.kernel @wide(%a : !sarek.vec<f32, 2> "a", %i : i64 "i", %j : i32 "j") {
    %x = sarek.array_read %a[%i, %j] : !sarek.vec<f32, 2>, i64, i32
    %p = sarek.elem_ref %a[%j, %j] : !sarek.vec<f32, 2>
    sarek.store %p, %x : !sarek.ref<f32>
  }
}
// an i64 index: the i32 extent and index are widened for the s64 product and sum
// WIDE:      ld.param.s32 [[N1:%s[0-9]+]], [wide_param_2];
// WIDE:      ld.param.s64 [[I:%sd[0-9]+]], [wide_param_3];
// WIDE:      ld.param.s32 [[J:%s[0-9]+]], [wide_param_4];
// WIDE:      cvt.s64.s32 [[NW:%sd[0-9]+]], [[N1]];
// WIDE-NEXT: mul.lo.s64 [[M:%sd[0-9]+]], [[I]], [[NW]];
// WIDE-NEXT: cvt.s64.s32 [[JW:%sd[0-9]+]], [[J]];
// WIDE-NEXT: add.s64 [[F:%sd[0-9]+]], [[M]], [[JW]];
// WIDE-NEXT: mul.lo.s64 {{%ud[0-9]+}}, [[F]], 4;
// two i32 indices: the product of the first with the extent is mul.wide.s32 (one instruction, no cvt)
// WIDE:      mul.wide.s32 [[P:%sd[0-9]+]], [[J]], [[N1]];
// WIDE-NEXT: cvt.s64.s32 [[JW2:%sd[0-9]+]], [[J]];
// WIDE-NEXT: add.s64 {{%sd[0-9]+}}, [[P]], [[JW2]];
