# RUN: sarek ir %s:pick | filecheck %s --check-prefix=PICK
# RUN: sarek ir %s:offset | filecheck %s --check-prefix=OFFSET
# RUN: sarek ir %s:nested | filecheck %s --check-prefix=NESTED
# RUN: not sarek ir %s:atomic 2>&1 | filecheck %s --check-prefix=ATOMIC
# RUN: not sarek ir %s:mismatch 2>&1 | filecheck %s --check-prefix=MISMATCH
# RUN: not sarek ir %s:rebind 2>&1 | filecheck %s --check-prefix=REBIND
# An array view (a name bound to `a if c else b` or `v[k:]`, or the expression itself) passed to a device
# function calls the helper's instance for that view's shape: the parameter becomes the view's arrays, offsets,
# lengths and conditions (`<helper>_view_<param index><shape>`: a array, o offset, l length, s select), and the
# helper reads base + offset as the kernel would. Atomics still take whole arrays.

from sarek import Vec, device, f32, i32, kernel
from sarek.gpu import atomic_add, global_thread_id


@device
def total(v: Vec[f32], n: i32) -> f32:
    s = 0.0
    for k in range(n):
        s += v[k]
    return s


@kernel
def pick(a: Vec[f32], b: Vec[f32], o: Vec[f32], even: i32):
    src = a if even != 0 else b
    o[global_thread_id] = total(src, 4)

# PICK:      sarek.helper @total_view_0saa(%v: !sarek.vec<f32> "v", %v_else: !sarek.vec<f32> "v_else", %v_c: i1 "v_c", %n: i32 "n") -> f32 {
# PICK:        %{{.*}} = sarek.if_expr %v_c -> f32 {
# PICK-NEXT:     %{{.*}} = sarek.array_read %v[
# PICK:        } else {
# PICK-NEXT:     %{{.*}} = sarek.array_read %v_else[
# PICK:      sarek.kernel @pick(
# PICK:        %[[C:.*]] = sarek.binop ne %even,
# PICK:        sarek.call @total_view_0saa(%a, %b, %[[C]], %{{.*}})


@kernel
def offset(a: Vec[f32], o: Vec[f32]):
    i = global_thread_id
    o[i] = total(a[i:], 4) + total(a[i:i + 2], 2)

# OFFSET:      sarek.helper @total_view_0o(%v: !sarek.vec<f32> "v", %v_off: i32 "v_off", %n: i32 "n") -> f32 {
# OFFSET:        %[[I:.*]] = sarek.binop add %{{.*}}, %v_off : i32
# OFFSET-NEXT:   %{{.*}} = sarek.array_read %v[%[[I]]] : !sarek.vec<f32>
# OFFSET:      sarek.helper @total_view_0ol(%v: !sarek.vec<f32> "v", %v_off: i32 "v_off", %v_len: i32 "v_len", %n: i32 "n") -> f32 {
# OFFSET:      sarek.kernel @offset(
# OFFSET:        sarek.call @total_view_0o(%a, %{{.*}}, %{{.*}})
# OFFSET:        sarek.call @total_view_0ol(%a, %{{.*}}, %{{.*}}, %{{.*}})


@device
def head(v: Vec[f32]) -> f32:
    return v[0] + f32(len(v))


@device
def tail_sum(v: Vec[f32], k: i32) -> f32:
    return head(v[k:])


@kernel
def nested(a: Vec[f32], o: Vec[f32]):
    i = global_thread_id
    o[i] = tail_sum(a[i:], 1)

# A view inside the helper passed on: the offsets add up, len() is the base's extent less the offset.
# NESTED:      sarek.helper @head_view_0o(%v: !sarek.vec<f32> "v", %v_off: i32 "v_off") -> f32 {
# NESTED:        sarek.array_len %v
# NESTED:        sarek.binop sub %{{.*}}, %v_off : i32
# NESTED:      sarek.helper @tail_sum_view_0o(%v: !sarek.vec<f32> "v", %v_off: i32 "v_off", %k: i32 "k") -> f32 {
# NESTED-NEXT:   %[[O:.*]] = sarek.binop add %v_off, %k : i32
# NESTED-NEXT:   %{{.*}} = sarek.call @head_view_0o(%v, %[[O]])


@kernel
def atomic(a: Vec[f32], b: Vec[f32], c: bool):
    atomic_add(a if c else b, 0, 1.0)

# ATOMIC: view_arguments.py:79:16: error: 'a if c else b' is an array view choosing between arrays, and atomic_add() takes whole arrays: call atomic_add() on each array under an if (or pass both arrays and the condition)


@kernel
def mismatch(a: Vec[i32], o: Vec[f32]):
    o[0] = total(a[1:], 2)

# MISMATCH: view_arguments.py:86:18: error: type mismatch: parameter 'v' of total() is Vec[f32], given a view of Vec[i32]


@device
def shift(v: Vec[f32], w: Vec[f32]) -> f32:
    v = w
    return v[0]


@kernel
def rebind(a: Vec[f32], o: Vec[f32]):
    o[0] = shift(a[1:], o)

# REBIND: view_arguments.py:93:5: error: cannot rebind array parameter 'v'
