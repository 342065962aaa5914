// RUN: sarek-opt %S/../Inputs/cf_refusals.mlir -p 'sarek-pipeline{target=metal}' -t metal --verify-diagnostics --split-input-file | filecheck %s
// The metal refusals of the C-family lowering and of the feature gate, one per split of the input.

// CHECK: r.py:2:5: error: Metal: shared array 's' must be declared in a kernel, not in a helper
// CHECK: r.py:5:5: error: Metal: the size of array 'a' must be a constant
// CHECK: r.py:9:9: error: Metal: recursive helper @f is not supported
// CHECK: r.py:12:3: error: Metal: %native not supported: this sarek.native carries no metal source text, and a backend emits only text written for its own target
// CHECK: r.py:15:10: error: Metal: 'atomic_and' on f32 is not supported (bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is atomic_cas in a loop over sarek.bitcast)
// CHECK: r.py:18:10: error: Metal: 'atomic_add' on i64 is not supported
// CHECK: r.py:20:1: error: Metal: float64 not yet supported (Metal has no double; sarek never narrows it to float silently); use f32 here, or a target with float64 (CUDA, HIP, OpenCL, GLSL, PTX)
// CHECK: r.py:24:1: error: Metal: record 'half_pair' has an f16 field, which Metal stores as its 16 bits only in vectors and arrays; make the field f32, or u16 holding the bits
