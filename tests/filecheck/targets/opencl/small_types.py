# The 8/16-bit, unsigned and bf16 element types on opencl (kernels: Inputs/small_types.py; issue 14).
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t opencl | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned -t opencl | filecheck %s --check-prefix=UNS
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t opencl | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t opencl | filecheck %s --check-prefix=REC

# NARROW: __kernel void narrow(__global uchar* restrict a, int sarek_a_length, __global char* restrict b, int sarek_b_length, __global short* restrict c, int sarek_c_length, __global ushort* restrict d, int sarek_d_length, __global uchar* restrict o8, int sarek_o8_length, __global short* restrict o16, int sarek_o16_length, int n) {
# NARROW-NEXT:   int i = (int)get_global_id(0);
# NARROW-NEXT:   if (i < n) {
# NARROW-NEXT:     o8[i] = (uchar)((int)a[i] + (int)b[i]);
# NARROW-NEXT:     o16[i] = (short)(((int)c[i] * (int)d[i]) >> 3);
# NARROW-NEXT:   }
# NARROW-NEXT: }

# UNS: __kernel void sarek_unsigned(__global uint* restrict a, int sarek_a_length, __global ulong* restrict b, int sarek_b_length, uint s, __global uint* restrict o, int sarek_o_length, __global ulong* restrict q, int sarek_q_length, __global int* restrict f, int sarek_f_length, int n) {
# UNS-NEXT:   int i = (int)get_global_id(0);
# UNS-NEXT:   if (i < n) {
# UNS-NEXT:     o[i] = ((a[i] / s) + ((a[i] >> 3U) % 7U));
# UNS-NEXT:     q[i] = ((b[i] * 3UL) - (ulong)a[i]);
# UNS-NEXT:     f[i] = (((int)(a[i] < s) + (int)(b[i] >= 100UL)) + (int)((uint)-1 < a[i]));
# UNS-NEXT:   }
# UNS-NEXT: }

# BF: /* bf16 is a storage type held as its 16 bits: arithmetic runs in f32, stores round to nearest even */
# BF-NEXT: static inline float sarek_bf16_to_f32(ushort h) { return as_float(((uint)h << 16)); }
# BF-NEXT: static inline ushort sarek_f32_to_bf16(float f) {
# BF-NEXT:   uint u = as_uint(f);
# BF-NEXT:   return (u & 0x7fffffffu) > 0x7f800000u ? (ushort)0x7fc0u
# BF-NEXT:                                          : (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
# BF-NEXT: }
# BF-EMPTY:
# BF-NEXT: __kernel void bf(ushort a, __global ushort* restrict x, int sarek_x_length, __global ushort* restrict y, int sarek_y_length, __global float* restrict z, int sarek_z_length, int n) {
# BF-NEXT:   int i = (int)get_global_id(0);
# BF-NEXT:   if (i < n) {
# BF-NEXT:     y[i] = sarek_f32_to_bf16(((sarek_bf16_to_f32(a) * sarek_bf16_to_f32(x[i])) + sarek_bf16_to_f32(y[i])));
# BF-NEXT:     z[i] = sarek_bf16_to_f32(x[i]);
# BF-NEXT:   }
# BF-NEXT: }

# REC: typedef struct {
# REC-NEXT:   uchar r;
# REC-NEXT:   uchar g;
# REC-NEXT:   uchar b;
# REC-NEXT:   uchar a;
# REC-NEXT: } Pixel;
# REC-EMPTY:
# REC-NEXT: __kernel void rgba(__global Pixel* restrict p, int sarek_p_length, __global uchar* restrict o, int sarek_o_length, int n) {
# REC-NEXT:   int i = (int)get_global_id(0);
# REC-NEXT:   if (i < n) {
# REC-NEXT:     o[i] = (uchar)(((int)p[i].r / 2) + ((int)p[i].a / 2));
# REC-NEXT:     p[i].g = (uchar)(255 - (int)p[i].g);
# REC-NEXT:   }
# REC-NEXT: }

