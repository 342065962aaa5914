"""Bisect H200 seed 201559 (NVIDIA Vulkan only: oi[145] = 0, reference 1) on the devices named on the command line.

Thread 48 is the only thread with ai[i] == 0, so the only one for which `v2 = -abs(ai[..])` is 0 and the branch
`if 0 <= v2:` is taken; NVIDIA stores 0. Three kernels (variants of fz201559.py, written to a temporary folder):
the reproducer; a probe whose slot 0 records the branch condition and slot 2 the compare `af[0] != af[48]`;
the probe with that abs spelled as a select. Prints thread 48's three slots per kernel and device; a correct
device gives [0, 1, 0], [1, 1, 1], [1, 1, 1].

    python3 tests/unit/fuzz_regressions/probe_201559.py interp vulkan:0 vulkan-glsl:0 cuda:0
"""

import sys
import tempfile
from pathlib import Path

from sarek.testing.runs import load_kernel, run_on

HERE = Path(__file__).parent
PROBE = [("    if ((0 * v1) <= v2):", "    oi[i * 3 + 0] = i32((0 * v1) <= v2)\n"
          "    oi[i * 3 + 2] = i32((af[abs(i32(-(-0.25))) % n] != af[i]))\n    if ((0 * v1) <= v2):")]
SELECT = PROBE + [("    v2 = (-abs(ai[abs(abs(i)) % n]))", "    w = ai[abs(abs(i)) % n]\n    v2 = -(w if w >= 0 else -w)")]


def variants(d: Path) -> dict[str, Path]:
    src = (HERE / "fz201559.py").read_text()
    out: dict[str, Path] = {}
    for name, edits in (("reproducer", []), ("probe", PROBE), ("select", SELECT)):
        text = src
        for old, new in edits:
            assert old in text, old
            text = text.replace(old, new)
        out[name] = d / f"fz201559_{name}.py"
        out[name].write_text(text)
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in variants(Path(tmp)).items():
            kernel, case = load_kernel(path)
            for dev in sys.argv[1:] or ["interp"]:
                print(name, dev, run_on(kernel, case, dev)["oi"][144:147], flush=True)
