// RUN: sarek-opt %s -t wgsl | filecheck %s
// RUN: sarek-opt %s -t glsl | filecheck %s --check-prefix=GLSL

// f32 atomics on the shading languages: the buffer holds the bits (atomic<u32> / uint); add, sub, min and max
// are compare-and-swap loops on them, exch an exchange of the bits; each returns the old value.
sarek.kernel @k(%v : !sarek.vec<f32> "v", %o : !sarek.vec<f32> "o", %x : f32 "x") {
  %z = sarek.constant 0 : i32
  %a = sarek.intrinsic "atomic_add"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %s = sarek.intrinsic "atomic_sub"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %m = sarek.intrinsic "atomic_min"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %n = sarek.intrinsic "atomic_max"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %e = sarek.intrinsic "atomic_exch"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  %r1 = sarek.binop add %a, %s : f32
  %r2 = sarek.binop add %r1, %m : f32
  %r3 = sarek.binop add %r2, %n : f32
  %r4 = sarek.binop add %r3, %e : f32
  %p = sarek.elem_ref %o[%z] : !sarek.vec<f32>
  sarek.store %p, %r4 : !sarek.ref<f32>
}
// CHECK:      var<storage, read_write> v : array<atomic<u32>>;
// CHECK:      let sarek_t : f32 = params.x;
// CHECK-NEXT: var sarek_old : u32 = atomicLoad(&v[0i]);
// CHECK-NEXT: loop {
// CHECK-NEXT:   let sarek_cur : f32 = bitcast<f32>(sarek_old);
// CHECK-NEXT:   let sarek_x = atomicCompareExchangeWeak(&v[0i], sarek_old, bitcast<u32>(sarek_cur + sarek_t));
// CHECK-NEXT:   if (sarek_x.exchanged) {
// CHECK-NEXT:     break;
// CHECK:        sarek_old = sarek_x.old_value;
// CHECK:      atomicCompareExchangeWeak(&v[0i], {{.*}}, bitcast<u32>({{.*}} - {{.*}}))
// CHECK:      atomicCompareExchangeWeak(&v[0i], {{.*}}, bitcast<u32>(select({{.*}}, {{.*}}, {{.*}} < {{.*}} && ((bitcast<u32>({{.*}}) & 0x7fffffffu) <= 0x7f800000u) && ((bitcast<u32>({{.*}}) & 0x7fffffffu) <= 0x7f800000u))))
// CHECK:      atomicCompareExchangeWeak(&v[0i], {{.*}}, bitcast<u32>(select({{.*}}, {{.*}}, {{.*}} > {{.*}} && ((bitcast<u32>({{.*}}) & 0x7fffffffu) <= 0x7f800000u) && ((bitcast<u32>({{.*}}) & 0x7fffffffu) <= 0x7f800000u))))
// CHECK:      bitcast<f32>(atomicExchange(&v[0i], bitcast<u32>({{.*}})))
// GLSL:       buffer Buffer_v { uint v[]; };
// GLSL:       while (!sarek_done) {
// GLSL-NEXT:    float sarek_cur = uintBitsToFloat(sarek_old);
// GLSL-NEXT:    uint sarek_x = atomicCompSwap(v[0], sarek_old, floatBitsToUint(sarek_cur + {{.*}}));
// min/max replace only where the operand compares strictly less/greater (a NaN operand never replaces, a stored
// NaN stays: the interpreters' rule), not GLSL's min()/max(), whose NaN result is undefined; both operands are
// also tested for NaN on their bits, because NVIDIA's Vulkan compiler assumes no NaN and folds the bare
// `select(cur, v, v < cur)` into a min (a stored NaN was replaced on the H200)
// GLSL:       atomicCompSwap(v[0], {{.*}}, floatBitsToUint(({{.*}} < {{.*}} && ((floatBitsToUint({{.*}}) & 0x7fffffffu) <= 0x7f800000u) && {{.*}} ? {{.*}} : {{.*}})))
// GLSL:       atomicCompSwap(v[0], {{.*}}, floatBitsToUint(({{.*}} > {{.*}} && ((floatBitsToUint({{.*}}) & 0x7fffffffu) <= 0x7f800000u) && {{.*}} ? {{.*}} : {{.*}})))
// GLSL:       uintBitsToFloat(atomicExchange(v[0], floatBitsToUint({{.*}})))
