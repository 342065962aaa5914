// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --check-prefix=MSL
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s --check-prefix=GLS
// RUN: sarek-opt %S/Inputs/warp_vote.mlir -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s --check-prefix=WGSL
// Warp votes on every target. A vote is a collective: it keeps its own temporary rather than being folded into
// the right side of `&&` (C would skip it on the lanes where the left side is false).

// CUDA:      int sarek_any = __any_sync(0xffffffffu, sarek_c);
// CUDA-NEXT: int sarek_all = __all_sync(0xffffffffu, sarek_c);
// CUDA-NEXT: a[sarek_i] = (int)(sarek_any && sarek_all);
// CUDA-NEXT: m[sarek_i] = __ballot_sync(0xffffffffu, sarek_c);

// HIP:      int sarek_any = __any(sarek_c);
// HIP:      m[sarek_i] = (unsigned int)__ballot(sarek_c);

// OPENCL:      #if defined(cl_khr_subgroups) && defined(cl_khr_subgroup_shuffle)
// OPENCL:      #define SAREK_ANY(c) sub_group_any((int)(c))
// OPENCL-NEXT: #define SAREK_ALL(c) sub_group_all((int)(c))
// OPENCL:      #define SAREK_BALLOT(c) sub_group_reduce_add(((c) && get_sub_group_local_id() < 32u) ? (1u << get_sub_group_local_id()) : 0u)
// OPENCL-NEXT: #define SAREK_BALLOT64(c) sub_group_reduce_add(((c) && get_sub_group_local_id() < 64u) ? ((ulong)1 << get_sub_group_local_id()) : (ulong)0)
// OPENCL-NEXT: #else
// OPENCL:      #define SAREK_ANY(c) ((c) != 0)
// OPENCL-NEXT: #define SAREK_ALL(c) ((c) != 0)
// OPENCL-NEXT: #define SAREK_BALLOT(c) ((c) ? 1u : 0u)
// OPENCL-NEXT: #define SAREK_BALLOT64(c) ((c) ? (ulong)1 : (ulong)0)
// OPENCL:      int sarek_any = SAREK_ANY(sarek_c);
// OPENCL:      = SAREK_BALLOT(sarek_c);

// MSL: bool sarek_any = simd_any(sarek_c);
// MSL: m[(int)__metal_gid.x] = (uint)(ulong)simd_ballot(sarek_c);

// PTX:      setp.gt.s32 [[P:%p[0-9]+]], {{%s[0-9]+}}, 0;
// PTX-NEXT: vote.sync.any.pred {{%p[0-9]+}}, [[P]], -1;
// PTX-NEXT: vote.sync.all.pred {{%p[0-9]+}}, [[P]], -1;
// PTX:      vote.sync.ballot.b32 {{%u[0-9]+}}, [[P]], -1;

// GLS:      #extension GL_KHR_shader_subgroup_vote : require
// GLS-NEXT: #extension GL_KHR_shader_subgroup_ballot : require
// GLS:      bool sarek_t1 = subgroupAny(sarek_t);
// GLS-NEXT: bool sarek_t2 = subgroupAll(sarek_t);
// GLS:      uint sarek_t3 = subgroupBallot(sarek_t).x;

// WGSL: @builtin(subgroup_invocation_id) sarek_sg_lane_in : u32
// WGSL: let sarek_t1 : bool = subgroupAny(sarek_t);
// WGSL: let sarek_t2 : bool = subgroupAll(sarek_t);
// WGSL: let sarek_t3 : u32 = subgroupBallot(sarek_t).x;
