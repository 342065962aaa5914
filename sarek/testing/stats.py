"""`python -m sarek.testing.fuzz --stats`: how often each feature and each corner shape (CASE["shapes"], issue
34) appears in the kernels of a seed range, without running any (the generator alone, milliseconds a kernel)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from sarek.testing.gen import BIG_BLOCKS, generate

#: the shape groups printed first (a shape name's prefix -> what it is)
GROUPS = {"zeroinit-local": "local array read before written", "zeroinit-shared": "shared array read before written (zeroshared)",
          "tiling": "register tile accumulated in nested constant loops", "boolcast": "comparison/bool cast",
          "f2i": "out-of-range/NaN/inf float->int", "intmin": "INT_MIN // -1, INT_MIN % -1",
          "streams": "two-stream launch sharing a Vector"}


def shape_counts(seeds: Iterable[int], corners: frozenset[str] | None = None) -> dict[str, Any]:
    """{"kernels", "features": {name: kernels}, "shapes": {name: kernels}, "groups": {prefix: kernels},
    "big_blocks": kernels with a block of 384 or more threads}."""
    feats: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    kernels = big = 0
    for seed in seeds:
        case = generate(seed, corners=corners).case
        kernels += 1
        feats.update(case["features"])
        shapes.update(case.get("shapes", ()))
        groups.update({g for g in GROUPS for s in case.get("shapes", ()) if s.startswith(g)})
        big += case["block"] >= min(BIG_BLOCKS)
    return {"kernels": kernels, "features": dict(sorted(feats.items())), "shapes": dict(sorted(shapes.items())),
            "groups": {g: groups[g] for g in GROUPS}, "big_blocks": big}


def format_stats(st: dict[str, Any]) -> str:
    lines = [f"{st['kernels']} kernels; per shape, the kernels holding it:"]
    lines += [f"  {g:16} {n:6}  {GROUPS[g]}" for g, n in st["groups"].items()]
    lines.append(f"  {'bigblock':16} {st['big_blocks']:6}  one block of {min(BIG_BLOCKS)}-{max(BIG_BLOCKS)} threads")
    lines.append("shapes:")
    lines += [f"  {s:28} {n:6}" for s, n in st["shapes"].items()]
    lines.append("features:")
    lines += [f"  {f:28} {n:6}" for f, n in st["features"].items()]
    return "\n".join(lines) + "\n"
