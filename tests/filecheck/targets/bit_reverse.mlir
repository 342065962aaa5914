// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s --check-prefix=METAL
// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %S/Inputs/bit_reverse.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX

// sarek.math.bit_reverse on i32 and i64, each target's spelling (WGSL: wgsl/bit_reverse.mlir)

// CUDA and HIP: the intrinsics (unsigned operands and results, cast back)
// CUDA: a[sarek_i] = (int)__brev(a[sarek_i]);
// CUDA: b[sarek_i] = (long long)__brevll(b[sarek_i]);

// OpenCL C has no bit reversal (cl_khr_extended_bit_ops is optional): sarek's functions, defined once
// OPENCL: int sarek_bit_reverse32(int x) {
// OPENCL-NEXT:   uint v = (uint)x;
// OPENCL-NEXT:   v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
// OPENCL:   v = ((v >> 16) & 0x0000FFFFu) | ((v & 0x0000FFFFu) << 16);
// OPENCL-NEXT:   return (int)v;
// OPENCL: long sarek_bit_reverse64(long x) {
// OPENCL:   v = ((v >> 32) & 0x00000000FFFFFFFFUL) | ((v & 0x00000000FFFFFFFFUL) << 32);
// OPENCL: a[(int)get_global_id(0)] = sarek_bit_reverse32(a[(int)get_global_id(0)]);
// OPENCL: b[(int)get_global_id(0)] = sarek_bit_reverse64(b[(int)get_global_id(0)]);

// METAL: a[(int)__metal_gid.x] = reverse_bits(a[(int)__metal_gid.x]);
// METAL: b[(int)__metal_gid.x] = reverse_bits(b[(int)__metal_gid.x]);

// GLSL's bitfieldReverse is 32-bit: an int64_t's halves are reversed and swapped
// GLSL: a[int(gl_GlobalInvocationID.x)] = bitfieldReverse(a[int(gl_GlobalInvocationID.x)]);
// GLSL: b[int(gl_GlobalInvocationID.x)] = ((int64_t(bitfieldReverse(uint(b[int(gl_GlobalInvocationID.x)]))) << 32) | int64_t(bitfieldReverse(uint(b[int(gl_GlobalInvocationID.x)] >> 32))));

// PTX: .visible .entry brev32(
// PTX: brev.b32 %s{{[0-9]+}}, %s{{[0-9]+}};
// PTX: .visible .entry brev64(
// PTX: brev.b64 %sd{{[0-9]+}}, %sd{{[0-9]+}};
