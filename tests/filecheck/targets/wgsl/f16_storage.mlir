// RUN: sarek-opt %S/../Inputs/f16_storage.mlir -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s
// wgsl spelling of f16 storage (sarek-widen-f16): the vectors hold the halves' 16 bits, a read widens them in
// integer arithmetic (the exponent rebiased by 112, subnormals as m * 2^-24), a store rounds to nearest even in
// integer arithmetic (the 13 dropped bits plus the kept lowest one, clamped to inf at 0x7c00); no half type.

// CHECK-NOT: half
// CHECK: var<storage, read_write> y : array<atomic<i32>>;
// CHECK: let sarek_t3 : i32 = ((x[sarek_t1] >> u32(sarek_t2)) & 65535i);
// CHECK: {{\+ 112i?\) << (u32\()?23}}
// CHECK: 5.960464{{[0-9]*}}e-08
// CHECK: {{31744i?\)}}
// CHECK: atomicOr(&y[sarek_t1], (
// CHECK-NOT: half
