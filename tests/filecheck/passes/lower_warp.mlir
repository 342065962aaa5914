// RUN: sarek-opt %s -p 'sarek-lower-warp{target=opencl}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-lower-warp{target=vulkan}' --verify-diagnostics | filecheck %s --check-prefix=BAD

// One helper per (shuffle, value type), emitted once however many call sites use it; the source lane is
// guarded (own lane when out of range) and read with an absolute shuffle marked in range.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %w : !sarek.vec<i64> "w") {
    %i = sarek.intrinsic "lane_id"() : () -> i32
    %x = sarek.array_read %v[%i] : !sarek.vec<f32>
    %a = sarek.intrinsic "warp_shuffle_down"(%x, %i) : (f32, i32) -> f32
    %b = sarek.intrinsic "warp_shuffle_down"(%a, %i) : (f32, i32) -> f32
    %y = sarek.array_read %w[%i] : !sarek.vec<i64>
    %c = sarek.intrinsic "warp_shuffle_xor"(%y, %i) : (i64, i32) -> i64
    %d = sarek.intrinsic "warp_shuffle_up"(%b, %i) : (f32, i32) -> f32
    %e = sarek.intrinsic "warp_shuffle"(%d, %i) : (f32, i32) -> f32
  }
}

// CHECK:       sarek.helper @sarek_warp_shuffle_down_f32(%v: f32 "v", %x: i32 "x") -> f32 attributes {sarek.generated} {
// CHECK:         %{{.*}} = sarek.intrinsic "lane_id"() : () -> i32
// CHECK:         %{{.*}} = sarek.binop sub %width, %lane : i32
// CHECK:         %{{.*}} = sarek.binop lt %x, %{{.*}} : i32
// CHECK:         %{{.*}} = sarek.binop add %lane, %x : i32
// CHECK:         sarek.intrinsic "warp_shuffle"(%v, %src) : (f32, i32) -> f32 attributes {sarek.lane_in_range}
// CHECK:       sarek.helper @sarek_warp_shuffle_xor_i64(%v: i64 "v", %x: i32 "x") -> i64 attributes {sarek.generated} {
// CHECK:         %mixed = sarek.let "mixed" %{{.*}} : i32
// CHECK:       sarek.helper @sarek_warp_shuffle_up_f32(
// CHECK:         %{{.*}} = sarek.binop le %x, %lane : i32
// CHECK:         %{{.*}} = sarek.binop sub %lane, %x : i32
// CHECK:       sarek.helper @sarek_warp_shuffle_f32(
// CHECK:         %{{.*}} = sarek.binop lt %x, %width : i32
// CHECK:       sarek.kernel @k
// CHECK:         %a = sarek.call @sarek_warp_shuffle_down_f32(%x, %i) : (f32, i32) -> f32
// CHECK-NEXT:    %b = sarek.call @sarek_warp_shuffle_down_f32(%a, %i) : (f32, i32) -> f32
// CHECK:         %c = sarek.call @sarek_warp_shuffle_xor_i64(%y, %i) : (i64, i32) -> i64
// CHECK-NEXT:    %d = sarek.call @sarek_warp_shuffle_up_f32(%b, %i) : (f32, i32) -> f32
// CHECK-NEXT:    %e = sarek.call @sarek_warp_shuffle_f32(%d, %i) : (f32, i32) -> f32
// CHECK-NOT:     sarek.helper

// BAD: error: sarek-lower-warp: unknown target 'vulkan' (known: cuda, hip, opencl, metal, glsl, wgsl, ptx)
