"""`sarek demo`: compile the examples for every target, then run a vector add, a reduction and a record
kernel on the default device (`$SAREK_DEVICE`, else the interpreter) and check them against numpy.

Generated sources go to `$SAREK_DEMO_DIR`, else `<sarek cache dir>/demo/`; the path is printed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from sarek.diagnostics import SarekError
from sarek.registry import TARGETS

EXT = {n: t.ext for n, t in TARGETS.items()}  # a view of the descriptors' `ext`


def _kernels() -> list[tuple[str, Any, str]]:
    """(example file, module, kernel name) for every example kernel, IR and Python."""
    from sarek.runtime.conformance import EXAMPLES, _load_example  # pyright: ignore[reportPrivateUsage]
    from sarek.runtime.core import kernel_names
    from sarek.registry import parse_module

    out: list[tuple[str, Any, str]] = []
    for p in sorted(EXAMPLES.glob("*.mlir")):
        m = parse_module(p.read_text(), str(p))
        out += [(p.name, m, k) for k in kernel_names(m)]
    for p in sorted(EXAMPLES.glob("*.py")):
        if p.name.startswith("_"):
            continue
        try:
            mod = _load_example(p)
        except Exception as e:
            print(f"  {p.name}: cannot load ({type(e).__name__}: {e})")
            continue
        for v in vars(mod).values():
            if type(v).__name__ == "Kernel" and hasattr(v, "module"):
                try:
                    out.append((p.name, v.module, v.name))
                except Exception as e:
                    print(f"  {p.name}: {getattr(v, 'name', '?')} does not compile: {e}")
    return out


def compile_all(out_dir: Path) -> tuple[int, int]:
    from sarek.registry import TARGETS, emit_source

    ok = refused = 0
    seen: set[int] = set()
    for fname, module, kname in _kernels():
        if id(module) in seen:  # one module may hold several kernels: compile it once
            continue
        seen.add(id(module))
        stem = fname.replace(".", "_")  # vector_add.py and vector_add.mlir apart
        label = f"{fname}:{kname}"
        row: list[str] = []
        for target in TARGETS:
            try:
                text = emit_source(module, target)
            except SarekError as e:  # a capability the target lacks; anything else is a bug and propagates
                refused += 1
                where = f"{e.location}: " if getattr(e, "location", None) else ""
                row.append(f"{target}: refused at {where}{e.message.splitlines()[0]}")
                continue
            ok += 1
            d = out_dir / stem
            d.mkdir(parents=True, exist_ok=True)
            (d / f"{kname}.{EXT.get(target, target)}").write_text(text)
            row.append(target)
        good = [r for r in row if "refused" not in r]
        bad = [r for r in row if "refused" in r]
        reasons = {r.split(": ", 1)[1] for r in bad}
        if bad and not good and len(reasons) == 1:
            print(f"  {label:36s} every target {reasons.pop()}")
            continue
        print(f"  {label:36s} " + ", ".join(good))
        for r in bad:
            print(f"  {'':36s} {r}")
    return ok, refused


def main(argv: list[str] | None = None) -> int:
    import sarek.runtime as rt
    from sarek.runtime import cache
    from sarek.runtime.conformance import _mlir_cases, run_case  # pyright: ignore[reportPrivateUsage]

    import warnings

    del argv
    warnings.filterwarnings("ignore", message=".*falls back to the reference executor.*")
    out_dir = Path(os.environ.get("SAREK_DEMO_DIR") or cache.cache_dir() / "demo")
    print("sarek demo")
    print(f"devices: {', '.join(rt.device_names())}")
    dev = rt.default_device()
    print(f"default device: {dev.name} ({dev.description})")
    print(f"\n1. compiling the examples for every target -> {out_dir}")
    ok, refused = compile_all(out_dir)
    print(f"   {ok} sources written, {refused} refused by a target (see the reasons above)")

    print(f"\n2. running on {dev.name}")
    wanted = {"vector_add.mlir": "vector add", "reduce.mlir": "reduction", "record.mlir": "record kernel"}
    failures = 0
    for case in _mlir_cases():
        if case.name not in wanted:
            continue
        rng = np.random.default_rng(0)
        args = case.make_args(rng)
        want = case.reference([a.copy() if isinstance(a, np.ndarray) else a for a in args])
        r = run_case(case, dev, seed=0)
        idx = next(iter(want))
        shown = case.make_args(np.random.default_rng(0))
        rt.launch(case.kernel, shown, case.grid, case.block, dev)
        out = shown[idx]
        if out.dtype.fields is None:
            head = ", ".join(f"{x:.4g}" for x in out[:4].tolist())
        else:
            head = ", ".join("(" + ", ".join(f"{v:.4g}" for v in x) + ")" for x in out[:3].tolist())
        print(f"   {wanted[case.name]:14s} {case.name:18s} {r.status:4s} max error {r.max_error:.1e}  "
              f"{len(out)} results, first [{head}]")
        if not r.ok:
            failures += 1
            print(f"      {r.message}")
    print(f"\ngenerated sources: {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
