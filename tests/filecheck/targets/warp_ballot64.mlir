// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --check-prefix=MSL
// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %S/Inputs/warp_ballot64.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s --check-prefix=GLS
// warp_ballot64 on every target with 64-bit integers: HIP keeps __ballot's 64 bits (a wavefront of 64), CUDA and
// PTX widen the 32-lane ballot, OpenCL sums distinct ulong bits over the sub-group, GLSL packs two words.

// CUDA: m[sarek_i] = (unsigned long long)__ballot_sync(0xffffffffu, (x[sarek_i] > 0));
// HIP: m[sarek_i] = (unsigned long long)__ballot((x[sarek_i] > 0));
// OPENCL: #define SAREK_BALLOT64(c) sub_group_reduce_add(((c) && get_sub_group_local_id() < 64u) ? ((ulong)1 << get_sub_group_local_id()) : (ulong)0)
// OPENCL: #define SAREK_BALLOT64(c) ((c) ? (ulong)1 : (ulong)0)
// OPENCL: = SAREK_BALLOT64(
// MSL: = (ulong)simd_ballot((x[(int)__metal_gid.x] > 0));
// PTX:      vote.sync.ballot.b32 [[B:%u[0-9]+]], {{%p[0-9]+}}, -1;
// PTX-NEXT: cvt.u64.u32 {{%ud[0-9]+}}, [[B]];
// GLS:     #extension GL_ARB_gpu_shader_int64 : require
// GLS-NOT: #extension GL_ARB_gpu_shader_int64
// GLS:     packUint2x32(subgroupBallot({{.*}}).xy)
