"""Batched source validation for the fuzzer: one compiler run checks many kernels' C++-family sources.

A compiler's start-up (hipcc's two AMDGPU device libraries, nvcc's CUDA headers) costs far more than one small
kernel, so `check_many(target, sources)` checks the CUDA, HIP or Metal sources of many kernels as *one*
translation unit: their `#include` and `using namespace` lines hoisted to the top, each source's remaining text
wrapped in its own `namespace sarek_batch_<k> { ... }` (sarek's helpers, records' constructors and enum
constants repeat from kernel to kernel; kernel names are unique, `extern "C"` inside a namespace is fine). When
the combined unit fails (rare: a real bug), its halves are checked, down to the failing sources alone, so the
verdicts and messages are exactly the single-source validator's. A source with any other preprocessor line, and every other target, is
checked alone. The verdict per source: None (valid) or the `ValidationError` text.

PTX modules combine too (`combine_ptx`: one header, each module's entries renamed `<name>_b<k>`, since the
corpus has kernels of the same name): ptxas's start-up is most of its time on a small kernel, and the PTX
validity gate (tests/unit/test_ptx_assemble.py, the fuzzer's `--validate-always ptx`) assembles every module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

from sarek.registry import TARGETS
from sarek.validate import ValidationError

#: targets whose sources are checked as one combined translation unit
BATCHED = tuple(n for n, t in TARGETS.items() if t.batched)  # a view of the descriptors' `batched`
#: lines hoisted out of the namespaces (once each, in order of first appearance)
_HOISTED = ("#include", "using namespace")


def _checker(target: str) -> Callable[[str], object]:
    """The `check` of the target's validator module (its descriptor's `validator`)."""
    return importlib.import_module(f"sarek.validate.{TARGETS[target].validator}").check


#: a PTX module's header, the same for every module sarek prints
_PTX_HEADER = (".version", ".target", ".address_size")
_PTX_ENTRY = re.compile(r"^\.visible \.entry (\w+)\(", re.M)


def combinable(source: str, target: str = "cuda") -> bool:
    """Can `source` go into a combined unit (C++: no preprocessor lines but hoistable ones and loop pragmas; PTX: nothing at
    module scope but the header and entries)?"""
    if target == "ptx":
        return all(ln.startswith(_PTX_HEADER + (".visible .entry",)) for ln in source.splitlines()
                   if ln[:1] == ".")
    return all(not ln.lstrip().startswith("#") or ln.startswith("#include") or ln.lstrip().startswith("#pragma unroll")
               for ln in source.splitlines())  # `#pragma unroll` (sarek-unroll's hint mode) is scoped to its loop


def combine_ptx(sources: list[str]) -> str:
    """One PTX module holding every module's entries (the first module's header; entry `e` of module k is
    renamed `e_b<k>`, so equal kernel names do not clash: parameters and arrays are scoped by their entry)."""
    head = [ln for ln in sources[0].splitlines() if ln.startswith(_PTX_HEADER)]
    bodies: list[str] = []
    for k, src in enumerate(sources):
        body = "\n".join(ln for ln in src.splitlines() if not ln.startswith(_PTX_HEADER))
        bodies.append(_PTX_ENTRY.sub(lambda m: f".visible .entry {m.group(1)}_b{k}(", body))
    return "\n".join(head) + "\n\n" + "\n".join(bodies)


def combine(sources: list[str]) -> str:
    """One C++ translation unit holding every source, each in its own namespace."""
    head: list[str] = []
    bodies: list[str] = []
    for k, src in enumerate(sources):
        body: list[str] = []
        for ln in src.splitlines():
            if ln.startswith(_HOISTED):
                if ln not in head:
                    head.append(ln)
            else:
                body.append(ln)
        bodies.append(f"namespace sarek_batch_{k} {{\n" + "\n".join(body) + f"\n}}  // namespace sarek_batch_{k}\n")
    return "\n".join(head) + "\n\n" + "\n".join(bodies)


def check_one(target: str, source: str, *args: str) -> str | None:
    """The validator's message for one source (None: valid); `args` go to its `check` (PTX: the arch)."""
    try:
        _checker(target)(source, *args)
    except ValidationError as e:
        return str(e)
    return None


def _bisect(target: str, sources: list[str], ks: list[int], verdicts: list[str | None]) -> None:
    """Check sources[ks] together; on failure split in halves (a lone source gets its own verdict)."""
    if len(ks) == 1:
        verdicts[ks[0]] = check_one(target, sources[ks[0]])
        return
    if check_one(target, (combine_ptx if target == "ptx" else combine)([sources[k] for k in ks])) is None:
        return
    half = len(ks) // 2
    _bisect(target, sources, ks[:half], verdicts)
    _bisect(target, sources, ks[half:], verdicts)


def check_many(target: str, sources: list[str]) -> list[str | None]:
    """Each source's verdict (None: valid). The combinable sources of a batched target are checked in one run;
    when it fails, halves are checked until each failing source is found alone (about 2 log2(n) runs each)."""
    verdicts: list[str | None] = [None] * len(sources)
    together = [k for k, s in enumerate(sources) if target in BATCHED and combinable(s, target)]
    if together:
        _bisect(target, sources, together, verdicts)
    batched = set(together)
    for k in range(len(sources)):
        if k not in batched:
            verdicts[k] = check_one(target, sources[k])
    return verdicts


__all__ = ["BATCHED", "check_many", "check_one", "combinable", "combine", "combine_ptx"]
