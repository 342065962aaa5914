"""Short tracebacks for user errors, full ones (marked as bugs) for internal errors; kernels given by text."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import sarek

ROOT = Path(__file__).resolve().parents[2]


def run_script(tmp_path: Path, body: str, **env: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(body))
    e = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    if "SAREK_TRACEBACK" not in env:
        e.pop("SAREK_TRACEBACK", None)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=e, timeout=120)


BAD_KERNEL = """
    import numpy as np
    import sarek
    from sarek import Vec, f32, i32
    from sarek.gpu import global_thread_id

    @sarek.kernel
    def k(a: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            a[i] = a[i] + "x"

    a = np.zeros(4, np.float32)
    k.launch(a, 4, grid=1, block=4)
"""


def sarek_frames(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.strip().startswith("File") and "/sarek/" in ln]


def test_compile_error_shows_only_the_users_frames(tmp_path: Path) -> None:
    r = run_script(tmp_path, BAD_KERNEL)
    assert r.returncode == 1
    assert sarek_frames(r.stderr) == [], r.stderr
    assert "user_script.py\", line 14, in <module>" in r.stderr
    assert "sarek.CompileError: " in r.stderr and "user_script.py:11:23: error: strings are not supported" in r.stderr
    assert "SAREK_TRACEBACK=full" in r.stderr
    assert len(r.stderr.splitlines()) <= 8, r.stderr


def test_full_traceback_on_request(tmp_path: Path) -> None:
    r = run_script(tmp_path, BAD_KERNEL, SAREK_TRACEBACK="full")
    assert r.returncode == 1
    assert len(sarek_frames(r.stderr)) > 5, r.stderr
    assert "hid its internal frames" not in r.stderr


def test_launch_error_is_short(tmp_path: Path) -> None:
    r = run_script(tmp_path, BAD_KERNEL.replace('a[i] + "x"', "a[i] + 1.0").replace("k.launch(a, 4,", "k.launch(a,"))
    assert r.returncode == 1
    assert sarek_frames(r.stderr) == [], r.stderr
    assert "sarek.LaunchError: " in r.stderr and "takes 2 argument(s), 1 given" in r.stderr


def test_internal_error_keeps_its_frames_and_says_it_is_a_bug(tmp_path: Path) -> None:
    body = BAD_KERNEL.replace('a[i] + "x"', "a[i] + 1.0").replace(
        "    a = np.zeros", "    import sarek.frontend.lower as L\n"
        "    L.FunctionLowerer.stmts = None  # lower() now fails inside sarek\n"
        "    a = np.zeros")
    r = run_script(tmp_path, body)
    assert r.returncode == 1
    assert "TypeError: 'NoneType' object is not callable" in r.stderr
    assert sarek_frames(r.stderr), r.stderr
    assert "this is a bug in sarek" in r.stderr


def test_python_dash_c_names_the_fix() -> None:
    code = "import sarek\n@sarek.kernel\ndef k(n: sarek.i32):\n    pass\nk.compile()\n"
    e = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e, timeout=120)
    assert r.returncode == 1
    assert "<string>:2:1: error: cannot read the source of 'k'" in r.stderr
    assert "sarek.kernel(fn, source=text)" in r.stderr and "linecache" in r.stderr
    assert sarek_frames(r.stderr) == []


TEXT = """
from sarek import Vec, f32, i32
from sarek.gpu import global_thread_id

def twice(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = 2.0 * a[i]
"""


def test_source_text_for_exec_code() -> None:
    g: dict[str, object] = {}
    exec(TEXT, g)
    k = sarek.kernel(g["twice"], source=TEXT)
    a = np.ones(4, np.float32)
    k.launch(a, 4, grid=1, block=4)
    assert a.tolist() == [2.0] * 4
    only_def = TEXT[TEXT.index("def twice"):]  # the def alone: lines count from it
    g2: dict[str, object] = {}
    exec(TEXT, g2)
    k2 = sarek.kernel(source=only_def)(g2["twice"])
    k2.launch(a, 4, grid=1, block=4)
    assert a.tolist() == [4.0] * 4


def test_source_text_errors_are_located_in_it() -> None:
    bad = TEXT.replace("2.0 * a[i]", "a[i] + 'x'")
    g: dict[str, object] = {}
    exec(bad, g)
    k = sarek.kernel(g["twice"], source=bad)
    with pytest.raises(sarek.CompileError) as ei:
        k.compile()
    assert str(ei.value).startswith("<source of twice>:8:23: error: strings are not supported")
    assert "a[i] = a[i] + 'x'" in str(ei.value) and "^" in str(ei.value)


def test_source_text_without_the_def() -> None:
    g: dict[str, object] = {}
    exec(TEXT, g)
    with pytest.raises(sarek.CompileError, match="has no definition\\(s\\) of 'twice'"):
        sarek.kernel(g["twice"], source="def other():\n    pass\n")
    with pytest.raises(sarek.CompileError, match="does not parse"):
        sarek.kernel(g["twice"], source="def twice(:\n")


def test_linecache_source() -> None:
    import linecache

    name = "<generated kernel 1>"
    linecache.cache[name] = (len(TEXT), None, TEXT.splitlines(True), name)
    g: dict[str, object] = {}
    exec(compile(TEXT, name, "exec"), g)
    k = sarek.kernel(g["twice"])
    a = np.ones(3, np.float32)
    k.launch(a, 3, grid=1, block=4)
    assert a.tolist() == [2.0] * 3


def test_a_call_that_does_not_bind_is_the_callers_error_not_a_bug() -> None:
    """`sarek.launch(k, a, n, grid=1)` (the arguments not in a list) is the caller's mistake: Python's message
    plus the call's parameters, no "bug in sarek" note; a TypeError from inside sarek still gets that note."""
    g: dict[str, object] = {}
    exec(TEXT, g)
    k = sarek.kernel(g["twice"], source=TEXT)
    a = np.ones(4, np.float32)
    with pytest.raises(TypeError) as ei:
        sarek.launch(k, a, 4, grid=1)
    assert "multiple values for argument 'grid'" in str(ei.value)
    assert "the call is launch(kernel, args, grid=None" in str(ei.value)
    assert not any("bug in sarek" in n for n in getattr(ei.value, "__notes__", ()))
    sarek.launch(k, [a, 4], grid=1, block=4)
    assert a.tolist() == [2.0] * 4
