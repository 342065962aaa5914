// RUN: sarek-opt %s -p 'sarek-expand-math{target=ptx fp=default}' | filecheck %s --check-prefix=IR
// RUN: sarek-opt %s -t ptx | filecheck %s --check-prefix=FAST
// RUN: sarek-opt %s -t 'ptx{fp=exact}' | filecheck %s --check-prefix=EXACT

// At the default fp policy f32 exp2 is the hardware approximation (ex2.approx.f32, not .ftz: subnormal
// results, CUDA's exp2f), left an intrinsic by sarek-expand-math (the native-math table's HARDWARE entry);
// exp is CUDA's expf: n = round(x log2 e) limited to [-126, 127], r = x log2 e - n with log2 e in two parts,
// 2^r by ex2.approx, times 2^n from its bits. fp=exact keeps the library's correctly rounded routines.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<f32>
    %a = sarek.intrinsic "exp"(%x) : (f32) -> f32
    %b = sarek.intrinsic "exp2"(%a) : (f32) -> f32
    %p = sarek.elem_ref %v[%z] : !sarek.vec<f32>
    sarek.store %p, %b : !sarek.ref<f32>
  }
}
// IR:      sarek.helper @sarek_exp_f32(%x: f32 "x") -> f32
// IR:        %[[HI:.*]] = sarek.constant 1.442695 : f32
// IR:        %[[T:.*]] = sarek.intrinsic "fma"(%x, %[[HI]], %{{.*}}) : (f32, f32, f32) -> f32
// IR-NEXT:   %[[F:.*]] = sarek.intrinsic "floor"(%[[T]]) : (f32) -> f32
// IR:        sarek.intrinsic "fmax"(%[[F]], %{{.*}})
// IR:        %[[N:.*]] = sarek.intrinsic "fmin"
// IR:        %[[R1:.*]] = sarek.intrinsic "fma"(%x, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// IR:        %[[LO:.*]] = sarek.constant 1.925963e-08 : f32
// IR-NEXT:   %[[R:.*]] = sarek.intrinsic "fma"(%x, %[[LO]], %[[R1]]) : (f32, f32, f32) -> f32
// IR-NEXT:   %[[E:.*]] = sarek.intrinsic "exp2"(%[[R]]) : (f32) -> f32
// IR-NEXT:   sarek.cast %[[N]] : f32 to i32
// IR:        sarek.binop shl
// IR:        %[[S:.*]] = sarek.bitcast %{{.*}} : i32 to f32
// IR-NEXT:   %[[Y:.*]] = sarek.binop mul %[[E]], %[[S]] : f32
// IR-NEXT:   sarek.return %[[Y]] : f32
// IR:      sarek.kernel @k
// IR:        %a = sarek.call @sarek_exp_f32(%x) : (f32) -> f32
// IR-NEXT:   %b = sarek.intrinsic "exp2"(%a) : (f32) -> f32

// FAST:     .entry k(
// FAST:     cvt.rmi.f32.f32
// FAST:     ex2.approx.f32 %f{{[0-9]+}}, %f{{[0-9]+}};
// FAST:     ex2.approx.f32 %f{{[0-9]+}}, %f{{[0-9]+}};
// FAST-NOT: ex2
// FAST:     ret;

// EXACT:     .entry k(
// EXACT-NOT: ex2.approx
// EXACT:     ret;
