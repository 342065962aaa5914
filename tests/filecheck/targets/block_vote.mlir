// RUN: sarek-opt %S/Inputs/block_vote.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/block_vote.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=HIP
// RUN: sarek-opt %S/Inputs/block_vote.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %S/Inputs/block_vote.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// Block votes: CUDA and HIP call __syncthreads_count / _and / _or, PTX reduces over barrier 0 (bar.red), each
// vote in order and in its own temporary (it is a barrier: never folded into `&&`); OpenCL (like every other
// target) gets the shared counter of sarek-expand-block-votes.

// CUDA:      int sarek_n = __syncthreads_count(sarek_c);
// CUDA-NEXT: int sarek_all = (__syncthreads_and(sarek_c) != 0);
// CUDA-NEXT: int sarek_any = (__syncthreads_or(sarek_c) != 0);
// CUDA-NEXT: a[sarek_i] = ((int)(sarek_all && sarek_any) + sarek_n);

// HIP:      int sarek_n = __syncthreads_count(sarek_c);
// HIP-NEXT: int sarek_all = (__syncthreads_and(sarek_c) != 0);
// HIP-NEXT: int sarek_any = (__syncthreads_or(sarek_c) != 0);

// PTX:      setp.gt.s32 [[P:%p[0-9]+]], {{%s[0-9]+}}, 0;
// PTX-NEXT: bar.red.popc.u32 {{%s[0-9]+}}, 0, [[P]];
// PTX-NEXT: bar.red.and.pred {{%p[0-9]+}}, 0, [[P]];
// PTX-NEXT: bar.red.or.pred {{%p[0-9]+}}, 0, [[P]];

// OPENCL-NOT: __syncthreads
// OPENCL:     barrier(CLK_LOCAL_MEM_FENCE);
// OPENCL:     atomic_add(&
