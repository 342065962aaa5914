"""The math intrinsics lavapipe computes with low precision (the fuzzer's "lowprec" tolerance), on the domains
sarek.testing.gen gives them."""

from sarek import Vec, f32, kernel
from sarek import math as sm
from sarek.gpu import global_thread_id


@kernel
def lowprec(x: Vec[f32], y: Vec[f32], o: Vec[f32]):
    i = global_thread_id
    if i < len(x):
        o[i * 5 + 0] = sm.asin(sm.fmin(sm.fmax(x[i], -0.9), 0.9))
        o[i * 5 + 1] = sm.acos(sm.fmin(sm.fmax(x[i], -0.9), 0.9))
        o[i * 5 + 2] = sm.atan(y[i])
        o[i * 5 + 3] = sm.atan2(y[i], abs(x[i]) + 0.5)
        o[i * 5 + 4] = sm.sinh(sm.fmin(sm.fmax(x[i], -3.0), 3.0))
