"""`print(...)` in kernels and helpers: the same text on every local device, in block/thread/program order; a
bounded buffer with a dropped-lines line; no hidden buffer for kernels that do not print."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sarek
from sarek import Vec, f32, i32
from sarek.gpu import global_thread_id
from sarek.passes.debug_buffer import DEBUG_PARAM
from sarek.runtime.debug import launch_plan

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "unit" / "debug_kernels" / "prints.py"
DEVICES = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"]

TALK = """\
i = 0 a[i] = 0.0 block 0 thread=0 {literal}
  helper: 0.0 False
i = 1 a[i] = 0.75 block 0 thread=1 {literal}
  helper: 1.5 True
i = 2 a[i] = 1.5 block 0 thread=2 {literal}
  helper: 3.0 True
i = 3 a[i] = 2.25 block 0 thread=3 {literal}
  helper: 4.5 True
i = 4 a[i] = 3.0 block 1 thread=0 {literal}
  helper: 6.0 True
last! -7 True
"""
WIDE = "i64 -1099511627779 1099511627779 f64 0.1 0.03333333333333333\n"


def outputs(devices: list[str], words: int | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    if words is not None:
        env["SAREK_PRINT_BUFFER"] = str(words)
    r = subprocess.run([sys.executable, str(SCRIPT), *devices], capture_output=True, text=True, env=env,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    out: dict[str, str] = {}
    for chunk in r.stdout.split("== ")[1:]:
        name, _, text = chunk.partition("\n")
        out[name] = text
    return out


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return outputs(DEVICES)


@pytest.mark.parametrize("device", DEVICES)
def test_print_text_is_the_same_on_every_device(texts: dict[str, str], device: str) -> None:
    lines = "".join(f"line {k}\n" for k in range(40))
    wide = "" if "vulkan" in device else WIDE  # WGSL has no 64-bit types; lavapipe GLSL no f64 through wgpu
    assert texts[device] == TALK + wide + lines


@pytest.mark.gpu
def test_print_text_on_the_gpu() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from gpu_names import gpu_devices  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.pop(0)
    devices = gpu_devices()
    got = outputs(devices)
    lines = "".join(f"line {k}\n" for k in range(40))
    for d in devices:
        assert got[d] == TALK + ("" if "vulkan" in d else WIDE) + lines, d


def test_a_full_buffer_says_how_many_lines_it_dropped() -> None:
    got = outputs(["interp", "opencl:0"], words=100)
    for text in got.values():
        lines = text.splitlines()
        assert lines[-1].startswith("[sarek: ") and "more lines dropped" in lines[-1]
    assert got["interp"] == got["opencl:0"]


@sarek.kernel
def quiet(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = 1.0


def test_no_print_no_buffer() -> None:
    assert launch_plan(quiet.module, quiet.name, False) is None
    assert DEBUG_PARAM not in quiet.source("cuda")


@pytest.mark.parametrize("body, message", [
    ("print(a)", "print() in a kernel prints strings, integers, floats and bools, not Vec[f32]"),
    ("print(n, sep=str(n))", "print() in a kernel takes constant strings for sep="),
    ("x = print(n)", "print() returns nothing: call it as a statement"),
    ("print(f'{n:4}')", "print() in a kernel formats f-string values plainly"),
])
def test_print_refusals(tmp_path: Path, body: str, message: str) -> None:
    src = tmp_path / "bad_print.py"
    src.write_text("from sarek import Vec, f32, i32\n\ndef k(a: Vec[f32], n: i32):\n    " + body + "\n")
    g: dict[str, object] = {}
    exec(compile(src.read_text(), str(src), "exec"), g)
    with pytest.raises(sarek.CompileError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        sarek.kernel(g["k"]).compile()
