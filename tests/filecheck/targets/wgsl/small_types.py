# The 8/16-bit and bf16 element types on wgsl (kernels: Inputs/small_types.py; issue 14): WGSL has no 8/16-bit
# storage, so sarek-pack-narrow stores them as i32 words (reads: shift and mask, sign extension for i8/i16;
# stores: atomicAnd + atomicOr of the word, which neighbouring lanes share) and computes in i32/f32; bf16 stores
# round the f32 bits to nearest even (every NaN becomes 0x7fc0). u32 is native; an unsigned % is a - b * (a / b)
# and -x is 0u - x (WGSL has no unary minus on u32). u64 is refused (WGSL has no 64-bit integers).
# RUN: sarek emit %S/../Inputs/small_types.py:narrow -t wgsl | filecheck %s --check-prefix=NARROW
# RUN: sarek emit %S/../Inputs/small_types.py:bf -t wgsl | filecheck %s --check-prefix=BF
# RUN: sarek emit %S/../Inputs/small_types.py:rgba -t wgsl | filecheck %s --check-prefix=REC
# RUN: sarek emit %S/../Inputs/small_types.py:unsigned32 -t wgsl | filecheck %s --check-prefix=U32
# RUN: not sarek emit %S/../Inputs/small_types.py:unsigned -t wgsl 2>&1 | filecheck %s --check-prefix=U64

# NARROW: @group(0) @binding(0) var<storage, read_write> a : array<i32>;
# NARROW: @group(0) @binding(4) var<storage, read_write> o8 : array<atomic<i32>>;
# NARROW: @group(0) @binding(5) var<storage, read_write> o16 : array<atomic<i32>>;
# NARROW:      if ((i < params.n)) {
# NARROW-NEXT:   let sarek_t : i32 = (i >> u32(2i));
# NARROW-NEXT:   let sarek_t1 : i32 = a[sarek_t];
# NARROW-NEXT:   let sarek_t2 : i32 = ((i & 3i) << u32(3i));
# NARROW-NEXT:   let sarek_t3 : i32 = b[sarek_t];
# NARROW-NEXT:   atomicAnd(&o8[sarek_t], ((255i << u32(sarek_t2)) ^ (-1i)));
# NARROW-NEXT:   atomicOr(&o8[sarek_t], ((((((sarek_t1 >> u32(sarek_t2)) & 255i) + ((sarek_t3 << u32((24i - sarek_t2))) >> u32(24i))) & 255i) & 255i) << u32(sarek_t2)));
# NARROW-NEXT:   let sarek_t4 : i32 = (i * 2i);
# NARROW-NEXT:   let sarek_t5 : i32 = (sarek_t4 >> u32(2i));
# NARROW:        atomicAnd(&o16[sarek_t5], ((65535i << u32(sarek_t7)) ^ (-1i)));
# NARROW-NEXT:   atomicOr(&o16[sarek_t5], ((((((((sarek_t6 << u32((16i - sarek_t7))) >> u32(16i)) * ((sarek_t8 >> u32(sarek_t7)) & 65535i)) >> u32(3i)) << u32(16i)) >> u32(16i)) & 65535i) << u32(sarek_t7)));

# BF:      struct Params {
# BF:        a : f32,
# BF:        let sarek_t3 : i32 = bitcast<i32>(((params.a * bitcast<f32>((((x[sarek_t1] >> u32(sarek_t2)) & 65535i) << u32(16i)))) + bitcast<f32>((((atomicLoad(&y[sarek_t1]) >> u32(sarek_t2)) & 65535i) << u32(16i)))));
# BF-NEXT:   let sarek_t4 : i32 = (((sarek_t3 + 32767i) + ((sarek_t3 >> u32(16i)) & 1i)) & (-65536i));
# BF-NEXT:   atomicAnd(&y[sarek_t1], ((65535i << u32(sarek_t2)) ^ (-1i)));
# BF-NEXT:   atomicOr(&y[sarek_t1], ((((sarek_t4 ^ ((sarek_t4 ^ 2143289344i) & (0i - i32(((sarek_t3 & 2147483647i) > 2139095040i))))) >> u32(16i)) & 65535i) << u32(sarek_t2)));
# BF-NEXT:   z[i] = bitcast<f32>((((x[sarek_t1] >> u32(sarek_t2)) & 65535i) << u32(16i)));

# REC:      struct Pixel {
# REC-NEXT:   r : i32,
# REC:      @group(0) @binding(0) var<storage, read_write> p : array<atomic<i32>>;
# REC:        let sarek_t : i32 = (i * 4i);
# REC-NEXT:   let sarek_t1 : i32 = atomicLoad(&p[(sarek_t >> u32(2i))]);
# REC-NEXT:   let sarek_t2 : i32 = (sarek_t + 3i);
# REC-NEXT:   let sarek_t3 : i32 = atomicLoad(&p[(sarek_t2 >> u32(2i))]);
# REC:        let sarek_t6 : i32 = (sarek_t + 1i);
# REC-NEXT:   let sarek_t7 : i32 = (sarek_t6 >> u32(2i));
# REC-NEXT:   let sarek_t8 : i32 = atomicLoad(&p[sarek_t7]);
# REC-NEXT:   let sarek_t9 : i32 = ((sarek_t6 & 3i) << u32(3i));
# REC-NEXT:   atomicAnd(&p[sarek_t7], ((255i << u32(sarek_t9)) ^ (-1i)));
# REC-NEXT:   atomicOr(&p[sarek_t7], ((((255i - ((sarek_t8 >> u32(sarek_t9)) & 255i)) & 255i) & 255i) << u32(sarek_t9)));

# U32-NOT:  sarek_irem
# U32:      @group(0) @binding(0) var<storage, read_write> a : array<u32>;
# U32:        s : u32,
# U32:        let sarek_t : u32 = (a[i] >> u32(3u));
# U32-NEXT:   o[i] = (((a[i] / params.s) + (sarek_t - (7u * (sarek_t / 7u)))) - u32(i));
# U32-NEXT:   f[i] = (f32((a[i] < params.s)) + f32((0u - a[i])));

# U64: small_types.py:26:1: error: WGSL: int64 not yet supported (WGSL has no 64-bit integers); use i32 here, or a target with 64-bit integers (every other one)
