"""The compile cache: content-addressed, on disk, atomic, safe with concurrent processes.

A key is the SHA-256 of its parts: the IR's hash, the pipeline, the target and the toolchain versions
(the sarek compiler's own fingerprint among them, so an edited backend never serves stale code). An entry
is written to a temporary file in the same folder and renamed into place (`os.replace` is atomic), so a
reader sees a whole entry or none; every entry carries a checksum of its payload and a damaged one is
ignored and removed. Only successful results are stored: `get_or_build` stores what `build` returned and
stores nothing when it raises.

Location: `$SAREK_CACHE_DIR`, else the user cache directory (platformdirs, else `$XDG_CACHE_HOME/sarek`,
else `~/.cache/sarek`). `SAREK_CACHE=0` disables it. `clear()` empties it (`sarek cache clear`).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

_MAGIC = b"sarek-cache-1\n"


def cache_dir() -> Path:
    env = os.environ.get("SAREK_CACHE_DIR")
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("sarek", appauthor=False))
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "sarek"


def enabled() -> bool:
    return os.environ.get("SAREK_CACHE", "1") not in ("0", "off", "false", "no")


def make_key(*parts: object) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _path(kind: str, key: str) -> Path:
    return cache_dir() / kind / key[:2] / key


def get(kind: str, key: str) -> bytes | None:
    if not enabled():
        return None
    p = _path(kind, key)
    try:
        data = p.read_bytes()
    except OSError:
        return None
    if data.startswith(_MAGIC) and len(data) >= len(_MAGIC) + 64:
        digest = data[len(_MAGIC):len(_MAGIC) + 64].decode("ascii", "replace")
        payload = data[len(_MAGIC) + 64:]
        if hashlib.sha256(payload).hexdigest() == digest:
            return payload
    try:  # damaged (a foreign or truncated file): drop it
        p.unlink()
    except OSError:
        pass
    return None


def put(kind: str, key: str, payload: bytes) -> None:
    """Store atomically; a failure to write (read-only disk ...) is ignored: the cache is an optimisation."""
    if not enabled():
        return
    p = _path(kind, key)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=p.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + hashlib.sha256(payload).hexdigest().encode() + payload)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass


def get_or_build(kind: str, key: str, build: Callable[[], bytes]) -> bytes:
    got = get(kind, key)
    if got is not None:
        return got
    payload = build()  # an exception propagates and nothing is stored
    put(kind, key, payload)
    return payload


def get_or_build_text(kind: str, key: str, build: Callable[[], str]) -> str:
    return get_or_build(kind, key, lambda: build().encode()).decode()


def clear() -> int:
    """Remove every entry; returns how many files were removed."""
    root = cache_dir()
    n = 0
    if not root.is_dir():
        return 0
    for dirpath, _dirs, files in os.walk(root, topdown=False):
        for f in files:
            try:
                os.unlink(os.path.join(dirpath, f))
                n += 1
            except OSError:
                pass
        if dirpath != str(root):
            try:
                os.rmdir(dirpath)
            except OSError:
                pass
    return n


def entries() -> Iterable[Path]:
    root = cache_dir()
    return (p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".tmp-")) if root.is_dir() else ()


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """Identifies the sarek compiler code: its version and the size and mtime of every source file."""
    import sarek

    root = Path(sarek.__file__).parent
    h = hashlib.sha256()
    try:
        from importlib.metadata import version

        h.update(version("sarek").encode())
    except Exception:
        pass
    try:
        import xdsl

        h.update(str(getattr(xdsl, "__version__", "")).encode())
    except ImportError:  # pragma: no cover
        pass
    for p in sorted(root.rglob("*.py")):
        try:
            st = p.stat()
        except OSError:
            continue
        h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32]


def source_for(module_hash: str, target: str, emit: Callable[[], str]) -> str:
    """Generated source for `target`, cached by IR hash + pipeline + target + compiler fingerprint."""
    key = make_key("source", module_hash, f"sarek-pipeline{{target={target}}}", target, compiler_fingerprint())
    return get_or_build_text("source", key, emit)
