"""sarek.dask benchmark (`python benchmarks/bench_dask.py [--quick] [--cuda] [--json PATH]`).

CPU rows (any machine): a one-worker `distributed.LocalCluster` (one process, one thread) runs saxpy over the
same persisted chunks two ways in the same run: Dask's own `map_blocks` of a numpy function (`2 * x + y`) and
`sarek.dask.map_blocks` of the sarek kernel on `interp` and on pocl (`opencl:0`). Per-chunk time = wall time of
`persist()` + `wait()` of the result over the number of chunks; the best of `--repeat` runs after a warm-up
(the kernel compiled once on the worker). Many small chunks measure the per-chunk overhead; few large ones
the throughput. "plain launch" is one `kernel.launch` of a chunk in this process, without Dask.

`--cuda` rows (the H200): the worker launches on `cuda:0` over CuPy chunks (persisted on the GPU) against one
plain sarek launch over the whole CuPy array in this process (launch + synchronize), and Dask's own
`map_blocks` of CuPy's `2 * x + y` on the same chunks. Ratios are against the plain launch.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sarek import Vec, f32, i32, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402


@kernel
def saxpy(a: f32, x: Vec[f32], y: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = a * x[i] + y[i]


def _np_saxpy(x: Any, y: Any) -> Any:
    return 2.0 * x + y  # numpy (or CuPy) keeps float32


def _best(f: Callable[[], Any], repeat: int) -> float:
    f()  # warm-up: compiles on the worker, fills caches
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def _persisted(client: Any, x: Any) -> Any:
    from distributed import wait

    x = client.persist(x)
    wait(x)
    return x


def _run(client: Any, make: Callable[[], Any]) -> Callable[[], None]:
    """Build the result afresh (new keys: re-persisting released keys can race in distributed) and wait for
    it on the workers."""
    from distributed import wait

    def go() -> None:
        r = client.persist(make())
        wait(r)
        del r

    return go


def _np_map(x: Any, y: Any, **meta: Any) -> Any:
    import dask.array as da

    return da.map_blocks(_np_saxpy, x, y, dtype=np.float32, name=f"np-saxpy-{uuid.uuid4().hex}", **meta)


def _inputs(client: Any, n: int, chunk: int, cupy: Any = None) -> tuple[Any, Any]:
    import dask.array as da

    x = da.arange(n, dtype=np.float32, chunks=chunk)
    y = da.ones(n, dtype=np.float32, chunks=chunk)
    if cupy is not None:
        meta = cupy.empty((0,), np.float32)
        x, y = (a.map_blocks(cupy.asarray, meta=meta) for a in (x, y))
    return _persisted(client, x), _persisted(client, y)


def _check(client: Any, r: Any, x: Any, y: Any) -> None:
    """The result against `2 * x + y` of the same chunks, on a sample (float32 aranges past 2**24 round, and
    Dask's chunked arange rounds like itself, not like one np.arange)."""
    step = max(x.shape[0] // 1000, 1)
    got, xs, ys = (np.asarray(a.get() if hasattr(a, "get") else a)
                   for a in client.compute([r[::step], x[::step], y[::step]], sync=True))
    want = np.float32(2.0) * xs + ys
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"wrong saxpy result at {bad.size} of {want.size} sampled elements (first: index " \
        f"{bad[0] * step}: got {got[bad[0]]}, want {want[bad[0]]})"


def cpu_rows(client: Any, quick: bool = False, devices: tuple[str, ...] = ("interp", "opencl:0"),
             repeat: int = 5) -> list[dict[str, Any]]:
    """Per-chunk time of sarek.dask against Dask + numpy on the same chunks (see the module docstring)."""
    import sarek.dask as sd

    shapes = [(64 * 1024, 1024), (2_000_000, 400_000)] if quick else [(200 * 1024, 1024),
                                                                        (10_000_000, 1_000_000)]
    rows: list[dict[str, Any]] = []
    for n, chunk in shapes:
        x, y = _inputs(client, n, chunk)
        nchunks = x.numblocks[0]
        t_np = _best(_run(client, lambda: _np_map(x, y)), repeat) / nchunks
        for dev in devices:
            def make(dev: str = dev) -> Any:
                return sd.map_blocks(saxpy, 2.0, x, y, sd.size, out=sd.like("x"), device=dev)

            _check(client, make(), x, y)
            t_sk = _best(_run(client, make), repeat) / nchunks
            xs, ys, out = (np.arange(chunk, dtype=np.float32), np.ones(chunk, np.float32),
                           np.zeros(chunk, np.float32))
            t_plain = _best(lambda: saxpy.launch(2.0, xs, ys, out, chunk, threads=chunk, device=dev), repeat)
            rows.append({"n": n, "chunk": chunk, "chunks": nchunks, "device": dev, "dask_numpy_us": t_np * 1e6,
                         "sarek_dask_us": t_sk * 1e6, "plain_launch_us": t_plain * 1e6,
                         "overhead_us": (t_sk - t_np) * 1e6, "ratio": t_sk / t_np})
    return rows


def cuda_rows(client: Any, quick: bool = False, repeat: int = 5) -> list[dict[str, Any]]:
    """One worker on cuda:0 over CuPy chunks against one plain launch over the whole CuPy array."""
    import cupy

    import sarek.dask as sd
    from sarek.runtime import get_device

    dev = get_device("cuda:0")
    shapes = [(1 << 22, 1 << 20)] if quick else [(1 << 24, 1 << 20), (1 << 28, 1 << 25), (1 << 28, 1 << 27)]
    rows: list[dict[str, Any]] = []
    for n, chunk in shapes:
        x, y = _inputs(client, n, chunk, cupy)
        nchunks = x.numblocks[0]
        def make() -> Any:
            return sd.map_blocks(saxpy, 2.0, x, y, sd.size, out=sd.like("x"), device="cuda:0")

        _check(client, make(), x, y)
        t_dask = _best(_run(client, make), repeat)
        t_cupy = _best(_run(client, lambda: _np_map(x, y, meta=cupy.empty((0,), np.float32))), repeat)
        xs, ys = cupy.arange(n, dtype=cupy.float32), cupy.ones(n, cupy.float32)
        out = cupy.zeros(n, cupy.float32)

        def plain() -> None:
            saxpy.launch(2.0, xs, ys, out, n, threads=n, block=256, device=dev)
            dev.synchronize()

        t_plain = _best(plain, repeat)
        assert bool((out[:1000] == 2 * xs[:1000] + 1).all()), "wrong plain saxpy result"
        del xs, ys, out
        rows.append({"n": n, "chunk": chunk, "chunks": nchunks, "device": "cuda:0", "plain_ms": t_plain * 1e3,
                     "sarek_dask_ms": t_dask * 1e3, "dask_cupy_ms": t_cupy * 1e3, "ratio": t_dask / t_plain,
                     "cupy_ratio": t_cupy / t_plain, "GBps_plain": 12 * n / t_plain / 1e9})
        client.cancel([x, y])
    return rows


def _cluster(env: dict[str, str] | None = None) -> tuple[Any, Any]:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                           env=env or {})
    return cluster, Client(cluster)


def print_cpu(rows: list[dict[str, Any]]) -> None:
    print(f"{'elements':>10} {'chunk':>9} {'chunks':>6} {'device':>9} {'dask+numpy us':>14} {'sarek.dask us':>14} "
          f"{'overhead us':>12} {'x numpy':>8} {'plain launch us':>16}")
    for r in rows:
        print(f"{r['n']:>10} {r['chunk']:>9} {r['chunks']:>6} {r['device']:>9} {r['dask_numpy_us']:>14.0f} "
              f"{r['sarek_dask_us']:>14.0f} {r['overhead_us']:>12.0f} {r['ratio']:>8.2f} {r['plain_launch_us']:>16.0f}")


def print_cuda(rows: list[dict[str, Any]]) -> None:
    print(f"{'elements':>10} {'chunk':>9} {'chunks':>6} {'plain ms':>9} {'sarek.dask ms':>14} {'x plain':>8} "
          f"{'dask+cupy ms':>13} {'x plain':>8} {'plain GB/s':>11}")
    for r in rows:
        print(f"{r['n']:>10} {r['chunk']:>9} {r['chunks']:>6} {r['plain_ms']:>9.2f} {r['sarek_dask_ms']:>14.2f} "
              f"{r['ratio']:>8.2f} {r['dask_cupy_ms']:>13.2f} {r['cupy_ratio']:>8.2f} {r['GBps_plain']:>11.0f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--cuda", action="store_true", help="the H200 rows only (cuda:0 over CuPy chunks)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", type=Path, help="write the rows here")
    args = ap.parse_args(argv)
    cluster, client = _cluster({"SAREK_DEVICE": "cuda:0"} if args.cuda else None)
    try:
        if args.cuda:
            rows = cuda_rows(client, args.quick, args.repeat)
            print_cuda(rows)
        else:
            rows = cpu_rows(client, args.quick, repeat=args.repeat)
            print_cpu(rows)
    finally:
        client.close()
        cluster.close()
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "repeat": args.repeat}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
