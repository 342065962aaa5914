# The 8/16-bit and bf16 element types on glsl (kernels: Inputs/small_types.py; issue 14): core GLSL 450 has no
# 8/16-bit types (sarek uses none of the extensions that add them), so sarek-pack-narrow stores them as int
# words (reads: shift and mask, sign extension for i8/i16; stores: atomicAnd + atomicOr of the word, which
# neighbouring lanes share) and computes in int/float; bf16 stores round the f32 bits to nearest even.
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t glsl | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t glsl | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t glsl | filecheck %s --check-prefix=REC
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned -t glsl | filecheck %s --check-prefix=UNS
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned32 -t glsl | filecheck %s --check-prefix=U32

# NARROW: layout(std430, set = 0, binding = 0) buffer Buffer_a { int a[]; };
# NARROW: layout(std430, set = 0, binding = 4) buffer Buffer_o8 { int o8[]; };
# NARROW:      if ((i < n)) {
# NARROW-NEXT:   int sarek_t = (i >> 2);
# NARROW-NEXT:   int sarek_t1 = a[sarek_t];
# NARROW-NEXT:   int sarek_t2 = ((i & 3) << 3);
# NARROW-NEXT:   int sarek_t3 = b[sarek_t];
# NARROW-NEXT:   atomicAnd(o8[sarek_t], ((255 << sarek_t2) ^ (-1)));
# NARROW-NEXT:   atomicOr(o8[sarek_t], ((((((sarek_t1 >> sarek_t2) & 255) + ((sarek_t3 << (24 - sarek_t2)) >> 24)) & 255) & 255) << sarek_t2));
# NARROW-NEXT:   int sarek_t4 = (i * 2);
# NARROW-NEXT:   int sarek_t5 = (sarek_t4 >> 2);
# NARROW:        atomicAnd(o16[sarek_t5], ((65535 << sarek_t7) ^ (-1)));
# NARROW-NEXT:   atomicOr(o16[sarek_t5], ((((((((sarek_t6 << (16 - sarek_t7)) >> 16) * ((sarek_t8 >> sarek_t7) & 65535)) >> 3) << 16) >> 16) & 65535) << sarek_t7));

# BF:        int sarek_t3 = floatBitsToInt(((a_ * intBitsToFloat((((x[sarek_t1] >> sarek_t2) & 65535) << 16))) + intBitsToFloat((((y[sarek_t1] >> sarek_t2) & 65535) << 16))));
# BF-NEXT:   int sarek_t4 = (((sarek_t3 + 32767) + ((sarek_t3 >> 16) & 1)) & (-65536));
# BF-NEXT:   atomicAnd(y[sarek_t1], ((65535 << sarek_t2) ^ (-1)));
# BF-NEXT:   atomicOr(y[sarek_t1], ((((sarek_t4 ^ ((sarek_t4 ^ 2143289344) & (0 - int(((sarek_t3 & 2147483647) > 2139095040))))) >> 16) & 65535) << sarek_t2));
# BF-NEXT:   z[i] = intBitsToFloat((((x[sarek_t1] >> sarek_t2) & 65535) << 16));

# REC:      struct Pixel {
# REC-NEXT:   int r;
# REC:      layout(std430, set = 0, binding = 0) buffer Buffer_p { int p[]; };
# REC:        int sarek_t = (i * 4);
# REC-NEXT:   int sarek_t1 = p[(sarek_t >> 2)];
# REC:        atomicAnd(p[sarek_t7], ((255 << sarek_t9) ^ (-1)));
# REC-NEXT:   atomicOr(p[sarek_t7], ((((255 - ((sarek_t8 >> sarek_t9) & 255)) & 255) & 255) << sarek_t9));

# UNS:      #extension GL_ARB_gpu_shader_int64 : require
# UNS:      layout(std430, set = 0, binding = 0) buffer Buffer_a { uint a[]; };
# UNS-NEXT: layout(std430, set = 0, binding = 1) buffer Buffer_b { uint64_t b[]; };
# UNS:        uint sarek_t = (a[i] >> 3u);
# UNS-NEXT:   o[i] = ((a[i] / s_) + (sarek_t - (7u * (sarek_t / 7u))));
# UNS-NEXT:   q[i] = ((b[i] * 3UL) - uint64_t(a[i]));
# UNS-NEXT:   f[i] = ((int((a[i] < s_)) + int((b[i] >= 100UL))) + int((uint((-1)) < a[i])));

# U32-NOT:  sarek_irem
# U32:        o[i] = (((a[i] / s_) + (sarek_t - (7u * (sarek_t / 7u)))) - uint(i));
# U32-NEXT:   f[i] = (float((a[i] < s_)) + float((0u - a[i])));
