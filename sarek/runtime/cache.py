"""The compile cache: content-addressed, on disk, atomic, safe with concurrent processes.

A key is the SHA-256 of its parts: the IR's hash, the pipeline, the target and the toolchain versions
(the sarek compiler's own fingerprint among them, so an edited backend never serves stale code). An entry
is written to a temporary file in the same folder and renamed into place (`os.replace` is atomic), so a
reader sees a whole entry or none; every entry carries its own key and a checksum of its payload: a damaged
one, or one whose stored key is not the key asked for (an entry copied or renamed over another), is ignored
and removed. Only regular files are read, opened non-blocking (a FIFO or device node put where an entry
should be is a miss, never a hang). Only successful results are stored: `get_or_build` stores what `build` returned and
stores nothing when it raises.

Location: `$SAREK_CACHE_DIR`, else the user cache directory (platformdirs, else `$XDG_CACHE_HOME/sarek`,
else `~/.cache/sarek`). `SAREK_CACHE=0` disables it. `clear()` empties it (`sarek cache clear`).
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

_MAGIC = b"sarek-cache-2\n"  # then the key (64 hex digits), the payload's SHA-256 (64 hex digits), the payload
_HEAD = len(_MAGIC) + 128


def cache_dir() -> Path:
    env = os.environ.get("SAREK_CACHE_DIR", "").strip()
    if env:
        return Path(env).expanduser()  # a quoted "~/..." from a config file, too
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("sarek", appauthor=False))
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "sarek"


def enabled() -> bool:
    return os.environ.get("SAREK_CACHE", "1").strip().lower() not in ("0", "off", "false", "no")


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
    data = _read_regular(p)
    if data is None:
        return None
    if data.startswith(_MAGIC) and len(data) >= _HEAD:
        stored_key = data[len(_MAGIC):len(_MAGIC) + 64].decode("ascii", "replace")
        digest = data[len(_MAGIC) + 64:_HEAD].decode("ascii", "replace")
        payload = data[_HEAD:]
        if stored_key == key and hashlib.sha256(payload).hexdigest() == digest:
            return payload
    try:  # damaged (a foreign or truncated file): drop it
        p.unlink()
    except OSError:
        pass
    return None


def _read_regular(p: Path) -> bytes | None:
    """The bytes of `p` when it is a regular file (opened non-blocking, symlinks not followed), else None."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            return f.read()
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)


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
                f.write(_MAGIC + key.encode() + hashlib.sha256(payload).hexdigest().encode() + payload)
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
    got = get(kind, key)
    if got is not None:
        try:
            return got.decode()
        except UnicodeDecodeError:  # not text (a foreign entry with a valid checksum): rebuilt and replaced
            pass
    text = build()
    put(kind, key, text.encode())
    return text


_HEX = frozenset("0123456789abcdef")


def _cache_files(root: Path) -> list[Path]:
    """The files under `root` laid out as the cache writes them: `<kind>/<key[:2]>/<key>` (and the temporary
    `.tmp-*` files of interrupted writes). Nothing else is ever touched, so a $SAREK_CACHE_DIR pointing at a
    folder holding other files loses none of them to `clear()`."""
    out: list[Path] = []
    try:
        kinds = [k for k in root.iterdir() if k.is_dir() and not k.is_symlink()]
    except OSError:
        return out
    for kind in kinds:
        try:
            shards = [d for d in kind.iterdir() if d.is_dir() and not d.is_symlink() and len(d.name) == 2
                      and set(d.name) <= _HEX]
        except OSError:
            continue
        for shard in shards:
            try:
                files = list(shard.iterdir())
            except OSError:
                continue
            out += [f for f in files if f.is_file() and (f.name.startswith(".tmp-") or (
                len(f.name) == 64 and set(f.name) <= _HEX and f.name.startswith(shard.name)))]
    return out


def clear() -> int:
    """Remove every entry (only files with the cache's layout); returns how many files were removed."""
    root = cache_dir()
    n = 0
    if not root.is_dir():
        return 0
    for f in _cache_files(root):
        try:
            f.unlink()
            n += 1
        except OSError:
            pass
        for d in (f.parent, f.parent.parent):  # the shard and kind folders, once empty
            try:
                d.rmdir()
            except OSError:
                pass
    return n


def entries() -> Iterable[Path]:
    root = cache_dir()
    return [p for p in _cache_files(root) if not p.name.startswith(".tmp-")] if root.is_dir() else ()


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """Identifies the sarek compiler code: the size and mtime of every source file (its version is in those) and
    xDSL's installation (its package folder and `__init__.py`: path, size, mtime; an upgrade rewrites them).
    Neither version is read through importlib.metadata (xdsl.__version__ is): its search of the installed
    distributions costs a fresh process ~80-100 ms at its first launch."""
    root = Path(__file__).resolve().parents[1]  # the sarek package
    h = hashlib.sha256()
    try:
        import xdsl

        init = xdsl.__file__ or ""
        for p in (os.path.dirname(init), init):
            st = os.stat(p)
            h.update(f"{p}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    except (ImportError, OSError):  # pragma: no cover
        pass
    for rel, size, mtime in sorted(_py_files(str(root), "")):
        h.update(f"{rel}:{size}:{mtime}\n".encode())
    return h.hexdigest()[:32]


def _py_files(folder: str, rel: str) -> list[tuple[str, int, int]]:
    """(path relative to the package, size, mtime) of every .py file under `folder`: os.scandir, no Path
    objects (a fresh process's first launch pays for this walk)."""
    out: list[tuple[str, int, int]] = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.endswith(".py") and e.is_file():
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    out.append((rel + e.name, st.st_size, st.st_mtime_ns))
                elif e.is_dir(follow_symlinks=False) and e.name != "__pycache__":
                    out += _py_files(e.path, f"{rel}{e.name}/")
    except OSError:
        pass
    return out
