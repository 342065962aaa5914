#!/usr/bin/env python3
"""Writes every corpus kernel's generated source for all 7 targets into OUT, for byte-identity checks.

    python3 scripts/snapshot_sources.py OUT          # then: diff -r BEFORE AFTER

The corpus: examples/*.mlir and *.py (every Kernel they define), tests/conformance/kernels/*.mlir and the unit
test kernel folders (tests/unit/*_kernels/*.mlir). A refusal is written as `<kernel>.<target>.refused` holding the
located message, so a changed refusal shows in the diff too. Run from a tree whose `sarek` is importable
(a worktree: run it from the worktree's root).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    out = Path(argv[0])
    warnings.filterwarnings("ignore")
    from sarek.diagnostics import SarekError
    from sarek.runtime.demo import EXT, _kernels  # pyright: ignore[reportPrivateUsage]
    from sarek.runtime.core import kernel_names
    from sarek.targets import TARGETS, emit_source
    from sarek.tools.ir import parse_module

    items = list(_kernels())
    for folder in [REPO / "tests" / "conformance" / "kernels", *sorted((REPO / "tests" / "unit").glob("*_kernels"))]:
        for p in sorted(folder.glob("*.mlir")):
            m = parse_module(p.read_text(), str(p))
            items += [(f"{folder.name}/{p.name}", m, k) for k in kernel_names(m)]
    seen: set[int] = set()
    count = 0
    for fname, module, kname in items:
        if id(module) in seen:
            continue
        seen.add(id(module))
        d = out / fname.replace(".", "_").replace("/", "__")
        d.mkdir(parents=True, exist_ok=True)
        for target in TARGETS:
            try:
                text = emit_source(module, target)
                (d / f"{kname}.{EXT.get(target, target)}").write_text(text)
            except SarekError as e:
                (d / f"{kname}.{target}.refused").write_text(str(e) + "\n")
            count += 1
    print(f"{count} (module, target) outputs written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
