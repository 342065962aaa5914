"""Compile-speed benchmark: `python benchmarks/bench_compile.py [--quick] [--only SUBSTR] [--targets cuda,ptx]
[--per-kernel] [--json PATH]` (prints tables; writes a file only with --json). Other modes, instead of the
corpus: `--scale 1000,5000` (straight-line kernels of that many statements per target; growth 1.00 = linear),
`--import-time` (`import sarek` in fresh processes, as a multiple of `import numpy`), `--first-launch
cuda,ptx,opencl,vulkan-glsl,cupy,triton` (a saxpy's first launch in fresh processes, cold and warm cache, as
multiples of CuPy's and Triton's in the same run; vulkan-glsl's warm row reads the SPIR-V from sarek's cache and
the pipeline from its persisted VkPipelineCache, "launch only" includes opening the Vulkan device; sarek and the
packages a launch imports are compiled to .pyc first, as an installed package is).

Every kernel of the example corpus (each `@sarek.kernel` of examples/*.py through the front end, each
examples/*.mlir file through the parser) is compiled stage by stage, in one process:

- `frontend`: Python AST -> verified sarek IR (`build_module` of a fresh Kernel; the helpers' compile caches are
  cleared first, so the helpers are lowered again every repeat). .py kernels only.
- `parse`, `verify`, `print`: the sarek IR text (custom syntax) parsed by xDSL's `Parser`, `module.verify()`,
  the module printed by xDSL's `Printer`. **The reference** is their sum, `roundtrip` = print + parse + verify:
  what xDSL itself costs to carry this IR through text once.
- per target (cuda hip opencl metal glsl wgsl ptx): `pipeline` = `sarek-pipeline{target=T}` applied to a clone
  (the clone is made outside the timer), `source` = the target's `emit` on the lowered module (prints only),
  `emit` = `sarek.targets.emit_source(module, T)` end to end (context, clone, pipeline, printing), which is
  what `Kernel.source(T)` and `sarek emit` cost after the front end.

Each time is the median of `--repeat` runs (wall clock, `time.perf_counter`, GC enabled as in real use) after
one warm-up run per stage (imports, lazy dialect loading). `ops` counts the operations of the sarek module
(without the builtin.module). Ratios are against the round trip of the same kernels measured in the same run:
"emit cuda = 9x" means compiling to CUDA costs nine IR round trips. A kernel a target refuses (e.g. f64 on
Metal) is left out of that target's sums, and its round trip too; a kernel the front end refuses is reported
and skipped. Results and method: BENCHMARKS.md, "Compile speed".
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = ("cuda", "hip", "opencl", "metal", "glsl", "wgsl", "ptx")
IR_STAGES = ("frontend", "parse", "verify", "print")
TARGET_STAGES = ("pipeline", "source", "emit")


@dataclass
class Entry:
    """One compiled unit: a front-end kernel or one .mlir file (a module with its kernels)."""

    name: str
    build: Callable[[], Any] | None  # fresh ModuleOp from the front end (None for .mlir files)
    text: str  # the sarek IR, custom syntax
    ops: int = 0
    times: dict[str, float] = field(default_factory=dict[str, float])  # stage or "target/stage" -> median s
    refused: dict[str, str] = field(default_factory=dict[str, str])  # target -> error


def _median(f: Callable[[], Any], repeat: int) -> float:
    f()  # warm-up
    ts: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def _load(path: Path) -> ModuleType:
    name = f"_sarek_bench_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _fresh_builder(kernel: Any) -> Callable[[], Any]:
    """A function building the kernel's module from its Python source again, helpers included."""
    from sarek.frontend.api import DeviceFunction, Kernel, build_module

    helpers: list[Any] = []
    seen: set[int] = set()
    todo: list[Any] = [kernel.fn]
    while todo:  # the device functions reachable through globals (how kernels name their helpers)
        fn = todo.pop()
        for v in list(getattr(fn, "__globals__", {}).values()):
            if isinstance(v, DeviceFunction) and id(v) not in seen:
                seen.add(id(v))
                helpers.append(v)
                todo.append(v.fn)

    def build() -> Any:
        for h in helpers:
            setattr(h, "_compiled", None)  # noqa: B010 - the DeviceFunction caches, cleared on purpose
            setattr(h, "_sig", None)  # noqa: B010
        return build_module(Kernel(kernel.fn))

    return build


def corpus(only: list[str]) -> list[Entry]:
    from sarek.diagnostics import SarekError
    from sarek.frontend.api import Kernel
    from sarek.tools.ir import parse_module, print_module

    out: list[Entry] = []
    for p in sorted((ROOT / "examples").glob("*.mlir")):
        out.append(Entry(p.name, None, print_module(parse_module(p.read_text(), str(p)))))
    for p in sorted((ROOT / "examples").glob("*.py")):
        if p.name.startswith("_"):
            continue
        mod = _load(p)
        for name, obj in vars(mod).items():
            if isinstance(obj, Kernel) and getattr(obj.fn, "__module__", None) == mod.__name__:
                out.append(Entry(f"{p.stem}.py:{name}", _fresh_builder(obj), ""))
    out = [e for e in out if not only or any(s in e.name for s in only)]
    kept: list[Entry] = []
    for e in out:
        if e.build is not None:
            try:
                e.text = print_module(e.build())
            except SarekError as err:  # a kernel the front end refuses today is reported, not measured
                print(f"skipped {e.name}: {str(err).splitlines()[0]}")
                continue
        kept.append(e)
    return kept


def measure(e: Entry, targets: tuple[str, ...], repeat: int) -> None:
    from xdsl.dialects.builtin import ModuleOp

    from sarek.diagnostics import SarekError
    from sarek.passes.pipeline import PipelinePass
    from sarek.targets import emit_source, get_all_targets
    from sarek.tools.ir import make_context, parse_module, print_module

    ctx = make_context()
    t = e.times
    if e.build is not None:
        t["frontend"] = _median(e.build, repeat)
    t["parse"] = _median(lambda: parse_module(e.text, e.name, ctx), repeat)
    m = parse_module(e.text, e.name, ctx)
    e.ops = sum(1 for _ in m.walk()) - 1
    t["verify"] = _median(m.verify, repeat)
    t["print"] = _median(lambda: print_module(m), repeat)
    assert print_module(m) == e.text, f"{e.name}: the IR does not round-trip"
    t["roundtrip"] = t["print"] + t["parse"] + t["verify"]
    factories = get_all_targets()
    for tg in targets:
        try:
            want = emit_source(m, tg)
        except SarekError as err:
            e.refused[tg] = str(err).splitlines()[0]
            continue
        clones: list[ModuleOp] = []

        def pipeline() -> None:
            c = clones.pop()
            PipelinePass(target=tg).apply(ctx, c)

        def fresh_clones() -> None:
            clones[:] = [m.clone() for _ in range(repeat + 1)]

        fresh_clones()
        t[f"{tg}/pipeline"] = _median(pipeline, repeat)
        lowered = m.clone()
        PipelinePass(target=tg).apply(ctx, lowered)
        target = factories[tg]()()

        def source() -> str:
            buf = StringIO()
            target.emit(ctx, lowered, buf)
            return buf.getvalue()

        t[f"{tg}/source"] = _median(source, repeat)
        assert source() == want, f"{e.name}: {tg} source differs between emit_source and pipeline + emit"
        t[f"{tg}/emit"] = _median(lambda: emit_source(m, tg), repeat)


def _ms(s: float) -> str:
    return f"{s * 1e3:.2f}" if s < 0.1 else f"{s * 1e3:.1f}" if s < 1 else f"{s * 1e3:.0f}"


def _table(rows: list[list[str]]) -> str:
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(r)) for r in rows]
    lines.insert(1, "  ".join("-" * x for x in w))
    return "\n".join(lines)


def summary(entries: list[Entry], targets: tuple[str, ...]) -> dict[str, Any]:
    """Corpus totals: per IR stage and per target stage, in seconds, with µs/op and the round-trip ratio."""
    out: dict[str, Any] = {"kernels": len(entries), "ops": sum(e.ops for e in entries)}
    rt_all = sum(e.times["roundtrip"] for e in entries)
    for st in IR_STAGES + ("roundtrip",):
        has = [e for e in entries if st in e.times]
        if not has:
            continue
        s, ops, rt = (sum(e.times[st] for e in has), sum(e.ops for e in has),
                      sum(e.times["roundtrip"] for e in has))
        out[st] = {"s": s, "us_per_op": s / ops * 1e6, "ratio": s / rt, "kernels": len(has), "ops": ops}
    for tg in targets:
        ok = [e for e in entries if tg not in e.refused]
        rt, ops = sum(e.times["roundtrip"] for e in ok), sum(e.ops for e in ok)
        d: dict[str, Any] = {"kernels": len(ok), "ops": ops, "roundtrip_s": rt}
        for st in TARGET_STAGES:
            s = sum(e.times[f"{tg}/{st}"] for e in ok)
            d[st] = {"s": s, "us_per_op": s / ops * 1e6 if ops else 0.0, "ratio": s / rt if rt else 0.0}
        out[tg] = d
    out["roundtrip_all_s"] = rt_all
    return out


def report(entries: list[Entry], targets: tuple[str, ...], per_kernel: bool) -> dict[str, Any]:
    s = summary(entries, targets)
    print(f"corpus: {s['kernels']} kernels/modules, {s['ops']} ops; medians; ratio = time / (print + parse + "
          "verify of the same IR, same run)")
    rows = [["stage", "kernels", "total ms", "us/op", "x roundtrip"]]
    for st in IR_STAGES + ("roundtrip",):
        if st in s:
            d = s[st]
            rows.append([st, str(d["kernels"]), _ms(d["s"]), f"{d['us_per_op']:.1f}", f"{d['ratio']:.2f}"])
    print(_table(rows))
    print()
    rows = [["target", "kernels", "pipeline ms", "source ms", "emit ms", "emit us/op", "pipeline x rt",
             "emit x rt"]]
    for tg in targets:
        d = s[tg]
        rows.append([tg, str(d["kernels"]), _ms(d["pipeline"]["s"]), _ms(d["source"]["s"]), _ms(d["emit"]["s"]),
                     f"{d['emit']['us_per_op']:.1f}", f"{d['pipeline']['ratio']:.2f}", f"{d['emit']['ratio']:.2f}"])
    print(_table(rows))
    if per_kernel:
        print()
        rows = [["kernel", "ops", "frontend", "roundtrip", *(f"{tg} x rt" for tg in targets)]]
        for e in entries:
            t = e.times
            rows.append([e.name, str(e.ops), _ms(t["frontend"]) if "frontend" in t else "-", _ms(t["roundtrip"]),
                         *("refused" if tg in e.refused else f"{t[f'{tg}/emit'] / t['roundtrip']:.1f}"
                           for tg in targets)])
        print("per kernel (ms; emit as a multiple of the kernel's round trip):")
        print(_table(rows))
    return s


# ------------------------------------------------------------------ scale, import time, first launch


def straight_line_kernel(n: int) -> str:
    """The Python source of a kernel of `n` statements (updates of two floats and fresh temporaries)."""
    body = []
    for k in range(n):
        body.append(("    x = x * 1.0001 + y", "    y = y - x * 0.5", f"    t{k} = x + y\n    x = t{k} * 0.25")[k % 3])
    return "\n".join(["from sarek import kernel, Vec, f32, i32", "from sarek.gpu import global_thread_id", "",
                      "@kernel", "def big(a: Vec[f32], b: Vec[f32], n: i32):", "    i = global_thread_id",
                      "    x = a[i]", "    y = b[i]", *body, "    b[i] = x + y", ""])


def scale(sizes: list[int], targets: tuple[str, ...], tmp: Path) -> dict[str, Any]:
    """Front end and emit CPU time (`time.process_time`: the machine is shared, wall clock follows its load) of
    `straight_line_kernel(n)` per size and target, one run each after a warm-up on the smallest size;
    growth = time(n) / time(first size) / (n / first size): 1.0 is linear."""
    from sarek.registry import emit_source

    res: dict[str, Any] = {}
    for warm in (True, False):
        for n in sizes[:1] if warm else sizes:
            path = tmp / f"_sarek_scale_{n}.py"
            path.write_text(straight_line_kernel(n))
            sys.modules.pop(f"_sarek_bench_{path.stem}", None)
            k = _load(path).big
            sys.modules.pop(f"_sarek_bench_{path.stem}", None)  # the sizes before are garbage, not GC work
            gc.collect()
            t = time.process_time()
            module = k.module
            row: dict[str, float] = {"frontend": time.process_time() - t}
            for tg in targets:
                gc.collect()
                t = time.process_time()
                emit_source(module, tg)
                row[tg] = time.process_time() - t
            if not warm:
                res[str(n)] = row
    first = sizes[0]
    rows = [["statements", "frontend CPU ms", *(f"{tg} CPU ms" for tg in targets)]]
    for n in sizes:
        rows.append([str(n), *(_ms(res[str(n)][c]) for c in ("frontend", *targets))])
    for n in sizes[1:]:
        rows.append([f"growth {n}/{first}", *(f"{res[str(n)][c] / res[str(first)][c] / (n / first):.2f}"
                                              for c in ("frontend", *targets))])
    print("straight-line kernels (growth: 1.00 is linear in the statement count)")
    print(_table(rows))
    return res


#: what `_fresh` measures: "wall" (perf_counter inside the process, what a user waits) or "cpu" (the process's
#: user + system time: on a shared machine the wall clock follows the other processes' load)
CLOCK = ["wall"]


def _clock() -> str:
    """The expression `_fresh`'s program reads its clock with (code may reset `_t = <it>` to time only its rest)."""
    return "time.perf_counter()" if CLOCK[0] == "wall" else "sum(os.times()[:2])"


def _fresh(code: str, env: dict[str, str] | None = None) -> float:
    """Seconds a fresh interpreter takes for `code`, from before its first import (CLOCK: wall or CPU). The code
    runs from a file, not `-c`: Triton's `@jit` reads its function's source with `inspect`."""
    import os
    import subprocess
    import tempfile

    clock = _clock()
    prog = f"import os, time\n_t = {clock}\n{code}\nprint({clock} - _t)\n"
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(prog)
    try:
        out = subprocess.run([sys.executable, f.name], capture_output=True, text=True,
                             env={**os.environ, **(env or {})}, cwd=ROOT)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        raise RuntimeError(f"a fresh process failed (exit {out.returncode}):\n{code}\n{out.stderr[-3000:]}")
    return float(out.stdout.split()[-1])


def import_time(repeat: int) -> dict[str, float]:
    """`import sarek` in fresh processes, against `import numpy` (the reference) and `import xdsl.ir`; and
    `import sarek` with a kernel declared (the saxpy of --first-launch: decorating defers the front end)."""
    codes = {"numpy": "import numpy", "xdsl.ir": "import xdsl.ir", "sarek": "import sarek",
             "sarek + @kernel saxpy": SAXPY}
    res = {what: statistics.median(_fresh(code) for _ in range(repeat)) for what, code in codes.items()}
    print(f"import in a fresh process ({CLOCK[0]} time)")
    print(_table([["import", "ms", "x numpy"], *([w, _ms(t), f"{t / res['numpy']:.2f}"] for w, t in res.items())]))
    return res


#: `{start}`: "" for the whole first launch; `_t = <clock>` for "launch only" (after the import and the device's
#: opening, its context made by `dev.stream()` as CuPy's and Triton's are by their arrays before their timer: the
#: front end, compile or cache look-ups, load, launch, sync; vulkan-glsl's `dev.stream()` opens its VkDevice: the
#: method of bench_vulkan's warm first launch)
FIRST_LAUNCH = """import numpy as np
import sarek
from _sarek_first_launch import saxpy
x = np.ones(1024, np.float32); y = np.zeros(1024, np.float32)
dev = sarek.get_device({device!r})
dev.stream()
{start}
saxpy.launch(x, y, np.float32(2.0), 1024, threads=1024, block=256, device=dev)
sarek.synchronize()
assert y[0] == 2.0"""

SAXPY = """from sarek import kernel, Vec, f32, i32
from sarek.gpu import global_thread_id

@kernel
def saxpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]
"""


#: the references of --first-launch: the same saxpy's first launch through CuPy (RawKernel) and Triton, each
#: with its own cache directory (cold: empty; warm: the one the cold run filled)
REFERENCES = {
    "cupy": """import cupy as cp
k = cp.RawKernel(r'extern "C" __global__ void saxpy(const float* x, float* y, float a, int n) {{'
                 r' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }}', "saxpy")
x = cp.ones(1024, cp.float32); y = cp.zeros(1024, cp.float32)
{start}
k((4,), (256,), (x, y, cp.float32(2.0), cp.int32(1024)))
cp.cuda.runtime.deviceSynchronize()
assert float(y[0]) == 2.0""",
    "triton": """import torch, triton, triton.language as tl
@triton.jit
def saxpy(x, y, a, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(y + i, a * tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)
x = torch.ones(1024, device="cuda"); y = torch.zeros(1024, device="cuda")
{start}
saxpy[(4,)](x, y, 2.0, 1024, BLOCK=256)
torch.cuda.synchronize()
assert float(y[0]) == 2.0""",
}


#: the packages a first launch imports besides sarek (compiled into the bytecode directory when installed)
BYTECODE_PACKAGES = ("numpy", "xdsl", "pyopencl", "pytools", "platformdirs", "siphash24", "cuda", "cupy", "wgpu",
                     "vulkan", "ml_dtypes")


def _bytecode() -> None:
    """Write sarek's and the installed packages' .pyc next to their sources (__pycache__), as a pip install leaves
    them: a checkout run with PYTHONDONTWRITEBYTECODE (or packages installed with --no-compile) would otherwise
    compile every module from source in each fresh process, timing Python's compiler rather than sarek."""
    import subprocess

    dirs = [str(ROOT / "sarek")]
    for name in BYTECODE_PACKAGES:
        spec = importlib.util.find_spec(name)
        dirs += list(spec.submodule_search_locations or ()) if spec is not None else []
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j0", *dirs], capture_output=True)


def first_launch(devices: list[str], repeat: int, tmp: Path) -> dict[str, Any]:
    """A saxpy's first launch in a fresh process (import, front end, compile, load, launch, sync): cold (an
    empty cache directory) and warm (the directory the cold run filled), and "launch only" (warm, timed from
    after the import and the device's opening: what the warm start saves shows here undiluted by the import);
    medians of `repeat` triples. `cupy` and `triton` in `devices` run the references (REFERENCES) instead."""
    import os

    (tmp / "_sarek_first_launch.py").write_text(SAXPY)
    _bytecode()
    res: dict[str, Any] = {}
    for dev in devices:
        cold: list[float] = []
        warm: list[float] = []
        only: list[float] = []
        for r in range(repeat):
            d = str(tmp / f"cache-{dev}-{r}")
            env = {"SAREK_CACHE_DIR": d, "CUPY_CACHE_DIR": d, "TRITON_CACHE_DIR": d,
                   "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT), os.environ.get("PYTHONPATH", "")])}
            code = REFERENCES.get(dev) or FIRST_LAUNCH
            cold.append(_fresh(code.format(device=dev, start=""), env))
            warm.append(_fresh(code.format(device=dev, start=""), env))
            only.append(_fresh(code.format(device=dev, start=f"_t = {_clock()}"), env))
        res[dev] = {"cold": statistics.median(cold), "warm": statistics.median(warm),
                    "launch only": statistics.median(only)}
    ref = {k: res[k] for k in REFERENCES if k in res}
    rows = [["device", "cold ms", "warm ms", "warm / cold", "launch only ms", *(f"cold / {k} cold" for k in ref),
             *(f"warm / {k} warm" for k in ref), *(f"launch only / {k}'s" for k in ref)]]
    for d, v in res.items():
        rows.append([d, _ms(v["cold"]), _ms(v["warm"]), f"{v['warm'] / v['cold']:.2f}", _ms(v["launch only"]),
                     *(f"{v['cold'] / r['cold']:.2f}" for r in ref.values()),
                     *(f"{v['warm'] / r['warm']:.2f}" for r in ref.values()),
                     *(f"{v['launch only'] / r['launch only']:.2f}" for r in ref.values())])
    print(f"first launch of a saxpy in a fresh process (import + compile + load + launch + sync; {CLOCK[0]} time)")
    print(_table(rows))
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Compile time of the example corpus per stage and target, as "
                                 "multiples of an xDSL IR round trip (print + parse + verify) of the same IR.")
    ap.add_argument("--quick", action="store_true", help="3 repeats instead of 7 (with --only: 1)")
    ap.add_argument("--repeat", type=int, default=None, help="runs per measurement (median)")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR",
                    help="kernels whose name contains SUBSTR (e.g. vector_add.mlir); repeatable")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets")
    ap.add_argument("--per-kernel", action="store_true", help="also print one row per kernel")
    ap.add_argument("--json", metavar="PATH", help="write the per-kernel times and the summary as JSON")
    ap.add_argument("--scale", metavar="N,M", help="instead of the corpus: straight-line kernels of N, M ... "
                    "statements per target (e.g. 1000,5000)")
    ap.add_argument("--import-time", action="store_true", help="instead of the corpus: `import sarek` in fresh "
                    "processes against `import numpy`")
    ap.add_argument("--first-launch", metavar="DEVICES", help="instead of the corpus: cold and warm first launch "
                    "of a saxpy in fresh processes on each device (e.g. opencl,vulkan or cuda,ptx,opencl)")
    ap.add_argument("--cpu", action="store_true", help="--import-time and --first-launch measure the processes' "
                    "CPU time instead of the wall clock (for a shared machine)")
    a = ap.parse_args(argv)
    CLOCK[0] = "cpu" if a.cpu else "wall"
    if a.scale or a.import_time or a.first_launch:
        import tempfile

        data: dict[str, Any] = {}
        with tempfile.TemporaryDirectory() as d:
            if a.scale:
                data["scale"] = scale([int(x) for x in a.scale.split(",")],
                                      tuple(x for x in a.targets.split(",") if x), Path(d))
            if a.import_time:
                data["import"] = import_time(a.repeat or 5)
            if a.first_launch:
                data["first_launch"] = first_launch(a.first_launch.split(","), a.repeat or 3, Path(d))
        if a.json:
            Path(a.json).write_text(json.dumps(data, indent=1))
        return 0
    repeat = a.repeat if a.repeat is not None else (1 if a.only else 3) if a.quick else 7
    targets = tuple(x for x in a.targets.split(",") if x)
    unknown = [x for x in targets if x not in TARGETS]
    if unknown:
        ap.error(f"unknown targets {unknown}")
    t0 = time.perf_counter()
    entries = corpus(a.only)
    if not entries:
        ap.error("no kernel matches --only")
    gc.collect()
    for e in entries:
        measure(e, targets, repeat)
    print(f"repeat: {repeat}; python {sys.version.split()[0]}; wall {time.perf_counter() - t0:.1f} s")
    s = report(entries, targets, a.per_kernel)
    if a.json:
        data = {"repeat": repeat, "summary": s,
                "kernels": [{"name": e.name, "ops": e.ops, "times": e.times, "refused": e.refused}
                            for e in entries]}
        Path(a.json).write_text(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
