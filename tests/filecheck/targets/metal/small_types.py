# The 8/16-bit, unsigned and bf16 element types on metal (kernels: Inputs/small_types.py; issue 14).
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t metal | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned -t metal | filecheck %s --check-prefix=UNS
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t metal | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t metal | filecheck %s --check-prefix=REC

# NARROW: kernel void narrow(device uchar* a
# NARROW-NEXT:   int i = (int)__metal_gid.x;
# NARROW-NEXT:   if (i < n) {
# NARROW-NEXT:     o8[i] = (uchar)((int)a[i] + (int)b[i]);
# NARROW-NEXT:     o16[i] = (short)(((int)c[i] * (int)d[i]) >> 3);
# NARROW-NEXT:   }
# NARROW-NEXT: }

# UNS: kernel void sarek_unsigned(device uint* a
# UNS-NEXT:   int i = (int)__metal_gid.x;
# UNS-NEXT:   if (i < n) {
# UNS-NEXT:     o[i] = ((a[i] / s) + ((a[i] >> 3U) % 7U));
# UNS-NEXT:     q[i] = ((b[i] * 3UL) - (ulong)a[i]);
# UNS-NEXT:     f[i] = (((int)(a[i] < s) + (int)(b[i] >= 100UL)) + (int)((uint)-1 < a[i]));
# UNS-NEXT:   }
# UNS-NEXT: }

# BF: /* bf16 is a storage type held as its 16 bits: arithmetic runs in f32, stores round to nearest even */
# BF-NEXT: static inline float sarek_bf16_to_f32(ushort h) { return as_type<float>(((uint)h << 16)); }
# BF-NEXT: static inline ushort sarek_f32_to_bf16(float f) {
# BF-NEXT:   uint u = as_type<uint>(f);
# BF-NEXT:   return (u & 0x7fffffffu) > 0x7f800000u ? (ushort)0x7fc0u
# BF-NEXT:                                          : (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
# BF-NEXT: }
# BF-EMPTY:
# BF-NEXT: kernel void bf(constant ushort &a
# BF-NEXT:   int i = (int)__metal_gid.x;
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
# REC-NEXT: kernel void rgba(device Pixel* p
# REC-NEXT:   int i = (int)__metal_gid.x;
# REC-NEXT:   if (i < n) {
# REC-NEXT:     o[i] = (uchar)(((int)p[i].r / 2) + ((int)p[i].a / 2));
# REC-NEXT:     p[i].g = (uchar)(255 - (int)p[i].g);
# REC-NEXT:   }
# REC-NEXT: }

