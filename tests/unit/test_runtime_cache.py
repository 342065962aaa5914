"""The compile cache: location, atomic entries, damage detection, failures never stored, clear()."""

import multiprocessing as mp
import os

import pytest

from sarek.runtime import cache


@pytest.fixture(autouse=True)
def tmp_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("SAREK_CACHE", raising=False)
    return tmp_path / "c"


def test_dir_override(tmp_cache):
    assert cache.cache_dir() == tmp_cache


def test_default_dir_is_user_cache(monkeypatch):
    monkeypatch.delenv("SAREK_CACHE_DIR")
    d = str(cache.cache_dir())
    assert d.endswith("sarek") and "cache" in d.lower()


def test_roundtrip_and_keys():
    k = cache.make_key("ir", "pipeline", "opencl", "v1")
    assert k != cache.make_key("ir", "pipeline", "cuda", "v1")
    assert k != cache.make_key("irp", "ipeline", "opencl", "v1")  # parts are length-delimited
    assert cache.get("source", k) is None
    cache.put("source", k, b"hello")
    assert cache.get("source", k) == b"hello"


def test_build_called_once():
    calls = []

    def build():
        calls.append(1)
        return b"x"

    k = cache.make_key("a")
    assert cache.get_or_build("t", k, build) == b"x"
    assert cache.get_or_build("t", k, build) == b"x"
    assert len(calls) == 1


def test_failure_not_stored():
    k = cache.make_key("b")

    def bad():
        raise RuntimeError("compile failed")

    with pytest.raises(RuntimeError):
        cache.get_or_build("t", k, bad)
    assert cache.get("t", k) is None
    assert list(cache.entries()) == []


def test_damaged_entry_ignored():
    k = cache.make_key("c")
    cache.put("t", k, b"payload")
    (p,) = list(cache.entries())
    p.write_bytes(p.read_bytes()[:-2])  # truncated
    assert cache.get("t", k) is None
    assert not p.exists()


def test_disabled(monkeypatch):
    monkeypatch.setenv("SAREK_CACHE", "0")
    k = cache.make_key("d")
    cache.put("t", k, b"p")
    assert cache.get("t", k) is None


def test_clear():
    for i in range(3):
        cache.put("t", cache.make_key(i), b"p")
    assert len(list(cache.entries())) == 3
    assert cache.clear() == 3
    assert list(cache.entries()) == []
    assert cache.clear() == 0


def _writer(args):
    d, i = args
    os.environ["SAREK_CACHE_DIR"] = d
    from sarek.runtime import cache as c

    key = c.make_key("shared")
    for _ in range(50):
        c.put("t", key, b"A" * 100000)
        got = c.get("t", key)
        assert got is None or got == b"A" * 100000
    return i


def test_concurrent_processes(tmp_cache):
    with mp.get_context("spawn").Pool(2) as pool:
        assert sorted(pool.map(_writer, [(str(tmp_cache), i) for i in range(4)])) == [0, 1, 2, 3]
    assert cache.get("t", cache.make_key("shared")) == b"A" * 100000
    assert [p for p in tmp_cache.rglob(".tmp-*")] == []


def test_compiler_fingerprint_stable():
    assert cache.compiler_fingerprint() == cache.compiler_fingerprint()
    assert len(cache.compiler_fingerprint()) == 32
