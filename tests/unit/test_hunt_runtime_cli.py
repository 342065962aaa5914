"""`sarek` command-line bugs found by a bug hunt: a file that does not parse or fails to run, and a name that
is not a kernel, end with a located one-line-ish message and exit status 1, never a traceback; `sarek cache
clear` removes only cache entries."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from sarek.runtime import cache


def _sarek(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "sarek.tools.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_syntax_error_in_the_file(tmp_path: Path):
    p = tmp_path / "syn.py"
    p.write_text("from sarek import kernel\n\ndef f(:\n    pass\n")
    r = _sarek("ir", f"{p}:f")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{p}:3:7: error: invalid syntax"), r.stderr
    assert "def f(:" in r.stderr


def test_file_that_fails_to_run(tmp_path: Path):
    p = tmp_path / "imp.py"
    p.write_text("X = 1\nimport sarek_no_such_module_xyz\n")
    r = _sarek("emit", f"{p}:k", "-t", "cuda")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{p}:2: error: running the file failed: ModuleNotFoundError"), r.stderr


def test_names_that_are_not_kernels(tmp_path: Path):
    p = tmp_path / "k.py"
    p.write_text(textwrap.dedent("""
        from sarek import kernel, record, f32
        from os.path import join

        @record
        class P:
            x: f32

        N = 3
    """))
    for name, want in [("P", "it is the class P"), ("f32", "it is ScalarType f32"), ("N", "it is int 3"),
                       ("join", "is not defined in"), ("kernel", "is not defined in")]:
        r = _sarek("ir", f"{p}:{name}")
        assert r.returncode == 1, name
        assert "Traceback" not in r.stderr, r.stderr
        assert want in r.stderr, (name, r.stderr)


def test_cache_clear_keeps_foreign_files(tmp_path: Path, monkeypatch):
    """`SAREK_CACHE_DIR` pointing at a folder with other files: `clear()` used to delete every file under it."""
    root = tmp_path / "mine"
    (root / "ab").mkdir(parents=True)
    (root / "notes.txt").write_text("keep")
    (root / "ab" / "data.bin").write_text("keep")
    monkeypatch.setenv("SAREK_CACHE_DIR", str(root))
    monkeypatch.delenv("SAREK_CACHE", raising=False)
    key = cache.make_key("x")
    cache.put("source", key, b"int main;")
    assert cache.get("source", key) == b"int main;"
    assert [p.name for p in cache.entries()] == [key]
    r = _sarek("cache", "clear", env={"SAREK_CACHE_DIR": str(root)})
    assert r.returncode == 0 and "1 file(s) removed" in r.stdout, r
    assert (root / "notes.txt").read_text() == "keep" and (root / "ab" / "data.bin").read_text() == "keep"
    assert cache.get("source", key) is None and not (root / "source").exists()


def test_text_entry_that_is_not_text_is_rebuilt(tmp_path: Path, monkeypatch):
    """A checksum-valid entry that does not decode (a foreign writer) used to raise UnicodeDecodeError from
    the launch; it is rebuilt."""
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("SAREK_CACHE", raising=False)
    key = cache.make_key("text")
    cache.put("source", key, b"\xff\xfe not utf-8")
    assert cache.get_or_build_text("source", key, lambda: "kernel text") == "kernel text"
    assert cache.get("source", key) == b"kernel text"


def test_cache_env_spellings(monkeypatch):
    monkeypatch.setenv("SAREK_CACHE_DIR", "~/sarek-hunt-cache")
    assert cache.cache_dir() == Path.home() / "sarek-hunt-cache"  # not a folder named '~' in the cwd
    for off in ("0", "OFF", "False", " no "):
        monkeypatch.setenv("SAREK_CACHE", off)
        assert not cache.enabled(), off
    monkeypatch.setenv("SAREK_CACHE", "1")
    assert cache.enabled()
