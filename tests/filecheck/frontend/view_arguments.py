# RUN: not sarek ir %s:pick 2>&1 | filecheck %s --check-prefix=PICK
# RUN: not sarek ir %s:offset 2>&1 | filecheck %s --check-prefix=OFFSET
# An array view (a name bound to `a if c else b` or `v[k:]`, or the expression itself) passed to a device
# function is refused at the argument, with the rewrite that passes whole arrays (a view is no IR value: the
# shaders can neither select nor offset a buffer).

from sarek import Vec, device, f32, i32, kernel
from sarek.gpu import global_thread_id


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

# PICK: view_arguments.py:22:33: error: 'src' is an array view choosing between arrays, and total() takes whole arrays: call total() on each array under an if (or pass both arrays and the condition)


@kernel
def offset(a: Vec[f32], o: Vec[f32]):
    i = global_thread_id
    o[i] = total(a[i:], 4)

# OFFSET: view_arguments.py:30:18: error: 'a[i:]' is an array view (an array with an offset), and total() takes whole arrays: pass the array and the offset as two arguments and add the offset to the indices inside total()
