"""The `sarek` command: ir / emit / errors (exit status 1, located message, no traceback)."""

import subprocess
import sys
import textwrap

from sarek.tools.cli import main

KERNELS = textwrap.dedent('''
    from sarek import Vec, f32, i32, kernel
    from sarek.gpu import global_thread_id

    @kernel
    def vadd(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            c[i] = a[i] + b[i]

    @kernel
    def bad(a: Vec[f32], n: i32):
        a[0] = n / 2.0
''')


def _file(tmp_path):
    p = tmp_path / "kernels.py"
    p.write_text(KERNELS)
    return p


def test_ir(tmp_path, capsys):
    p = _file(tmp_path)
    assert main(["ir", f"{p}:vadd"]) == 0
    out = capsys.readouterr().out
    assert "sarek.kernel @vadd" in out


def test_emit(tmp_path, capsys):
    p = _file(tmp_path)
    assert main(["emit", f"{p}:vadd", "-t", "opencl"]) == 0
    assert "vadd" in capsys.readouterr().out


def test_error_is_located_without_traceback(tmp_path):
    p = _file(tmp_path)
    r = subprocess.run([sys.executable, "-m", "sarek.tools.cli", "ir", f"{p}:bad"], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{p}:13:12: error: type mismatch"), r.stderr
    assert "Traceback" not in r.stderr
    assert "a[0] = n / 2.0" in r.stderr


def test_devices_lists_interp(capsys):
    assert main(["devices"]) == 0
    assert "interp" in capsys.readouterr().out
