# The 8/16-bit, unsigned and bf16 element types on cuda (kernels: Inputs/small_types.py; issue 14).
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t cuda | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned -t cuda | filecheck %s --check-prefix=UNS
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t cuda | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t cuda | filecheck %s --check-prefix=REC

# NARROW: extern "C" __global__ void narrow(unsigned char* __restrict__ a, int sarek_a_length, signed char* __restrict__ b, int sarek_b_length, short* __restrict__ c, int sarek_c_length, unsigned short* __restrict__ d, int sarek_d_length, unsigned char* __restrict__ o8, int sarek_o8_length, short* __restrict__ o16, int sarek_o16_length, int n) {
# NARROW-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
# NARROW-NEXT:   if (i < n) {
# NARROW-NEXT:     o8[i] = (unsigned char)((int)a[i] + (int)b[i]);
# NARROW-NEXT:     o16[i] = (short)(((int)c[i] * (int)d[i]) >> 3);
# NARROW-NEXT:   }
# NARROW-NEXT: }

# UNS: extern "C" __global__ void sarek_unsigned(unsigned int* __restrict__ a, int sarek_a_length, unsigned long long* __restrict__ b, int sarek_b_length, unsigned int s, unsigned int* __restrict__ o, int sarek_o_length, unsigned long long* __restrict__ q, int sarek_q_length, int* __restrict__ f, int sarek_f_length, int n) {
# UNS-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
# UNS-NEXT:   if (i < n) {
# UNS-NEXT:     o[i] = ((a[i] / s) + ((a[i] >> 3U) % 7U));
# UNS-NEXT:     q[i] = ((b[i] * 3ULL) - (unsigned long long)a[i]);
# UNS-NEXT:     f[i] = (((int)(a[i] < s) + (int)(b[i] >= 100ULL)) + (int)((unsigned int)-1 < a[i]));
# UNS-NEXT:   }
# UNS-NEXT: }

# BF: /* bf16 is a storage type held as its 16 bits: arithmetic runs in f32, stores round to nearest even */
# BF-NEXT: __device__ __forceinline__ float sarek_bf16_to_f32(unsigned short h) { return __uint_as_float(((unsigned int)h << 16)); }
# BF-NEXT: __device__ __forceinline__ unsigned short sarek_f32_to_bf16(float f) {
# BF-NEXT:   unsigned int u = __float_as_uint(f);
# BF-NEXT:   return (u & 0x7fffffffu) > 0x7f800000u ? (unsigned short)0x7fc0u
# BF-NEXT:                                          : (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
# BF-NEXT: }
# BF-EMPTY:
# BF-NEXT: extern "C" __global__ void bf(unsigned short a, unsigned short* __restrict__ x, int sarek_x_length, unsigned short* __restrict__ y, int sarek_y_length, float* __restrict__ z, int sarek_z_length, int n) {
# BF-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
# BF-NEXT:   if (i < n) {
# BF-NEXT:     y[i] = sarek_f32_to_bf16(((sarek_bf16_to_f32(a) * sarek_bf16_to_f32(x[i])) + sarek_bf16_to_f32(y[i])));
# BF-NEXT:     z[i] = sarek_bf16_to_f32(x[i]);
# BF-NEXT:   }
# BF-NEXT: }

# REC: typedef struct {
# REC-NEXT:   unsigned char r;
# REC-NEXT:   unsigned char g;
# REC-NEXT:   unsigned char b;
# REC-NEXT:   unsigned char a;
# REC-NEXT: } Pixel;
# REC-EMPTY:
# REC-NEXT: extern "C" __global__ void rgba(Pixel* __restrict__ p, int sarek_p_length, unsigned char* __restrict__ o, int sarek_o_length, int n) {
# REC-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
# REC-NEXT:   if (i < n) {
# REC-NEXT:     o[i] = (unsigned char)(((int)p[i].r / 2) + ((int)p[i].a / 2));
# REC-NEXT:     p[i].g = (unsigned char)(255 - (int)p[i].g);
# REC-NEXT:   }
# REC-NEXT: }

