"""Kernels with out-of-bounds accesses, division by zero and shared/local overruns, run in debug mode on
the devices named on the command line; prints one JSON line per case (run in a child process: a release
build of these kernels corrupts pocl's heap)."""

import json
import sys

import numpy as np

import sarek
from sarek import Vec, f32, i32, u32
from sarek.gpu import global_thread_id, local_array, shared, thread_idx_x


@sarek.kernel
def oob_write(c: Vec[f32], n: i32, who: i32, at: i32):
    i = global_thread_id
    if i < n:
        c[i] = 1.0
    if i == who:
        c[at] = 2.0


@sarek.device
def bump(v: Vec[i32], j: i32) -> None:
    v[j] += 1


@sarek.kernel
def oob_helper(v: Vec[i32], who: i32, at: i32):
    if global_thread_id == who:
        bump(v, at)


@sarek.kernel
def div_zero(v: Vec[i32], d: i32, who: i32):
    i = global_thread_id
    if i == who:
        v[0] = 7 // (d - i)
        v[1] = 7 % (d - i)


@sarek.kernel
def shared_read(v: Vec[f32], at: i32):
    s = shared(f32, 32)
    t = local_array(f32, 4)
    s[thread_idx_x] = 1.0
    t[thread_idx_x % 4] = 2.0
    if thread_idx_x == 3:
        v[0] = s[at] + t[0]


@sarek.kernel
def div_zero_unsigned(v: Vec[u32], d: u32, who: i32):
    if global_thread_id == who:
        v[0] = 7 // d  # <udiv>
        v[1] = 7 % d


def run(device: str) -> None:
    n = 100
    for at in (n, -1, 10 * n):
        base = np.full(n + 20, 7.0, np.float32)
        c = base[10:10 + n]
        case = {"device": device, "case": f"write{at}"}
        try:
            oob_write.launch(c, n, 70, at, grid=2, block=64, device=device, debug=True)
            case["error"] = None
        except sarek.LaunchError as e:
            case.update(error=str(e), thread=list(e.__dict__["thread"]), block=list(e.__dict__["block"]),
                        index=e.__dict__["index"], extent=e.__dict__["extent"])
        case["inside"] = sorted(set(c.tolist()))
        case["outside"] = sorted(set(base[:10].tolist() + base[10 + n:].tolist()))
        print(json.dumps(case), flush=True)
    others = [("helper", lambda: oob_helper.launch(np.zeros(8, np.int32), 5, 8, grid=1, block=8, device=device,
                                                    debug=True)),
              ("div", lambda: div_zero.launch(np.zeros(2, np.int32), 3, 3, grid=1, block=8, device=device,
                                              debug=True)),
              ("udiv", lambda: div_zero_unsigned.launch(np.zeros(2, np.uint32), 0, 3, grid=1, block=8,
                                                        device=device, debug=True)),
              ("shared", lambda: shared_read.launch(np.zeros(1, np.float32), 32, grid=1, block=32,
                                                    device=device, debug=True))]
    for name, go in others:
        try:
            go()
            print(json.dumps({"device": device, "case": name, "error": None}), flush=True)
        except sarek.LaunchError as e:
            print(json.dumps({"device": device, "case": name, "error": str(e)}), flush=True)


if __name__ == "__main__":
    for d in sys.argv[1:]:
        run(d)
