// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --check-prefix=MSL
// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s --check-prefix=GLS
// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %S/Inputs/unsigned_atomics.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %S/Inputs/unsigned_atomics_u64.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=WCUDA
// RUN: sarek-opt %S/Inputs/unsigned_atomics_u64.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=WOPENCL
// RUN: sarek-opt %S/Inputs/unsigned_atomics_u64.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=WPTX
// RUN: sarek-opt %S/Inputs/unsigned_atomics_u64.mlir -p 'sarek-pipeline{target=metal}' -t metal --verify-diagnostics | filecheck %s --check-prefix=WMETAL
// RUN: sarek-opt %S/Inputs/unsigned_atomics_u64.mlir -p 'sarek-pipeline{target=glsl}' -t glsl --verify-diagnostics | filecheck %s --check-prefix=WGLSL
// u32 atomics on every target (unsigned min/max, inc/dec with an unsigned one, sub wrapping), u64 ones where
// the target has 64-bit atomics, refused with the reason on Metal and GLSL (WGSL has no 64-bit integers).

// CUDA:      old[sarek_i] = atomicAdd(&h[(sarek_i % 4)], 1U);
// CUDA:      atomicSub(&h[4], 3U);
// CUDA:      atomicMax(&h[5], sarek_u);
// CUDA:      atomicAdd(&s[0], 1u);
// CUDA:      atomicSub(&h[0], 1u);
// CUDA:      atomicCAS(&h[6], 0U, sarek_u);

// OPENCL:      atomic_add(&h[((int)get_global_id(0) % 4)], 1U);
// OPENCL:      atomic_sub(&h[4], 3U);
// OPENCL:      atomic_max(&h[5], sarek_u);
// OPENCL:      atomic_inc(&s[0]);
// OPENCL:      atomic_dec(&h[0]);
// OPENCL:      atomic_cmpxchg(&h[6], 0U, sarek_u);

// MSL:     static inline uint sarek_atomic_cas_uint_device(volatile device atomic_uint* p, uint cmp, uint x) {
// MSL:     atomic_fetch_add_explicit((volatile device atomic_uint*)&h[((int)__metal_gid.x % 4)], 1U, memory_order_relaxed);
// MSL:     atomic_fetch_max_explicit((volatile device atomic_uint*)&h[5], sarek_u, memory_order_relaxed);
// MSL:     atomic_fetch_add_explicit((volatile threadgroup atomic_uint*)&s[0], 1, memory_order_relaxed);
// MSL:     sarek_atomic_cas_uint_device((volatile device atomic_uint*)&h[6], 0U, sarek_u);

// GLS:      uint sarek_t = atomicAdd(h[sarek_irem(int(gl_GlobalInvocationID.x), 4)], 1u);
// GLS:      atomicAdd(h[4], (-3u));
// GLS:      atomicMax(h[5], sarek_t1);
// GLS:      atomicAdd(s[0], 1u);
// GLS:      atomicAdd(h[0], (-1u));
// GLS:      atomicCompSwap(h[6], 0u, sarek_t1);

// WGSL:      var<storage, read_write> h : array<atomic<u32>>;
// WGSL:      var<workgroup> s : array<atomic<u32>, 4>;
// WGSL:      atomicAdd(&h[sarek_irem(i32(sarek_gid.x), 4i)], 1u);
// WGSL:      atomicSub(&h[4i], 3u);
// WGSL:      atomicMax(&h[5i], sarek_t1);
// WGSL:      atomicAdd(&s[0i], 1u);
// WGSL:      atomicSub(&h[0i], 1u);
// WGSL:      atomicCompareExchangeWeak(&h[6i], 0u, sarek_t1);

// PTX:      atom.global.add.u32
// PTX:      neg.s32 [[N:%u[0-9]+]],
// PTX-NEXT: atom.global.add.u32 {{%u[0-9]+}}, [{{%ud[0-9]+}}], [[N]];
// PTX:      atom.global.max.u32
// PTX:      atom.shared.add.u32
// PTX:      atom.global.cas.b32

// WCUDA:      atomicMin(&w[0], sarek_u);
// WCUDA:      atomicAdd(&w[1], 0ull - (2ULL));
// WCUDA:      atomicOr(&w[2], sarek_u);
// WCUDA:      atomicAdd(&w[2], 0ull - 1ull);

// WOPENCL:      #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// WOPENCL:      atom_min(&w[0], sarek_u);
// WOPENCL:      atom_sub(&w[1], 2UL);
// WOPENCL:      atom_or(&w[2], sarek_u);
// WOPENCL:      atom_dec(&w[2]);

// WPTX:      atom.global.min.u64
// WPTX:      atom.global.add.u64
// WPTX:      atom.global.or.b64
// WPTX:      atom.global.add.u64

// WMETAL: u.py:7:5: error: Metal: 'atomic_min' on u64 is not supported (Metal atomics are 32-bit)
// WGLSL:  u.py:7:5: error: GLSL: 'atomic_min' on u64 is not supported (GLSL atomics are 32-bit (GL_EXT_shader_atomic_int64 is not used))
