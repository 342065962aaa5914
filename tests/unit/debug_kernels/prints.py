"""Kernels that print, run on the devices named on the command line; each device's output is framed by
`== device` lines (run in a child process so that the test sees exactly what a user sees on stdout)."""

import sys

import numpy as np

import sarek
from sarek import Vec, f32, f64, i32, i64
from sarek.gpu import block_idx_x, global_thread_id, thread_idx_x


@sarek.device
def show(x: f32) -> None:
    print("  helper:", x, x > 1.0, sep=" ")


@sarek.kernel
def talk(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        print("i =", i, "a[i] =", a[i], f"block {block_idx_x} thread={thread_idx_x} {{literal}}")
        show(a[i] * 2.0)
    if i == n:
        print("last", end="")
        print("!", -7, True)


@sarek.kernel
def wide(x: i64, y: f64):
    if global_thread_id == 0:
        print("i64", x, -x, "f64", y, y / 3.0)


@sarek.kernel
def chatty(n: i32):
    for k in range(n):
        print("line", k)


def run(device: str) -> None:
    print(f"== {device}", flush=True)
    a = np.arange(8, dtype=np.float32) * 0.75
    talk.launch(a, 5, grid=2, block=4, device=device)
    if "vulkan" not in device:
        wide.launch(-(2 ** 40) - 3, 0.1, grid=1, block=2, device=device)
    chatty.launch(40, grid=1, block=1, device=device)


if __name__ == "__main__":
    for d in sys.argv[1:]:
        run(d)
