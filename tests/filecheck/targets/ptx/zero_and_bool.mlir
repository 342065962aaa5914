// RUN: sarek-opt %s --split-input-file -p 'sarek-pipeline{target=ptx opt=off}' -t ptx | filecheck %s

// Local arrays start at zero each time their declaration runs: one b32 store per word at constant offsets up
// to 256 bytes (ptxas keeps such arrays in registers), a b16/b8 tail for an odd f16 count, a loop beyond.
builtin.module {
  sarek.kernel @loc(%v : !sarek.vec<f32> "v") {
    %c0 = sarek.constant 0 : i32
    %c3 = sarek.constant 3 : i32
    %c100 = sarek.constant 100 : i32
    %a = sarek.alloc_array "a"[%c3] : !sarek.array<f16, local>
    %b = sarek.alloc_array "b"[%c100] : !sarek.array<f32, local>
    %x = sarek.array_read %b[%c0] : !sarek.array<f32, local>
    %y = sarek.array_read %a[%c0] : !sarek.array<f16, local>
    %r = sarek.elem_ref %v[%c0] : !sarek.vec<f32>
    sarek.store %r, %x : !sarek.ref<f32>
  }
}
// CHECK:      .local .align 4 .b8 loc_a_1[6];
// CHECK-NEXT: .local .align 4 .b8 loc_b_2[400];
// CHECK:      mov.u32 {{%u[0-9]+}}, loc_a_1;
// CHECK-NEXT: st.local.b32 [loc_a_1], 0;
// CHECK-NEXT: st.local.b16 [loc_a_1+4], 0;
// CHECK-NEXT: mov.u32 [[B:%u[0-9]+]], loc_b_2;
// CHECK-NEXT: mov.u32 [[P:%u[0-9]+]], [[B]];
// CHECK-NEXT: add.u32 [[E:%u[0-9]+]], [[B]], 400;
// CHECK-NEXT: $L_zero_[[N:[0-9]+]]:
// CHECK-NEXT: st.local.b32 [[[P]]], 0;
// CHECK-NEXT: add.u32 [[P]], [[P]], 4;
// CHECK-NEXT: setp.lt.u32 [[Q:%p[0-9]+]], [[P]], [[E]];
// CHECK-NEXT: @[[Q]] bra $L_zero_[[N]];

// -----
// A bool converts to every integer and float type with an immediate of the destination's kind: `selp` with
// integer 1/0 for every integer register (u32/u64 took f64 immediates, which ptxas refused: "Arguments
// mismatch for instruction 'selp'"), f32/f64 immediates for floats, through s32 for f16 and the narrow ints.
builtin.module {
  sarek.kernel @casts(%n : i32 "n", %u : !sarek.vec<ui32> "u", %w : !sarek.vec<ui64> "w", %i : !sarek.vec<i64> "i", %f : !sarek.vec<f64> "f", %b : !sarek.vec<ui8> "b") {
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop ne %n, %c0 : i32
    %x = sarek.cast %p : i1 to ui32
    %ru = sarek.elem_ref %u[%c0] : !sarek.vec<ui32>
    sarek.store %ru, %x : !sarek.ref<ui32>
    %y = sarek.cast %p : i1 to ui64
    %rw = sarek.elem_ref %w[%c0] : !sarek.vec<ui64>
    sarek.store %rw, %y : !sarek.ref<ui64>
    %z = sarek.cast %p : i1 to i64
    %ri = sarek.elem_ref %i[%c0] : !sarek.vec<i64>
    sarek.store %ri, %z : !sarek.ref<i64>
    %g = sarek.cast %p : i1 to f64
    %rf = sarek.elem_ref %f[%c0] : !sarek.vec<f64>
    sarek.store %rf, %g : !sarek.ref<f64>
    %h = sarek.cast %p : i1 to ui8
    %rb = sarek.elem_ref %b[%c0] : !sarek.vec<ui8>
    sarek.store %rb, %h : !sarek.ref<ui8>
  }
}
// CHECK:     setp.ne.s32 [[P:%p[0-9]+]], {{%s[0-9]+}}, 0;
// CHECK:     selp.u32 {{%u[0-9]+}}, 1, 0, [[P]];
// CHECK:     selp.u64 {{%ud[0-9]+}}, 1, 0, [[P]];
// CHECK:     selp.s64 {{%sd[0-9]+}}, 1, 0, [[P]];
// CHECK:     selp.f64 {{%fd[0-9]+}}, 0d3FF0000000000000, 0d0000000000000000, [[P]];
// CHECK:     selp.s32 {{%s[0-9]+}}, 1, 0, [[P]];
// CHECK-NOT: selp.{{[us](32|64)}} {{.*}}0d
