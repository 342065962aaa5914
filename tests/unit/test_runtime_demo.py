"""`sarek demo` compiles the examples for every target and runs three kernels on the default device."""

from sarek.runtime import demo


def test_demo(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SAREK_DEMO_DIR", str(tmp_path))
    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SAREK_DEVICE", raising=False)
    assert demo.main() == 0
    out = capsys.readouterr().out
    assert "default device: interp" in out
    for what in ("vector add", "reduction", "record kernel"):
        assert what in out
    assert out.count(" pass ") >= 3
    assert f"generated sources: {tmp_path}" in out
    assert (tmp_path / "vector_add_mlir" / "vector_add.cu").is_file()
    assert (tmp_path / "vector_add_py" / "vector_add.cl").is_file()
