// RUN: sarek-opt %S/../Inputs/cf_types.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of cf_types.mlir (the whole output, line by line)

// CHECK: #if defined(cl_khr_subgroups) && defined(cl_khr_subgroup_shuffle)
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_subgroups : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
// CHECK-NEXT: #define SAREK_LANE_ID() ((int)get_sub_group_local_id())
// CHECK-NEXT: #define SAREK_WARP_SIZE() ((int)get_sub_group_size())
// CHECK-NEXT: #define SAREK_SHUFFLE(v, src) sub_group_shuffle((v), (uint)(src))
// CHECK-NEXT: #define SAREK_SUB_GROUP_BARRIER() sub_group_barrier(CLK_LOCAL_MEM_FENCE)
// CHECK-NEXT: #else
// CHECK-NEXT: /* no sub-groups on this device: a sub-group is one work-item */
// CHECK-NEXT: #define SAREK_LANE_ID() 0
// CHECK-NEXT: #define SAREK_WARP_SIZE() 1
// CHECK-NEXT: #define SAREK_SHUFFLE(v, src) (v)
// CHECK-NEXT: #define SAREK_SUB_GROUP_BARRIER() ((void)0)
// CHECK-NEXT: #endif
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   float x;
// CHECK-NEXT:   float y;
// CHECK-NEXT:   int live;
// CHECK-NEXT: } pos;
// CHECK-EMPTY:
// CHECK-NEXT: enum { Point = 0, Pair = 1, Nothing = 2 };
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   union {
// CHECK-NEXT:     pos Point_v;
// CHECK-NEXT:     struct {
// CHECK-NEXT:       int _0;
// CHECK-NEXT:       float _1;
// CHECK-NEXT:     } Pair_v;
// CHECK-NEXT:   } data;
// CHECK-NEXT: } item;
// CHECK-EMPTY:
// CHECK-NEXT: static inline item make_item_Point(pos v) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Point;
// CHECK-NEXT:   r.data.Point_v = v;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline item make_item_Pair(int v0, float v1) {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Pair;
// CHECK-NEXT:   r.data.Pair_v._0 = v0;
// CHECK-NEXT:   r.data.Pair_v._1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: static inline item make_item_Nothing() {
// CHECK-NEXT:   item r;
// CHECK-NEXT:   r.tag = Nothing;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: typedef struct {
// CHECK-NEXT:   pos a;
// CHECK-NEXT:   pos b;
// CHECK-NEXT: } seg;
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void types(__global seg* restrict segs, int sarek_segs_length, __global item* restrict items, int sarek_items_length, pos origin, item dflt) {
// CHECK-NEXT:   pos sarek_a = segs[(int)get_global_id(0)].a;
// CHECK-NEXT:   items[(int)get_global_id(0)] = (sarek_a.live ? make_item_Point(sarek_a) : dflt);
// CHECK-NEXT:   SAREK_SUB_GROUP_BARRIER();
// CHECK-NEXT:   segs[(int)get_global_id(0)].b = origin;
// CHECK-NEXT:   segs[(int)get_global_id(0)].b.x = (origin.x + 1.0f);
// CHECK-NEXT: }
