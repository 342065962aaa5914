"""Differential fuzzer: random well-defined kernels (sarek.testing.gen) run on every device and compiled for
every target, each source checked by its real validator.

    python -m sarek.testing.fuzz --count N | --seconds S | --seeds A,B,.. [--seed S0] [--devices interp,opencl:0,...]
                                 [--targets cuda,hip,...] [--validate-every K] [--batch B] [--jobs J]
                                 [--out DIR] [--timeout T] [--shrink-seconds T]
    python -m sarek.testing.fuzz --replay FILE [--devices ...]     # one kernel file (a reproducer)

Each device (and the validators) runs in its own worker process (NVRTC and NVIDIA OpenCL clash in one process;
a crash or hang of one device must not take the campaign with it). A worker that dies is a *crash*, one that
does not answer within --timeout is a *hang*; both are restarted for the next kernel. The first device
(`interp` by default) is the reference: integer outputs must match it exactly, float outputs within
`TOLERANCE` (README "Fuzzing" has the table per device). The validators run after the devices: a target a
device already built with the same compiler (`SAME_TOOL`: OpenCL, GLSL) is counted, not rebuilt; CUDA, HIP and
Metal sources are collected and checked B kernels at a time in one compiler run each (sarek.testing.batch).
`--jobs J` runs J campaigns (`--job j/J`, each over every J-th seed, in `DIR/job<j>`) in parallel and merges
their summaries and failures into DIR. A failure (front-end refusal of a generated kernel, internal error,
validator failure, device error, crash, hang, disagreement) writes `OUT/failures/fz<seed>/` with the kernel
(`kernel.py`), the shrunk kernel (`kernel_min.py`) and `report.json` (for a disagreement: the pass blame,
`sarek.testing.blame`). `OUT/summary.json` and `OUT/summary.txt` hold the totals. Exit status 1 on any
failure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast


from sarek.registry import TARGET_NAMES, TARGETS
from sarek.testing.gen import CORNER_FEATURES, Program, generate
# the kernel files, their inputs and the comparison (shared with sarek.testing.blame); re-exported here
from sarek.testing.summary import format_summary, merge_summaries
from sarek.testing.runs import (DEVICE_TARGET, LOWPREC_KINDS, TOLERANCE, compare, device_kind, 
                                load_kernel, make_args, output_names, run_module_interp, run_on)
# the worker processes and the classification of errors (re-exported here)
from sarek.testing.fuzz_worker import Worker, describe, is_block_limit, is_refusal, reason, run_device, worker, worker_env

__all__ = ["DEVICE_TARGET", "LOWPREC_KINDS", "TOLERANCE", "compare", "device_kind", "load_kernel", "make_args",
           "output_names", "run_module_interp", "run_on", "Worker", "is_block_limit", "is_refusal", "run_device"]

#: open bugs owned by another subsystem that the fuzzer finds again and again: (device kind, kernel feature,
#: why). A disagreement on such a device for a kernel using the feature is counted as "known" (seeds listed in
#: the summary), not as a failure; the owner removes the entry with the fix.
#: (Empty now: lavapipe's GLSL i64 comparison, seeds 13 and 32, was fixed by the shader engineer in da0edf6.)
KNOWN_ISSUES: list[tuple[str, str, str]] = []
#: the tool each target's validator needs (`--targets auto` keeps the targets whose tool is installed)
TOOLS = {n: t.fuzz_tool for n, t in TARGETS.items()}  # a view of the descriptors' `fuzz_tool`
#: device kind -> the target whose source it builds with that target's validator tool (pocl's OpenCL compiler,
#: glslang + spirv-val): when the device ran a kernel, its validation of that target is counted, not repeated
SAME_TOOL = {"opencl": "opencl", "vulkan-glsl": "glsl"}


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
    #: (kernel, its file, its results) whose batched validation is still to come (`flush`)
    deferred: list[tuple[Program, Path, dict[str, dict[str, Any]]]] = field(default_factory=lambda: [])
    #: the targets validated when a kernel is validated at all (`targets` is [] for the kernels skipped by
    #: --validate-every); the validator process's role names them
    all_targets: list[str] = field(default_factory=lambda: [])
    #: validations counted in `validated` that a device did with the same tool (SAME_TOOL)
    by_device: dict[str, int] = field(default_factory=lambda: {})

    def worker(self, role: str) -> Worker:
        if role not in self.workers:
            self.workers[role] = Worker(role, self.timeout)
        return self.workers[role]

    def close(self) -> None:
        for w in self.workers.values():
            w.stop()

    def results(self, path: Path) -> dict[str, dict[str, Any]]:
        """Every role's answer for one kernel file: the devices concurrently, then the validators (told which
        targets a device already built with the validator's own tool: OpenCL on pocl, GLSL on vulkan-glsl)."""
        out: dict[str, dict[str, Any]] = {}
        pending: list[tuple[str, Worker]] = []
        for role in self.devices:
            w = self.worker(role)
            try:
                if w.send({"path": str(path)}):
                    pending.append((role, w))
                else:
                    out[role] = {"crash": "broken pipe"}
            except Exception as e:
                out[role] = {"error": f"worker: {describe(e)}"}
                w.stop()
        for role, w in pending:
            out[role] = w.answer()
        if self.targets:
            role = self.validator_role()
            skip = {t: d for d in self.devices if "outputs" in out.get(d, {})
                    for t in [SAME_TOOL.get(device_kind(d), "")] if t in self.targets}
            w = self.worker(role)
            try:
                req: dict[str, Any] = {"path": str(path), "skip": skip}
                if self.all_targets and set(self.targets) != set(self.all_targets):
                    req["targets"] = self.targets  # this kernel's subset (--validate-always)
                out[role] = w.answer() if w.send(req) else {"crash": "broken pipe"}
            except Exception as e:
                out[role] = {"error": f"worker: {describe(e)}"}
                w.stop()
        return out

    def validator_role(self) -> str:
        return f"validate:{','.join(self.all_targets or self.targets)}"

    def judge_validation(self, seed: int, v: dict[str, Any]) -> list[Failure]:
        fails: list[Failure] = []
        for t, st in v.items():
            if st == "ok" or st[0] == "device":
                self.validated[t] = self.validated.get(t, 0) + 1
                if st != "ok":
                    self.by_device[t] = self.by_device.get(t, 0) + 1
            elif st == "pending":
                continue
            elif st[0] == "n/a":
                key = f"{t}: {reason(st[1])}"
                self.na[key] = self.na.get(key, 0) + 1
            else:
                fails.append(Failure(seed, st[1], t, st[2]))
        return fails

    def judge(self, seed: int, case: dict[str, Any], res: dict[str, dict[str, Any]]) -> list[Failure]:
        fails: list[Failure] = []
        ref_name = self.devices[0] if self.devices else ""
        ref: dict[str, list[Any]] | None = None
        for role, r in res.items():
            if role.startswith("validate"):
                fails += self.judge_validation(seed, cast("dict[str, Any]", r.get("validate", {})))
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
        """Run one kernel; its failures so far (those of batched validators come with `flush`)."""
        kdir = self.out / "kernels"
        kdir.mkdir(parents=True, exist_ok=True)
        path = kdir / f"fz{prog.seed}.py"
        path.write_text(prog.source)
        res = self.results(path)
        self.kernels += 1
        fails = self.judge(prog.seed, prog.case, res)
        if fails:
            self.record(prog, path, fails, res)
        deferred = any(st == "pending" for r in res.values() for st in cast("dict[str, Any]", r.get("validate", {})).values())
        if deferred:
            self.deferred.append((prog, path, res))
        else:
            path.unlink(missing_ok=True)
        return fails

    def flush(self) -> list[Failure]:
        """Check the deferred sources (one compiler run per batched target); their failures."""
        if not self.deferred:
            return []
        todo, self.deferred = self.deferred, []
        role = self.validator_role()
        w = self.worker(role)
        timeout = self.timeout * 4
        r = w.answer(timeout) if w.send({"flush": True}) else {"crash": "broken pipe"}
        batch = cast("dict[str, dict[str, Any]]", r.get("batch") or {})
        fails: list[Failure] = []
        for prog, path, res in todo:
            if "batch" not in r:
                kind = "crash" if "crash" in r else "hang" if "hang" in r else "internal"
                mine = [Failure(prog.seed, kind, "validators (batched)", str(r.get(kind, r)))]
            else:
                v: dict[str, Any] = batch.get(str(path), {})
                cast("dict[str, Any]", res[role].setdefault("validate", {})).update(v)
                mine = self.judge_validation(prog.seed, v)
            if mine:
                self.record(prog, path, mine, res)
            path.unlink(missing_ok=True)
            fails += mine
        return fails

    def record(self, prog: Program, path: Path, fails: list[Failure], res: dict[str, dict[str, Any]]) -> None:
        """Write OUT/failures/fz<seed>/ (kernel, shrunk kernel, report.json; a second call for the same seed, from
        the batched validators, adds its failures to the report)."""
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
        name = "kernel_min.py" if not (fdir / "kernel_min.py").exists() else f"kernel_min_{first.where}.py"
        (fdir / name).write_text(small)
        first.shrunk = first.shrunk or str(fdir / name)
        earlier: list[Any] = []
        if (fdir / "report.json").exists():
            earlier = cast("list[Any]", json.loads((fdir / "report.json").read_text())["failures"])
        report = {"seed": prog.seed, "case": prog.case, "failures": earlier + [f.__dict__ for f in fails],
                  "results": res, "replay": f"python -m sarek.testing.fuzz --replay {fdir / name} "
                                            f"--devices {','.join(self.devices)}"}
        (fdir / "report.json").write_text(json.dumps(report, indent=1, default=str))
        self.failures.extend(fails)

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
            [f"validate:{f.where}"] if f.where in TARGET_NAMES else \
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
        if f.kind == "frontend" and "error" in r:  # the same refusal (a shrunk kernel must not fail otherwise)
            return str(r["error"]).startswith("CompileError") and reason(str(r["error"])) == reason(f.message)
        v = cast("dict[str, Any]", r.get("validate", {}))
        key = "frontend" if f.kind == "frontend" else f.where
        st: Any = v.get(key)
        if not (isinstance(st, list) and cast("list[Any]", st)[0] == "fail" and cast("list[Any]", st)[1] == f.kind):
            return False
        return f.kind != "frontend" or reason(str(cast("list[Any]", st)[2])) == reason(f.message)

    def summary(self, elapsed: float) -> dict[str, Any]:
        by: dict[str, int] = {}
        for f in self.failures:
            by[f"{f.kind} on {f.where}"] = by.get(f"{f.kind} on {f.where}", 0) + 1
        return {"kernels": self.kernels, "seconds": round(elapsed, 1), "devices": self.devices,
                "targets": self.targets, "agreements": self.agreements, "ran": self.ran,
                "validated": self.validated, "validated_by_device": self.by_device, "not_applicable": self.na, "known": self.known, "failures": by,
                "failed_seeds": sorted({f.seed for f in self.failures}),
                "failure_details": [{"seed": f.seed, "kind": f.kind, "where": f.where, "message": f.message[:500],
                                     "blame": f.blame} for f in self.failures]}


def default_devices() -> list[str]:
    """interp first (the reference), then every other device here (interp-ref, pocl, lavapipe ...)."""
    import sarek.runtime as rt

    names = [d.name for d in rt.devices()]
    return ["interp"] + [n for n in names if n != "interp"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m sarek.testing.fuzz", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, help="kernels to generate (with --seconds: whichever ends first)")
    ap.add_argument("--seconds", type=float, help="run for this long (no new kernel starts after it)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (kernels use seed, seed+1, ...)")
    ap.add_argument("--seeds", help="an explicit comma-separated seed list, or a range A:B (A to B-1)")
    ap.add_argument("--corners", default="all", help="the issue-34 corner features a kernel may draw: all, none, or a "
                                                    f"comma-separated subset of {','.join(CORNER_FEATURES)}")
    ap.add_argument("--stats", action="store_true", help="print how often each feature and corner shape appears "
                                                         "in the seeds' kernels (generated, not run)")
    ap.add_argument("--devices", help="comma-separated device names, the first is the reference "
                                      "(default: interp, then every device here)")
    ap.add_argument("--targets", default="auto", help="comma-separated targets whose source is validated ('' for "
                                                      "none; default auto: every target whose tool is installed)")
    ap.add_argument("--validate-every", type=int, default=1, help="validate the sources of every k-th kernel")
    ap.add_argument("--validate-always", default="", help="comma-separated targets validated for every kernel "
                                                          "whatever --validate-every says (CI: ptx)")
    ap.add_argument("--batch", type=int, default=32, help="kernels whose CUDA/HIP/Metal sources one compiler run "
                                                          "checks (sarek.testing.batch)")
    ap.add_argument("--jobs", type=int, default=1, help="campaigns in parallel processes over disjoint seeds "
                                                        "(job j takes every jobs-th seed), one merged report")
    ap.add_argument("--job", help=argparse.SUPPRESS)  # "j/N": this process is job j of N (set by --jobs)
    ap.add_argument("--out", default="fuzz-out", help="directory for failures and the summary")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a device may take for one kernel")
    ap.add_argument("--shrink-seconds", type=float, default=120.0, help="time budget for shrinking one failure")
    ap.add_argument("--replay", help="run one kernel file (a reproducer) instead of generating")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if not (a.worker or a.replay or a.count is not None or a.seconds is not None or a.seeds):
        ap.error("give --count, --seconds, --seeds or --replay")
    if a.jobs < 1 or a.batch < 1 or a.validate_every < 1:
        ap.error("--jobs, --batch and --validate-every must be at least 1")
    a.target_list = choose_targets(ap, a.targets)
    a.always = [t for t in a.validate_always.split(",") if t]
    for t in a.always:
        if t not in a.target_list:
            ap.error(f"--validate-always {t}: not a validated target ({', '.join(a.target_list)})")
    spec = str(a.corners)
    corners: frozenset[str] | None = None if spec == "all" else frozenset() if spec == "none" else \
        frozenset(c for c in spec.split(",") if c)
    for c in sorted(corners or ()):
        if c not in CORNER_FEATURES:
            ap.error(f"unknown corner feature {c!r} (known: {', '.join(CORNER_FEATURES)})")
    a.corner_set = corners
    if a.seeds and ":" in a.seeds:
        lo, _, hi = a.seeds.partition(":")
        a.seeds = ",".join(str(x) for x in range(int(lo), int(hi)))
    return a


def choose_targets(ap: argparse.ArgumentParser, spec: str) -> list[str]:
    if spec != "auto":
        targets = [t for t in spec.split(",") if t]
        for t in targets:
            if t not in TARGET_NAMES:
                ap.error(f"unknown target {t!r} (known: {', '.join(TARGET_NAMES)})")
        return targets
    import shutil

    targets = [t for t in TARGET_NAMES if not TOOLS[t] or shutil.which(TOOLS[t]) or
               (TOOLS[t] in ("nvcc", "ptxas") and os.path.exists(f"/usr/local/cuda/bin/{TOOLS[t]}"))]
    skipped = [t for t in TARGET_NAMES if t not in targets]
    if skipped:
        print(f"not validating {', '.join(skipped)}: {', '.join(TOOLS[t] for t in skipped)} not installed "
              "(--targets names them to make a missing tool a failure)", flush=True)
    return targets


def job_seeds(a: argparse.Namespace) -> tuple[list[int] | None, int, int, int]:
    """(explicit seeds or None, first index, step, end index or -1) of this process's share of the seeds."""
    j, n = (int(x) for x in a.job.split("/")) if a.job else (0, 1)
    seeds = [int(x) for x in a.seeds.split(",")] if a.seeds else None
    count = len(seeds) if seeds else a.count
    return seeds, j, n, -1 if count is None else count


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if a.worker:
        return worker(a.worker)
    if a.stats:
        from sarek.testing.stats import format_stats, shape_counts

        seeds, _, _, end = job_seeds(a)
        print(format_stats(shape_counts(seeds or range(a.seed, a.seed + end), a.corner_set)), end="")
        return 0
    if a.jobs > 1 and not a.replay:
        return run_jobs(a, list(sys.argv[1:] if argv is None else argv))
    devices = a.devices.split(",") if a.devices else default_devices()
    if "interp" not in devices:  # the interpreter is the reference (and pass blame runs it)
        devices = ["interp", *devices]
    targets: list[str] = a.target_list
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    camp = Campaign(devices, targets, out, a.timeout, a.shrink_seconds, all_targets=list(targets))
    tag = f"[job {a.job}] " if a.job else ""
    t0 = time.monotonic()
    try:
        if a.replay:
            path = Path(a.replay)
            res = camp.results(path)
            _, case = load_kernel(path)
            fails = camp.judge(case["seed"], case, res)
            camp.kernels = 1
            camp.deferred = []  # the batched targets, checked now:
            if targets:
                answer = camp.worker(camp.validator_role()).ask(path)
                fails += camp.judge_validation(case["seed"], cast("dict[str, Any]", answer.get("validate", {})))
            for f in fails:
                print(f"FAIL {f.kind} on {f.where}: {f.message[:2000]}")
            print("agree" if not fails else f"{len(fails)} failure(s)")
            return 1 if fails else 0
        seeds, k, step, end = job_seeds(a)

        def report(fails: list[Failure]) -> None:
            for f in fails:
                print(f"{tag}FAIL seed {f.seed}: {f.kind} on {f.where}: {f.message.splitlines()[0][:300]}"
                      + (f" [blame: {f.blame}]" if f.blame else ""), flush=True)

        while end < 0 or k < end:
            if a.seconds is not None and time.monotonic() - t0 >= a.seconds:
                break
            seed = seeds[k] if seeds else a.seed + k
            camp.targets = targets if k % a.validate_every == 0 else [t for t in targets if t in a.always]
            report(camp.run_one(generate(seed, corners=a.corner_set)))
            k += step
            if len(camp.deferred) >= a.batch:
                report(camp.flush())
            if camp.kernels % 25 == 0:
                print(f"{tag}{camp.kernels} kernels, {len(camp.failures)} failures, {time.monotonic() - t0:.0f} s",
                      flush=True)
        report(camp.flush())
    finally:
        camp.close()
    camp.targets = targets
    s = camp.summary(time.monotonic() - t0)
    (out / "summary.json").write_text(json.dumps(s, indent=1))
    text = format_summary(s)
    (out / "summary.txt").write_text(text)
    print(text, flush=True)
    return 1 if camp.failures else 0


def run_jobs(a: argparse.Namespace, argv: list[str]) -> int:
    """--jobs N: N campaigns (`--job j/N`, OUT/job<j>) in parallel processes; their summaries merged into OUT."""
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rest: list[str] = []
    skip_next = False
    for x in argv:  # this command line less --jobs / --out (each job gets its own)
        if skip_next:
            skip_next = False
        elif x in ("--jobs", "--out"):
            skip_next = True
        elif not x.startswith(("--jobs=", "--out=")):
            rest.append(x)
    t0 = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "sarek.testing.fuzz", *rest, "--job", f"{j}/{a.jobs}",
                               "--out", str(out / f"job{j}")], env=worker_env()) for j in range(a.jobs)]
    rcs = [p.wait() for p in procs]
    parts: list[dict[str, Any]] = []
    died: list[str] = []
    for j, rc in enumerate(rcs):
        f = out / f"job{j}" / "summary.json"
        if f.exists():
            parts.append(cast("dict[str, Any]", json.loads(f.read_text())))
        else:
            died.append(f"job {j} exited {rc} without a summary")
        fdir = out / f"job{j}" / "failures"
        if fdir.is_dir():
            (out / "failures").mkdir(exist_ok=True)
            for d in fdir.iterdir():
                os.replace(d, out / "failures" / d.name)
    s = merge_summaries(parts, time.monotonic() - t0)
    s["jobs"] = a.jobs
    if died:
        s["failures"]["job died"] = len(died)
        s["failure_details"] += [{"seed": -1, "kind": "crash", "where": "job", "message": m, "blame": ""}
                                 for m in died]
    (out / "summary.json").write_text(json.dumps(s, indent=1))
    text = format_summary(s)
    (out / "summary.txt").write_text(text)
    print(text, flush=True)
    return 1 if s["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
