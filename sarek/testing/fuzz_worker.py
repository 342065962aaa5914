"""The differential fuzzer's worker processes (sarek.testing.fuzz runs one per device, and one for the
validators): how a worker answers a kernel file (its runs or its validations, over a pipe, each answer a
`MARK` line of JSON), the parent's `Worker` handle that restarts a crashed or hung one, and how an error is
classified (a refusal, a block-size limit, a failure)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import traceback
from pathlib import Path
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from sarek.registry import TARGET_NAMES
from sarek.testing.runs import get_device, load_kernel, run_on


#: what begins a worker's answer line (the rest is JSON); other output of the tools it runs is passed over
MARK = "@@FZ "
#: a device refusing a kernel's feature (f64 on WGSL ...) with one of these words is "n/a", not a failure
#: ... and a device that refuses a kernel its target accepts says this
DEVICE_REFUSAL = "cannot run on this device"
REFUSAL_WORDS = ("not supported", "not yet supported", "unsupported", "does not support", "has no", "refuse")


def is_refusal(e: BaseException) -> bool:
    from sarek.diagnostics import SarekError
    from sarek.frontend.errors import CompileError

    if isinstance(e, SarekError) and type(e).__name__ == "DeviceError" and DEVICE_REFUSAL in str(e):
        return True  # a device's documented gap (a feature its driver lacks)
    if not isinstance(e, SarekError) or type(e).__name__ in ("InterpError", "LaunchError", "DeviceError"):
        return False
    if isinstance(e, CompileError) and "internal error" in str(e):
        return False
    return any(w in str(e) for w in REFUSAL_WORDS)


def is_block_limit(e: BaseException) -> bool:
    """A launch refused because the block is over what the device allows for this kernel (OpenCL's
    limit from ptxas's register count, CUDA's per-kernel limit, a launch out of resources): the device is
    skipped for that kernel, the reason counted (feature "bigblock")."""
    return type(e).__name__ == "LaunchError" and ("allows at most" in str(e) or "use a smaller block" in str(e))


def reason(msg: str) -> str:
    """A refusal's message without its location and source excerpt (for counting)."""
    first = msg.splitlines()[0] if msg else ""
    return first.split("error: ", 1)[-1][:120]


def describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:4000]


# -- the worker process ---------------------------------------------------------------------------------------


def validate_kernel(kernel: Any, targets: list[str], skip: dict[str, str] | None = None,
                    defer: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """Each target's source through its validator: {target: "ok" | ["n/a", why] | ["fail", kind, message] |
    ["device", name] | "pending"}. `skip`: targets whose source a device already built with the same tool (name
    of the device); `defer`: when given, the sources of batched targets (sarek.testing.batch) are appended to it
    as (target, source) and marked "pending" (checked together later, `check_deferred`)."""
    from sarek.analysis.coopmat_support import uses_warpgroup
    from sarek.diagnostics import SarekError
    from sarek.lowering.ptx import WGMMA_ARCHS
    from sarek.testing.batch import BATCHED, check_one

    out: dict[str, Any] = {}
    try:
        _ = kernel.module
    except Exception as e:
        return {"frontend": ["fail", "frontend", describe(e) + "\n" + traceback.format_exc()[-2000:]]}
    for t in targets:
        if skip and t in skip:  # the device emitted and built this target's source already
            out[t] = ["device", skip[t]]
            continue
        # warpgroup fragments (wgmma): their PTX is for sm_90a and checked for it, apart from the batch
        arch = [WGMMA_ARCHS[0]] if t == "ptx" and uses_warpgroup(kernel.module) else []
        try:
            src = kernel.source(t, **({"arch": arch[0]} if arch else {}))
        except SarekError as e:
            out[t] = ["n/a", str(e)[:300]] if is_refusal(e) else ["fail", "emit", describe(e)]
            continue
        except Exception as e:
            out[t] = ["fail", "internal", describe(e) + "\n" + traceback.format_exc()[-2000:]]
            continue
        if defer is not None and t in BATCHED and not arch:
            defer.append((t, src))
            out[t] = "pending"
        else:
            out[t] = verdict(lambda: check_one(t, src, *arch))
    return out


def verdict(check: Callable[[], str | None]) -> Any:
    """"ok" or ["fail", "validator" | "internal", message] for one validator run."""
    try:
        msg = check()
    except Exception as e:
        return ["fail", "internal", describe(e)]
    return "ok" if msg is None else ["fail", "validator", msg[:6000]]


def check_deferred(pending: list[tuple[str, str, str]]) -> dict[str, dict[str, Any]]:
    """Verdicts for deferred (path, target, source) triples, one batched run per target: {path: {target: v}}."""
    from sarek.testing.batch import check_many

    out: dict[str, dict[str, Any]] = {}
    for t in dict.fromkeys(t for _, t, _ in pending):
        items = [(p, src) for p, tt, src in pending if tt == t]
        try:
            got: list[Any] = ["ok" if m is None else ["fail", "validator", m[:6000]]
                              for m in check_many(t, [src for _, src in items])]
        except Exception as e:
            got = [["fail", "internal", describe(e)]] * len(items)
        for (p, _), v in zip(items, got):
            out.setdefault(p, {})[t] = v
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
        targets = role.partition(":")[2].split(",") if ":" in role else list(TARGET_NAMES)
    else:
        dev = get_device(role)
    lanes = warp_lanes(dev) if dev is not None else 0
    pending: list[tuple[str, str, str]] = []  # the validator's deferred (path, target, source)
    print(MARK + json.dumps({"ready": role}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("flush"):
            print(MARK + json.dumps({"batch": check_deferred(pending)}), flush=True)
            pending = []
            continue
        path = Path(req["path"])
        res: dict[str, Any] = {"path": str(path)}
        try:
            kernel, case = load_kernel(path)
            if dev is None:
                defer: list[tuple[str, str]] | None = None if req.get("now") else []
                res["validate"] = validate_kernel(kernel, req.get("targets", targets), req.get("skip"), defer)
                pending += [(str(path), t, src) for t, src in defer or []]
            else:
                res.update(run_device(dev, role, kernel, case, lanes))
        except Exception as e:
            res["error"] = "loading the kernel: " + describe(e)
        print(MARK + json.dumps(res), flush=True)
    return 0


def run_device(dev: Any, role: str, kernel: Any, case: dict[str, Any], lanes: int) -> dict[str, Any]:
    """One kernel on one device: {"outputs": ...}, {"na": why} (a documented gap, a warp too narrow, a block
    over the device's limit: skipped for this kernel, the reason counted) or {"error": ...}."""
    limit = dev.limits.max_threads_per_block
    if "warp" in case.get("features", ()) and lanes < 4:
        return {"na": f"warp size {lanes} on {role}: the kernel's shuffles assume groups of 4 lanes"}
    if case["block"] > limit:
        return {"na": f"block of {case['block']} threads over {role}'s limit of {limit} (max_threads_per_block)"}
    try:
        return {"outputs": run_on(kernel, case, dev)}
    except Exception as e:
        if is_block_limit(e):  # a stable first line (counted), the message after it
            return {"na": f"block of {case['block']} threads over this kernel's limit on {role}\n{e}"[:400]}
        if is_refusal(e):
            return {"na": str(e)[:300]}
        return {"error": describe(e) + "\n" + traceback.format_exc()[-2000:]}


def worker_env() -> dict[str, str]:
    """The environment of a child process: this checkout's sarek first on PYTHONPATH."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else root
    return env


class Worker:
    """A worker subprocess for one role, with per-request timeouts; restarted after a crash or hang."""

    def __init__(self, role: str, timeout: float):
        self.role, self.timeout = role, timeout
        self.proc: subprocess.Popen[str] | None = None
        self.buf = ""

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "sarek.testing.fuzz", "--worker", self.role],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=worker_env(), bufsize=1)
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

    def send(self, req: dict[str, Any]) -> bool:
        """Write one request (starting the process if needed); False when the process is gone."""
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return False
        return True

    def answer(self, timeout: float | None = None) -> dict[str, Any]:
        """The answer to the last request: {"hang": s} after `timeout`, {"crash": rc} when the process died."""
        res = self._read(self.timeout if timeout is None else timeout)
        if res is None:
            self.stop()
            return {"hang": self.timeout if timeout is None else timeout}
        if "crash" in res:
            self.stop()
        return res

    def ask(self, path: Path) -> dict[str, Any]:
        """One kernel, answered now (a validator checks every target at once, nothing deferred)."""
        if not self.send({"path": str(path), "now": True}):
            return {"crash": "broken pipe"}
        return self.answer()
