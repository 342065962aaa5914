// RUN: sarek-opt %S/../Inputs/int_abs.mlir -t ptx | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %S/../Inputs/int_abs.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/../Inputs/int_abs.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=HIP

// Integer abs on PTX and CUDA is a select (x < 0 ? -x : x), never PTX `abs.s32`/C `abs()`: NVIDIA's ptxas
// (H200, CUDA 12, default -O3) computes `abs(v) % 2` after a warp shuffle as 200 and writes out of bounds
// (fuzz seeds 202272 and 401754; right at -Xptxas -O0, or with the select). HIP (AMD's compiler) keeps abs.
// PTX-NOT:     abs.s
// PTX:         shfl.sync.idx.b32
// PTX:         setp.lt.s32 [[P:%p[0-9]+]], [[X:%s[0-9]+]], 0;
// PTX-NEXT:    neg.s32 [[N:%s[0-9]+]], [[X]];
// PTX-NEXT:    selp.s32 %s{{[0-9]+}}, [[N]], [[X]], [[P]];
// PTX:         setp.lt.s64 [[Q:%p[0-9]+]], [[Y:%sd[0-9]+]], 0;
// PTX-NEXT:    neg.s64 [[M:%sd[0-9]+]], [[Y]];
// PTX-NEXT:    selp.s64 %sd{{[0-9]+}}, [[M]], [[Y]], [[Q]];
// PTX-NOT:     abs.s

// CUDA-NOT:    abs(
// CUDA:        ? (-sarek_{{[a-z0-9_]+}}) :
// CUDA:        ? (-sarek_{{[a-z0-9_]+}}) :
// CUDA-NOT:    abs(

// HIP:         abs(
// HIP:         llabs(
