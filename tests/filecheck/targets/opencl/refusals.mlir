// RUN: sarek-opt %S/../Inputs/cf_refusals.mlir -p 'sarek-pipeline{target=opencl}' -t opencl --verify-diagnostics --split-input-file | filecheck %s
// The opencl refusals of the C-family lowering and of the feature gate, one per split of the input.

// CHECK: r.py:2:5: error: OpenCL: shared array 's' must be declared in a kernel, not in a helper
// CHECK: r.py:5:5: error: OpenCL: the size of array 'a' must be a constant
// CHECK: r.py:9:9: error: OpenCL: recursive helper @f is not supported
// CHECK: r.py:12:3: error: OpenCL: %native not supported: this sarek.native carries no opencl source text, and a backend emits only text written for its own target
// CHECK: r.py:15:10: error: OpenCL: 'atomic_and' on f32 is not supported (bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is atomic_cas in a loop over sarek.bitcast)
// CHECK: r.py:24:1: error: OpenCL: record 'half_pair' has an f16 field, which OpenCL stores as its 16 bits only in vectors and arrays; make the field f32, or u16 holding the bits
