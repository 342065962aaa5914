"""Differential fuzzer: random well-defined kernels (sarek.testing.gen) run on every device and compiled for
every target, each source checked by its real validator.

    python -m sarek.testing.fuzz --count N | --seconds S [--seed S0] [--devices interp,opencl:0,...]
                                 [--targets cuda,hip,...] [--out DIR] [--jobs J] [--timeout T]
    python -m sarek.testing.fuzz --replay FILE [--devices ...]     # one kernel file (a reproducer)

Each device (and the validators) runs in its own worker process (NVRTC and NVIDIA OpenCL clash in one process;
a crash or hang of one device must not take the campaign with it). A worker that dies is a *crash*, one that
does not answer within --timeout is a *hang*; both are restarted for the next kernel. The first device
(`interp` by default) is the reference: integer outputs must match it exactly, float outputs within
`TOLERANCE` (see docs). A failure (front-end refusal of a generated kernel, internal error, validator
failure, device error, crash, hang, disagreement) writes `OUT/failures/fz<seed>/` with the kernel
(`kernel.py`), the shrunk kernel (`kernel_min.py`) and `report.json` (for a disagreement: the pass blame,
`sarek.testing.blame`). `OUT/summary.json` and `OUT/summary.txt` hold the totals. Exit status 1 on any
failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import select
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from sarek.testing.gen import Program, generate

TARGETS = ("cuda", "hip", "opencl", "metal", "glsl", "wgsl", "ptx")
#: device kind -> the target whose pipeline it runs (for pass blame)
DEVICE_TARGET = {"opencl": "opencl", "cuda": "cuda", "ptx": "ptx", "vulkan": "wgsl", "vulkan-glsl": "glsl"}
#: float tolerance per device kind: |x - ref| <= atol + rtol * |ref| (values are clamped to +-1000).
#: f32 on any device: 1e-3 + 1e-4 relative; Vulkan (lavapipe, and Vulkan's precision rules) computes asin, acos,
#: atan, atan2, sinh to about 4e-4 relative, so kernels using them get 2e-3 relative there.
TOLERANCE: dict[str, dict[str, tuple[float, float]]] = {
    "default": {"f32": (1e-3, 1e-4), "f64": (1e-9, 1e-9)},
    "lowprec": {"f32": (2e-3, 2e-3), "f64": (1e-9, 1e-9)},
}
LOWPREC_KINDS = ("vulkan", "vulkan-glsl")
MARK = "@@FZ "
#: open bugs owned by another subsystem that the fuzzer finds again and again: (device kind, kernel feature,
#: why). A disagreement on such a device for a kernel using the feature is counted as "known" (seeds listed in
#: the summary), not as a failure; the owner removes the entry with the fix.
#: (Empty now: lavapipe's GLSL i64 comparison, seeds 13 and 32, was fixed by the shader engineer in da0edf6.)
KNOWN_ISSUES: list[tuple[str, str, str]] = []
#: the tool each target's validator needs (`--targets auto` keeps the targets whose tool is installed)
TOOLS = {"cuda": "nvcc", "hip": "hipcc", "opencl": "", "metal": "clang++", "glsl": "glslangValidator", "wgsl": "",
         "ptx": "ptxas"}
#: a device refusing a kernel's feature (f64 on WGSL ...) with one of these words is "n/a", not a failure
REFUSAL_WORDS = ("not supported", "not yet supported", "unsupported", "does not support", "has no", "refuse")


def device_kind(name: str) -> str:
    return name.split(":")[0]


# -- kernels and inputs ---------------------------------------------------------------------------------------


def load_kernel(path: Path) -> tuple[Any, dict[str, Any]]:
    """Import a generated kernel file; returns (the Kernel, its CASE)."""
    spec = importlib.util.spec_from_file_location(f"sarek_fuzz_{path.stem}_{abs(hash(str(path)))}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    case = cast("dict[str, Any]", mod.CASE)
    return getattr(mod, f"fz{case['seed']}"), case


def make_args(kernel: Any, case: dict[str, Any]) -> list[Any]:
    """Deterministic inputs for a kernel's parameters (by name), zeroed outputs."""
    rng = np.random.default_rng(case["seed"])
    n = case["n"]
    outs = case["outputs"]
    made: dict[str, Any] = {
        "ai": np.asarray(rng.integers(-100, 101, n), np.int32),
        "af": np.asarray(rng.integers(-32, 33, n) / 4.0, np.float32),
        "al": np.asarray(rng.integers(-5 * 10**9, 5 * 10**9 + 1, n), np.int64),
        "ad": np.asarray(rng.integers(-32, 33, n) / 4.0, np.float64),
        "acc": np.zeros(8, np.int32), "n": n,
    }
    for vec, dt in (("oi", np.int32), ("ol", np.int64), ("of", np.float32), ("od", np.float64)):
        if vec in outs:
            made[vec] = np.zeros(n * outs[vec], dt)
    import inspect

    names = list(inspect.signature(kernel.fn).parameters)
    return [made[p] for p in names]


def output_names(kernel: Any) -> list[str]:
    import inspect

    return [p for p in inspect.signature(kernel.fn).parameters if p in ("oi", "ol", "of", "od", "acc")]


def run_on(kernel: Any, case: dict[str, Any], device: Any) -> dict[str, list[Any]]:
    """Launch on one device (a name or a Device); the outputs by parameter name."""
    args = make_args(kernel, case)
    import inspect

    names = list(inspect.signature(kernel.fn).parameters)
    dev = device
    if isinstance(device, str):
        import sarek.runtime as rt

        dev = rt.get_device(device)
    dev.launch(kernel.module, kernel.name, args, case["grid"], case["block"])
    return {p: cast("list[Any]", a.tolist()) for p, a in zip(names, args) if p in output_names(kernel)}


def run_module_interp(module: Any, name: str, kernel: Any, case: dict[str, Any]) -> dict[str, list[Any]]:
    """Run `module` (any sarek-dialect IR) on the interpreter with the kernel's inputs."""
    from sarek.interp import run

    args = make_args(kernel, case)
    import inspect

    names = list(inspect.signature(kernel.fn).parameters)
    run(module, name, args, case["grid"], case["block"])
    return {p: cast("list[Any]", a.tolist()) for p, a in zip(names, args) if p in output_names(kernel)}


def is_refusal(e: BaseException) -> bool:
    from sarek.diagnostics import SarekError
    from sarek.frontend.errors import CompileError

    if not isinstance(e, SarekError) or type(e).__name__ in ("InterpError", "LaunchError", "DeviceError"):
        return False
    if isinstance(e, CompileError) and "internal error" in str(e):
        return False
    return any(w in str(e) for w in REFUSAL_WORDS)


def reason(msg: str) -> str:
    """A refusal's message without its location and source excerpt (for counting)."""
    first = msg.splitlines()[0] if msg else ""
    return first.split("error: ", 1)[-1][:120]


def describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:4000]


# -- the worker process ---------------------------------------------------------------------------------------


def _validators() -> dict[str, Any]:
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    return {"cuda": cuda.check, "hip": hip.check, "opencl": opencl.check, "metal": metal.check,
            "glsl": glsl.check, "wgsl": wgsl.check, "ptx": ptx.check}


def validate_kernel(kernel: Any, targets: list[str]) -> dict[str, Any]:
    """Each target's source through its validator: {target: "ok" | ["n/a", why] | ["fail", kind, message]}."""
    from sarek.diagnostics import SarekError
    from sarek.validate import ValidationError

    checks = _validators()
    out: dict[str, Any] = {}
    try:
        _ = kernel.module
    except Exception as e:
        return {"frontend": ["fail", "frontend", describe(e) + "\n" + traceback.format_exc()[-2000:]]}
    for t in targets:
        try:
            src = kernel.source(t)
        except SarekError as e:
            out[t] = ["n/a", str(e)[:300]] if is_refusal(e) else ["fail", "emit", describe(e)]
            continue
        except Exception as e:
            out[t] = ["fail", "internal", describe(e) + "\n" + traceback.format_exc()[-2000:]]
            continue
        try:
            checks[t](src)
            out[t] = "ok"
        except ValidationError as e:
            out[t] = ["fail", "validator", str(e)[:6000]]
        except Exception as e:
            out[t] = ["fail", "internal", describe(e)]
    return out


_PROBE = """from sarek import Vec, i32, kernel
from sarek.gpu import warp_size


@kernel
def fz0(o: Vec[i32]):
    o[0] = warp_size


CASE = {"seed": 0}
"""


def warp_lanes(dev: Any) -> int:
    """The device's warp (sub-group) size, measured by a probe kernel (pocl without sub-groups has 1)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fz_warp_probe.py"
        path.write_text(_PROBE)
        k, _ = load_kernel(path)
        _ = k.module  # read the source while the file exists
    o = np.zeros(1, np.int32)
    try:
        dev.launch(k.module, k.name, [o], 1, 32)
    except Exception:
        return 0
    return int(o[0])


def worker(role: str) -> int:
    """Serve requests on stdin ({"path": FILE}) for one role ("validate:T,T" or a device name)."""
    import warnings

    warnings.simplefilter("ignore")
    dev: Any = None
    targets: list[str] = []
    if role.startswith("validate"):
        targets = role.partition(":")[2].split(",") if ":" in role else list(TARGETS)
    else:
        import sarek.runtime as rt

        dev = rt.get_device(role)
    lanes = warp_lanes(dev) if dev is not None else 0
    print(MARK + json.dumps({"ready": role}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        path = Path(req["path"])
        res: dict[str, Any] = {"path": str(path)}
        try:
            kernel, case = load_kernel(path)
            if dev is None:
                res["validate"] = validate_kernel(kernel, targets)
            elif "warp" in case.get("features", ()) and lanes < 4:
                res["na"] = f"warp size {lanes} on {role}: the kernel's shuffles assume groups of 4 lanes"
            else:
                try:
                    res["outputs"] = run_on(kernel, case, dev)
                except Exception as e:
                    if is_refusal(e):
                        res["na"] = str(e)[:300]
                    else:
                        res["error"] = describe(e) + "\n" + traceback.format_exc()[-2000:]
        except Exception as e:
            res["error"] = "loading the kernel: " + describe(e)
        print(MARK + json.dumps(res), flush=True)
    return 0


class Worker:
    """A worker subprocess for one role, with per-request timeouts; restarted after a crash or hang."""

    def __init__(self, role: str, timeout: float):
        self.role, self.timeout = role, timeout
        self.proc: subprocess.Popen[str] | None = None
        self.buf = ""

    def start(self) -> None:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "") if env.get("PYTHONPATH") else root
        self.proc = subprocess.Popen([sys.executable, "-m", "sarek.testing.fuzz", "--worker", self.role],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, bufsize=1)
        self.buf = ""
        first = self._read(120.0)
        if first is None or "ready" not in first:
            self.stop()
            raise RuntimeError(f"fuzz worker for {self.role} did not start: {first}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _read(self, timeout: float) -> dict[str, Any] | None:
        """The next result line, None on timeout; {"crash": rc} when the process died."""
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            while "\n" in self.buf:
                line, self.buf = self.buf.split("\n", 1)
                if line.startswith(MARK):
                    return cast("dict[str, Any]", json.loads(line[len(MARK):]))
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                return None
            chunk = os.read(fd, 1 << 16).decode(errors="replace")
            if not chunk:
                rc = self.proc.wait()
                return {"crash": rc}
            self.buf += chunk

    def ask(self, path: Path) -> dict[str, Any]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"path": str(path)}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return {"crash": "broken pipe"}
        res = self._read(self.timeout)
        if res is None:
            self.stop()
            return {"hang": self.timeout}
        if "crash" in res:
            self.stop()
        return res


# -- comparison -----------------------------------------------------------------------------------------------


def compare(ref: dict[str, list[Any]], got: dict[str, list[Any]], case: dict[str, Any], dev: str) -> str | None:
    """None when `got` agrees with `ref`; else the first difference, described."""
    tol = TOLERANCE["lowprec" if case.get("lowprec") and device_kind(dev) in LOWPREC_KINDS else "default"]
    for name, r in ref.items():
        g = got.get(name)
        if g is None:
            return f"{name}: missing"
        ra, ga = np.asarray(r), np.asarray(g)
        if ra.shape != ga.shape:
            return f"{name}: shape {ga.shape} != {ra.shape}"
        if name in ("of", "od"):
            atol, rtol = tol["f32" if name == "of" else "f64"]
            bad = ~np.isclose(ga, ra, rtol=rtol, atol=atol, equal_nan=True)
        else:
            bad = ga != ra
        if bad.any():
            k = int(np.argmax(bad))
            return f"{name}[{k}] = {ga[k]!r}, reference {ra[k]!r} ({int(bad.sum())} of {bad.size} differ)"
    return None


# -- the campaign ---------------------------------------------------------------------------------------------


@dataclass
class Failure:
    seed: int
    kind: str  # frontend, internal, emit, validator, error, crash, hang, mismatch
    where: str  # a device or a target
    message: str
    blame: str = ""
    shrunk: str = ""


@dataclass
class Campaign:
    devices: list[str]
    targets: list[str]
    out: Path
    timeout: float = 120.0
    shrink_seconds: float = 120.0
    kernels: int = 0
    failures: list[Failure] = field(default_factory=lambda: [])
    na: dict[str, int] = field(default_factory=lambda: {})
    agreements: int = 0
    ran: dict[str, int] = field(default_factory=lambda: {})
    validated: dict[str, int] = field(default_factory=lambda: {})
    workers: dict[str, Worker] = field(default_factory=lambda: {})
    candidates: int = 0
    known: dict[str, list[int]] = field(default_factory=lambda: {})

    def roles(self) -> list[str]:
        return list(self.devices) + ([f"validate:{','.join(self.targets)}"] if self.targets else [])

    def worker(self, role: str) -> Worker:
        if role not in self.workers:
            self.workers[role] = Worker(role, self.timeout)
        return self.workers[role]

    def close(self) -> None:
        for w in self.workers.values():
            w.stop()

    def results(self, path: Path) -> dict[str, dict[str, Any]]:
        """Every role's answer for one kernel file (the roles run concurrently)."""
        out: dict[str, dict[str, Any]] = {}
        pending: list[tuple[str, Worker]] = []
        for role in self.roles():
            w = self.worker(role)
            try:
                if w.proc is None:
                    w.start()
                assert w.proc is not None and w.proc.stdin is not None
                w.proc.stdin.write(json.dumps({"path": str(path)}) + "\n")
                w.proc.stdin.flush()
                pending.append((role, w))
            except Exception as e:
                out[role] = {"error": f"worker: {describe(e)}"}
                w.stop()
        for role, w in pending:
            res = w._read(self.timeout)  # pyright: ignore[reportPrivateUsage]
            if res is None:
                w.stop()
                res = {"hang": self.timeout}
            elif "crash" in res:
                w.stop()
            out[role] = res
        return out

    def judge(self, seed: int, case: dict[str, Any], res: dict[str, dict[str, Any]]) -> list[Failure]:
        fails: list[Failure] = []
        ref_name = self.devices[0] if self.devices else ""
        ref: dict[str, list[Any]] | None = None
        for role, r in res.items():
            if role.startswith("validate"):
                v = cast("dict[str, Any]", r.get("validate", {}))
                for t, st in v.items():
                    if st == "ok":
                        self.validated[t] = self.validated.get(t, 0) + 1
                    elif st[0] == "n/a":
                        key = f"{t}: {reason(st[1])}"
                        self.na[key] = self.na.get(key, 0) + 1
                    else:
                        fails.append(Failure(seed, st[1], t, st[2]))
                for k in ("error", "crash", "hang"):
                    if k in r:
                        fails.append(Failure(seed, k if k != "error" else "internal", "validators", str(r[k])))
                continue
            if "outputs" in r:
                self.ran[role] = self.ran.get(role, 0) + 1
                if role == ref_name:
                    ref = r["outputs"]
            elif "na" in r:
                key = f"{role}: {reason(str(r['na']))}"
                self.na[key] = self.na.get(key, 0) + 1
            else:
                kind = "crash" if "crash" in r else "hang" if "hang" in r else "error"
                msg = str(r.get(kind, r))
                if msg.startswith("CompileError") and "internal error" not in msg:
                    kind = "frontend"  # reported once, by the validators (or here when none run)
                    if any(f.kind == "frontend" for f in fails) or any(
                            "frontend" in cast("dict[str, Any]", x.get("validate", {})) for x in res.values()):
                        continue
                fails.append(Failure(seed, kind, role, msg))
        if ref is not None:
            agree = True
            for role, r in res.items():
                if role == ref_name or "outputs" not in r:
                    continue
                d = compare(ref, r["outputs"], case, role)
                if d is not None:
                    agree = False
                    fails.append(Failure(seed, "mismatch", role, d))
            if agree and sum("outputs" in r for r in res.values()) >= 2:
                self.agreements += 1
        kept: list[Failure] = []
        for f in fails:
            why = next((w for kind, feat, w in KNOWN_ISSUES if f.kind == "mismatch" and device_kind(f.where) == kind
                        and feat in case.get("features", ())), None)
            if why is None:
                kept.append(f)
            else:
                self.known.setdefault(why, []).append(seed)
        return kept

    def run_one(self, prog: Program) -> list[Failure]:
        kdir = self.out / "kernels"
        kdir.mkdir(parents=True, exist_ok=True)
        path = kdir / f"fz{prog.seed}.py"
        path.write_text(prog.source)
        res = self.results(path)
        self.kernels += 1
        fails = self.judge(prog.seed, prog.case, res)
        if fails:
            self.record(prog, path, fails, res)
        else:
            path.unlink()
        return fails

    def record(self, prog: Program, path: Path, fails: list[Failure], res: dict[str, dict[str, Any]]) -> None:
        from sarek.testing.shrink import shrink

        fdir = self.out / "failures" / f"fz{prog.seed}"
        fdir.mkdir(parents=True, exist_ok=True)
        (fdir / "kernel.py").write_text(prog.source)
        for f in fails:
            if f.kind == "mismatch":
                from sarek.testing.blame import blame

                f.blame = blame(fdir / "kernel.py", f.where, self.devices[0])
        first = fails[0]
        try:
            small = shrink(prog.source, lambda src: self.same_failure(src, first), self.shrink_seconds)
        except Exception as e:  # shrinking is best effort; the full kernel is kept
            small = prog.source
            first.shrunk = f"shrinking failed: {describe(e)}"
        (fdir / "kernel_min.py").write_text(small)
        first.shrunk = first.shrunk or str(fdir / "kernel_min.py")
        report = {"seed": prog.seed, "case": prog.case, "failures": [f.__dict__ for f in fails],
                  "results": res, "replay": f"python -m sarek.testing.fuzz --replay {fdir / 'kernel_min.py'} "
                                            f"--devices {','.join(self.devices)}"}
        (fdir / "report.json").write_text(json.dumps(report, indent=1, default=str))
        self.failures.extend(fails)
        path.unlink(missing_ok=True)

    def same_failure(self, src: str, f: Failure) -> bool:
        """Does `src` (a shrinking candidate) fail the same way at the same place?"""
        tmp = self.out / "shrink"
        tmp.mkdir(parents=True, exist_ok=True)
        self.candidates += 1  # a fresh file each time: the front end reads sources through linecache
        path = tmp / f"fz{f.seed}_{self.candidates}.py"
        path.write_text(src)
        # the front end must accept the candidate (a shrunk kernel that no longer compiles is not the bug)
        if f.kind != "frontend":
            try:
                kernel, _ = load_kernel(path)
                _ = kernel.module
            except Exception:
                return False
        roles = [self.devices[0], f.where] if f.kind == "mismatch" else \
            [f"validate:{f.where}"] if f.where in TARGETS else \
            [f"validate:{','.join(self.targets)}"] if f.where == "frontend" or f.where == "validators" else [f.where]
        case = {}
        try:
            _, case = load_kernel(path)
        except Exception:
            return False
        res: dict[str, dict[str, Any]] = {}
        for role in roles:
            res[role] = self.worker(role).ask(path)
        if f.kind == "mismatch":
            a, b = res[roles[0]], res[roles[1]]
            return "outputs" in a and "outputs" in b and compare(a["outputs"], b["outputs"], case, f.where) is not None
        r = res[roles[0]]
        if f.kind in ("crash", "hang"):
            return f.kind in r
        if f.kind == "error":
            return "error" in r
        if f.kind == "frontend" and "error" in r:
            return str(r["error"]).startswith("CompileError")
        v = cast("dict[str, Any]", r.get("validate", {}))
        key = "frontend" if f.kind == "frontend" else f.where
        st: Any = v.get(key)
        return isinstance(st, list) and cast("list[Any]", st)[0] == "fail" and cast("list[Any]", st)[1] == f.kind

    def summary(self, elapsed: float) -> dict[str, Any]:
        by: dict[str, int] = {}
        for f in self.failures:
            by[f"{f.kind} on {f.where}"] = by.get(f"{f.kind} on {f.where}", 0) + 1
        return {"kernels": self.kernels, "seconds": round(elapsed, 1), "devices": self.devices,
                "targets": self.targets, "agreements": self.agreements, "ran": self.ran,
                "validated": self.validated, "not_applicable": self.na, "known": self.known, "failures": by,
                "failed_seeds": sorted({f.seed for f in self.failures}),
                "failure_details": [{"seed": f.seed, "kind": f.kind, "where": f.where, "message": f.message[:500],
                                     "blame": f.blame} for f in self.failures]}


def default_devices() -> list[str]:
    """interp first (the reference), then every other device here (interp-ref, pocl, lavapipe ...)."""
    import sarek.runtime as rt

    names = [d.name for d in rt.devices()]
    return ["interp"] + [n for n in names if n != "interp"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sarek.testing.fuzz", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, help="kernels to generate")
    ap.add_argument("--seconds", type=float, help="run for this long")
    ap.add_argument("--seed", type=int, default=0, help="first seed (kernels use seed, seed+1, ...)")
    ap.add_argument("--seeds", help="an explicit comma-separated seed list")
    ap.add_argument("--devices", help="comma-separated device names, the first is the reference "
                                      "(default: interp, then every device here)")
    ap.add_argument("--targets", default="auto", help="comma-separated targets whose source is validated ('' for "
                                                      "none; default auto: every target whose tool is installed)")
    ap.add_argument("--validate-every", type=int, default=1, help="validate the sources of every k-th kernel")
    ap.add_argument("--out", default="fuzz-out", help="directory for failures and the summary")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a device may take for one kernel")
    ap.add_argument("--shrink-seconds", type=float, default=120.0, help="time budget for shrinking one failure")
    ap.add_argument("--replay", help="run one kernel file (a reproducer) instead of generating")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        return worker(a.worker)
    devices = a.devices.split(",") if a.devices else default_devices()
    if "interp" not in devices:  # the interpreter is the reference (and pass blame runs it)
        devices = ["interp", *devices]
    if a.targets == "auto":
        import shutil

        targets = [t for t in TARGETS if not TOOLS[t] or shutil.which(TOOLS[t]) or
                   (TOOLS[t] in ("nvcc", "ptxas") and os.path.exists(f"/usr/local/cuda/bin/{TOOLS[t]}"))]
        skipped = [t for t in TARGETS if t not in targets]
        if skipped:
            print(f"not validating {', '.join(skipped)}: {', '.join(TOOLS[t] for t in skipped)} not installed "
                  "(--targets names them to make a missing tool a failure)", flush=True)
    else:
        targets = [t for t in a.targets.split(",") if t]
    for t in targets:
        if t not in TARGETS:
            ap.error(f"unknown target {t!r} (known: {', '.join(TARGETS)})")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    camp = Campaign(devices, targets, out, a.timeout, a.shrink_seconds)
    t0 = time.monotonic()
    try:
        if a.replay:
            path = Path(a.replay)
            res = camp.results(path)
            _, case = load_kernel(path)
            fails = camp.judge(case["seed"], case, res)
            camp.kernels = 1
            for f in fails:
                print(f"FAIL {f.kind} on {f.where}: {f.message[:2000]}")
            print("agree" if not fails else f"{len(fails)} failure(s)")
            return 1 if fails else 0
        seeds = [int(s) for s in a.seeds.split(",")] if a.seeds else None
        count = len(seeds) if seeds else a.count
        if count is None and a.seconds is None:
            ap.error("give --count, --seconds, --seeds or --replay")
        k = 0
        while True:
            if count is not None and k >= count:
                break
            if a.seconds is not None and time.monotonic() - t0 >= a.seconds:
                break
            seed = seeds[k] if seeds else a.seed + k
            camp.targets = targets if k % max(a.validate_every, 1) == 0 else []
            fails = camp.run_one(generate(seed))
            for f in fails:
                print(f"FAIL seed {seed}: {f.kind} on {f.where}: {f.message.splitlines()[0][:300]}"
                      + (f" [blame: {f.blame}]" if f.blame else ""), flush=True)
            k += 1
            if k % 25 == 0:
                print(f"{k} kernels, {len(camp.failures)} failures, {time.monotonic() - t0:.0f} s", flush=True)
    finally:
        camp.close()
    camp.targets = targets
    s = camp.summary(time.monotonic() - t0)
    (out / "summary.json").write_text(json.dumps(s, indent=1))
    text = format_summary(s)
    (out / "summary.txt").write_text(text)
    print(text)
    return 1 if camp.failures else 0


def format_summary(s: dict[str, Any]) -> str:
    lines = [f"sarek fuzz: {s['kernels']} kernels in {s['seconds']} s on {', '.join(s['devices'])}; "
             f"targets validated: {', '.join(s['targets']) or 'none'}",
             f"  all devices agreed on {s['agreements']} kernels; runs per device: {s['ran']}",
             f"  sources validated per target: {s['validated']}"]
    if s["not_applicable"]:
        lines.append("  refused (n/a): " + "; ".join(f"{k} x{v}" for k, v in sorted(s["not_applicable"].items())))
    for why, seeds in s.get("known", {}).items():
        lines.append(f"  known, not counted: {why}: seeds {seeds}")
    if s["failures"]:
        lines.append(f"  FAILURES: {s['failures']} (seeds {s['failed_seeds']})")
    else:
        lines.append("  no failures")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
