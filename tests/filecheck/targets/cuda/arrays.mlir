// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s
// N-dimensional arrays on cuda: each vector passes its extents, accesses are linearised row-major (a vector's
// offset in 64 bits: each extent is an int, their product need not fit one; shared/local arrays in int)

// CHECK: __device__ float at(float* m, int sarek_m_dim0, int sarek_m_dim1, int i, int j) {
// CHECK-NEXT:   return m[(((long long)i * sarek_m_dim1) + j)];
// CHECK: extern "C" __global__ void nd(float* __restrict__ a, int sarek_a_dim0, int sarek_a_dim1, float* __restrict__ u, int sarek_u_dim0, int sarek_u_dim1, int sarek_u_dim2, float* __restrict__ o, int sarek_o_length) {
// CHECK-NEXT:   __shared__ float t[20];
// CHECK-NEXT:   int zi = ((int)threadIdx.x + ((int)blockDim.x * ((int)threadIdx.y + ((int)blockDim.y * (int)threadIdx.z))));
// CHECK-NEXT:   while (zi < 20) {
// CHECK-NEXT:     t[(((zi / 5) * 5) + (zi % 5))] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)blockDim.x * ((int)blockDim.y * (int)blockDim.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   float l[6] = {0};
// CHECK-NEXT:   t[(((int)threadIdx.y * 5) + (int)threadIdx.x)] = at(a, sarek_a_dim0, sarek_a_dim1, (int)threadIdx.y, (int)threadIdx.x);
// CHECK:        l[((2 * 3) + (int)threadIdx.x)] = t[(((int)threadIdx.x * 5) + (int)threadIdx.y)];
// CHECK-NEXT:   o[sarek_o_length] = (l[((2 * 3) + (int)threadIdx.x)] + u[(((((long long)(int)threadIdx.y * sarek_u_dim1) + sarek_u_dim1) * sarek_u_dim2) + (int)threadIdx.x)]);
