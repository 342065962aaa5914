"""Dask: a 2-D Jacobi step over a chunked grid (`sarek.dask.map_overlap`, one-cell halos) and the squared
residual as a Dask reduction over per-thread partial sums (`sarek.dask.map_blocks` with `Out((P,))`).

As a corpus module the two kernels are ordinary cases (one array, one launch). Run as a script
(`python examples/dask_stencil.py`, needs the `dask` extra) it starts a two-worker `distributed.LocalCluster`
and iterates the step over a chunked array; each worker launches on its `$SAREK_DEVICE`.
"""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_idx_x, global_idx_y, global_size, global_thread_id

P = 512  # threads (and partial sums) per sum_squares launch


@kernel
def jacobi_step(u: Vec[f32], v: Vec[f32], nx: i32, ny: i32):
    x = global_idx_x
    y = global_idx_y
    if x < nx and y < ny:
        i = y * nx + x
        if x > 0 and x < nx - 1 and y > 0 and y < ny - 1:
            v[i] = 0.25 * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx])
        else:
            v[i] = u[i]


@kernel
def sum_squares(a: Vec[f32], partial: Vec[f32], n: i32):
    t = global_thread_id
    acc = 0.0
    i = t
    while i < n:  # grid-stride: thread t sums the squares of a[t], a[t + P], ... (P threads in all)
        acc += a[i] * a[i]
        i += global_size
    partial[t] = acc


NX = 40


def jacobi_ref(u):
    """One Jacobi step in numpy: the 4-neighbour mean inside, the border copied."""
    v = u.copy()
    v[1:-1, 1:-1] = np.float32(0.25) * (u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1])
    return v


def _grid(rows, cols=NX):
    return np.random.default_rng(40).random((rows, cols), dtype=np.float32)


def _jacobi_args(n):
    u = _grid(n // NX)
    return (u.reshape(-1), np.zeros(n, np.float32), NX, n // NX)


def _squares_args(n):
    return (_grid(1, n).reshape(-1), np.zeros(P, np.float32), n)


def _squares_ref(a):
    x = a[0].astype(np.float64)
    y = np.zeros(-(-len(x) // P) * P)
    y[:len(x)] = x * x
    return {1: y.reshape(-1, P).sum(0)}


CASES = [
    Case("jacobi_step", jacobi_step, _jacobi_args, lambda a: {1: jacobi_ref(a[0].reshape(-1, NX)).reshape(-1)},
         n=NX * 30, grid=(3, 2), block=(16, 16)),
    Case("sum_squares", sum_squares, _squares_args, _squares_ref, n=3000, grid=P // 64, block=64, rtol=1e-5),
]


def run(client, n=1024, chunk=256, steps=10):
    """`steps` Jacobi steps over an n x n grid in chunk x chunk blocks on `client`'s cluster; returns the
    final grid (a numpy array) and the squared residual of the last step."""
    import dask.array as da

    import sarek.dask as sd

    u = da.from_array(_grid(n, n), chunks=chunk)
    prev = u
    for _ in range(steps):
        prev, u = u, sd.map_overlap(jacobi_step, u, sd.dim(1), sd.dim(0), depth=1, boundary="none",
                                    out={"v": sd.like("u")}, threads=sd.chunk_xyz, block=(16, 16))
        u = u.persist()
    diff = (u - prev).ravel().rechunk(chunk * chunk)
    partials = sd.map_blocks(sum_squares, diff, sd.size, out=sd.Out((P,)), threads=P, block=64)
    return u.compute(), float(partials.sum().compute())


def main():
    import time

    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        t0 = time.perf_counter()
        grid, residual = run(client)
        took = time.perf_counter() - t0
    want = _grid(1024, 1024)
    for _ in range(10):
        want = jacobi_ref(want)
    print(f"10 Jacobi steps on 1024x1024 in 256x256 chunks: {took:.2f} s; squared residual {residual:.6g}; "
          f"max |dask - numpy| = {float(np.abs(grid - want).max()):.3g}")


if __name__ == "__main__":
    main()
