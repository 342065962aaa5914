// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda opt=off}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-pipeline{target=hip opt=off}' -t hip | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %s -p 'sarek-pipeline{target=opencl opt=off}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -p 'sarek-pipeline{target=glsl opt=off}' -t glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx opt=off}' -t ptx | filecheck %s --check-prefix=PTX

// Float -> integer converts as documented on every target (truncate toward zero, saturate to the type's
// range, NaN -> 0): CUDA's __float2int_rz/__float2uint_rz and OpenCL's convert_<T>_sat_rtz from float to 8-32 bit
// types are exact; the other pairs (64-bit destinations, double sources: NVIDIA gives the lowest value or the high
// bit for NaN there, measured on the H200), HIP and Metal get a compare-and-select helper whose bounds are powers
// of two (exact in f32 and f64); the shaders get one per destination type (GLSL overloads it on float/double);
// PTX's cvt.rzi saturates, and where NaN would give the lowest value a setp.nan + selp makes it 0.
// Signed `/` and `%` by a divisor that may be -1 give INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (a helper
// in C and GLSL; PTX divides by a constant -1 as a negation); a constant divisor other than -1 is plain.
builtin.module {
  sarek.kernel @k(%x : f32 "x", %y : f64 "y", %a : i32 "a", %b : i32 "b", %o : !sarek.vec<i32> "o", %u : !sarek.vec<ui32> "u", %l : !sarek.vec<i64> "l") {
    %z = sarek.constant 0 : i32
    %i = sarek.cast %x : f32 to i32
    %ui = sarek.cast %x : f32 to ui32
    %il = sarek.cast %y : f64 to i64
    %i8 = sarek.cast %x : f32 to i8
    %i8w = sarek.cast %i8 : i8 to i32
    %q = sarek.binop div %a, %b : i32
    %r = sarek.binop rem %a, %b : i32
    %three = sarek.constant 3 : i32
    %q3 = sarek.binop div %a, %three : i32
    %m1 = sarek.constant -1 : i32
    %qm = sarek.binop div %a, %m1 : i32
    %p = sarek.elem_ref %o[%z] : !sarek.vec<i32>
    sarek.store %p, %i : !sarek.ref<i32>
    sarek.store %p, %i8w : !sarek.ref<i32>
    sarek.store %p, %q : !sarek.ref<i32>
    sarek.store %p, %r : !sarek.ref<i32>
    sarek.store %p, %q3 : !sarek.ref<i32>
    sarek.store %p, %qm : !sarek.ref<i32>
    %pu = sarek.elem_ref %u[%z] : !sarek.vec<ui32>
    sarek.store %pu, %ui : !sarek.ref<ui32>
    %pl = sarek.elem_ref %l[%z] : !sarek.vec<i64>
    sarek.store %pl, %il : !sarek.ref<i64>
  }
}

// CUDA:      int sarek_div_i32(int a, int b) { return b == -1 ? (int)((unsigned int)0 - (unsigned int)a) : a / b; }
// CUDA-NEXT: int sarek_rem_i32(int a, int b) { return b == -1 ? 0 : a % b; }
// CUDA:        o[0] = __float2int_rz(x);
// CUDA-NEXT:   o[0] = (int)sarek_sat_i8_float(x);
// CUDA-NEXT:   o[0] = sarek_div_i32(a, b);
// CUDA-NEXT:   o[0] = sarek_rem_i32(a, b);
// CUDA-NEXT:   o[0] = (a / 3);
// CUDA-NEXT:   o[0] = sarek_div_i32(a, -1);
// CUDA-NEXT:   u[0] = __float2uint_rz(x);
// CUDA-NEXT:   l[0] = sarek_sat_i64_double(y);

// HIP:       int sarek_sat_i32_float(float x) { return x != x ? (int)0 : x <= -2147483648.0f ? (int)(-2147483647 - 1) : x >= 2147483648.0f ? (int)2147483647 : (int)x; }
// HIP-NEXT:  unsigned int sarek_sat_u32_float(float x) { return x != x ? (unsigned int)0 : x <= 0.0f ? (unsigned int)0 : x >= 4294967296.0f ? (unsigned int)4294967295U : (unsigned int)x; }
// HIP-NEXT:  long long sarek_sat_i64_double(double x) { return x != x ? (long long)0 : x <= -9.223372036854776e+18 ? (long long)(-9223372036854775807LL - 1) : x >= 9.223372036854776e+18 ? (long long)9223372036854775807ULL : (long long)x; }
// HIP:         o[0] = sarek_sat_i32_float(x);
// HIP:         u[0] = sarek_sat_u32_float(x);
// HIP-NEXT:    l[0] = sarek_sat_i64_double(y);

// OPENCL:    static inline int sarek_div_i32(int a, int b) { return b == -1 ? (int)((uint)0 - (uint)a) : a / b; }
// OPENCL:      o[0] = convert_int_sat_rtz(x);
// OPENCL-NEXT: o[0] = (int)convert_char_sat_rtz(x);
// OPENCL:      u[0] = convert_uint_sat_rtz(x);
// OPENCL-NEXT: l[0] = sarek_sat_i64_double(y);

// GLSL:      int sarek_f2i_i32(float x) {
// GLSL-NEXT:   float y = ((x > (-2.14748365e+09)) && (x < 2.14748365e+09) ? x : 0.0);
// GLSL-NEXT:   return (x >= 2.14748365e+09 ? 2147483647 : (x <= (-2.14748365e+09) ? (-2147483647 - 1) : int(y)));
// GLSL:      int sarek_idiv(int a, int b) {
// GLSL-NEXT:   int d = (b == int(-1)) ? int(1) : b;
// GLSL-NEXT:   return (b == int(-1)) ? -a : a / d;
// GLSL:      int sarek_irem(int a, int b) {
// GLSL-NEXT:   int d = (b == int(-1)) ? int(1) : b;
// GLSL-NEXT:   return a - d * (a / d);
// GLSL:      uint sarek_f2i_u32(float x) {
// GLSL-NEXT:   float y = ((x > 0.0) && (x < 4.2949673e+09) ? x : 0.0);
// GLSL-NEXT:   return (x >= 4.2949673e+09 ? 4294967295u : (x <= 0.0 ? 0u : uint(y)));
// GLSL:      int64_t sarek_f2i_i64(double x) {
// GLSL-NEXT:   double y = ((x > (-9.2233720368547758e+18lf)) && (x < 9.2233720368547758e+18lf) ? x : 0.0lf);
// GLSL:        o[0] = sarek_f2i_i32(x_);
// GLSL-NEXT:   o[0] = min(max(sarek_f2i_i32(x_), (-128)), 127);
// GLSL-NEXT:   o[0] = sarek_idiv(a_, b_);
// GLSL-NEXT:   o[0] = sarek_irem(a_, b_);
// GLSL-NEXT:   o[0] = (a_ / 3);
// GLSL-NEXT:   o[0] = sarek_idiv(a_, (-1));
// GLSL-NEXT:   u[0] = sarek_f2i_u32(x_);
// GLSL-NEXT:   l[0] = sarek_f2i_i64(y_);

// PTX:       cvt.rzi.s32.f32 %s{{[0-9]+}}, %f1;
// PTX-NEXT:  cvt.rzi.u32.f32 %u{{[0-9]+}}, %f1;
// PTX-NEXT:  cvt.rzi.s64.f64 %sd[[L:[0-9]+]], %fd1;
// PTX-NEXT:  setp.nan.f64 %p[[N:[0-9]+]], %fd1, %fd1;
// PTX-NEXT:  selp.s64 %sd{{[0-9]+}}, 0, %sd[[L]], %p[[N]];
// PTX-NEXT:  cvt.rzi.s32.f32 %s[[S:[0-9]+]], %f1;
// PTX-NEXT:  max.s32 %s[[M:[0-9]+]], %s[[S]], -128;
// PTX-NEXT:  min.s32 %s{{[0-9]+}}, %s[[M]], 127;
// PTX:       div.s32 %s{{[0-9]+}}, %s1, %s2;
// PTX:       neg.s32 %s{{[0-9]+}}, %s1;
