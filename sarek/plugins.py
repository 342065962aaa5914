"""Passes and dialects from outside sarek: installed `xdsl.universe` plugins (entry points), as xdsl-opt finds them.

sarek-opt, `sarek-pipeline{after-opt=...}` and the runtime's extra passes resolve a pass name against sarek's own
passes (sarek.registry.PASSES) first, then against every installed plugin other than sarek's and xDSL's own,
in the order of their entry point names. Unlike xDSL's `Universe.get_multiverse`, a name defined twice is not an
error that stops the driver: sarek's own name wins, then the first plugin's; the others are listed in
`shadowed()` (sarek-opt --help shows them). A plugin that fails to load is skipped and listed in `broken()`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sarek.diagnostics import SarekError

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass

GROUP = "xdsl.universe"
#: entry points that are not plugins: sarek itself and xDSL's own universe
OWN = ("sarek", "xdsl")


@lru_cache(maxsize=1)
def _universes() -> tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """(name, Universe) of each loadable plugin, by entry point name; and `name: reason` of those that failed."""
    from importlib.metadata import entry_points

    from xdsl.universe import Universe

    ok: list[tuple[str, Any]] = []
    bad: list[str] = []
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        if ep.name in OWN:
            continue
        try:
            u = ep.load()
        except Exception as e:  # a broken plugin must not break sarek
            bad.append(f"{ep.name}: {type(e).__name__}: {e}")
            continue
        if not isinstance(u, Universe):
            bad.append(f"{ep.name}: {ep.value} is not an xdsl.universe.Universe")
            continue
        ok.append((ep.name, u))
    return tuple(ok), tuple(bad)


def _merge(kind: str, own: set[str]) -> tuple[dict[str, Callable[[], Any]], list[str]]:
    out: dict[str, Callable[[], Any]] = {}
    shadowed: list[str] = []
    for plugin, u in _universes()[0]:
        for name, factory in getattr(u, f"all_{kind}").items():
            if name in own or name in out:
                shadowed.append(f"{kind[:-1]} '{name}' of plugin {plugin} (already defined by "
                                f"{'sarek' if name in own else 'an earlier plugin'})")
                continue
            out[name] = factory
    return out, shadowed


def plugin_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> lazy class loader, for the plugins' passes whose names sarek does not use."""
    from sarek.registry import PASSES

    return _merge("passes", set(PASSES))[0]


def plugin_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> lazy loader, for the plugins' dialects whose names sarek does not use."""
    from sarek.registry import DIALECTS

    return _merge("dialects", {"builtin", *DIALECTS})[0]


def shadowed() -> list[str]:
    """The plugin passes and dialects left out because their name was already defined."""
    from sarek.registry import DIALECTS, PASSES

    return _merge("passes", set(PASSES))[1] + _merge("dialects", {"builtin", *DIALECTS})[1]


def broken() -> list[str]:
    """The plugins that could not be loaded, with the reason."""
    return list(_universes()[1])


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """sarek's passes and the plugins' (sarek's names win)."""
    from sarek.registry import get_all_passes

    return {**plugin_passes(), **get_all_passes()}


def resolve_passes(spec: str, who: str = "sarek") -> list[ModulePass]:
    """The passes of an xDSL pipeline spec (`my-pass{k=1},sarek-cse`), sarek's or a plugin's; an empty spec is
    no pass. An unknown name or a bad option is a SarekError naming the spec."""
    from xdsl.utils.arg_spec import parse_pipeline

    if not spec.strip():
        return []
    try:
        specs = list(parse_pipeline(spec))
    except Exception as e:
        raise SarekError(f"{who}: cannot parse the pass list '{spec}': {e}") from None
    known = all_passes()
    out: list[ModulePass] = []
    for sp in specs:
        factory = known.get(sp.name)
        if factory is None:
            raise SarekError(f"{who}: unknown pass '{sp.name}' (neither sarek's nor an installed xdsl.universe "
                             "plugin's; `sarek-opt --help` lists them)")
        try:
            out.append(factory().from_spec(sp))
        except (ValueError, TypeError) as e:
            raise SarekError(f"{who}: bad options for pass '{sp.name}' in '{spec}': {e}") from None
    return out


def code_fingerprint(spec: str) -> str:
    """Identifies the code of the plugin passes in `spec` (each class's module file: path, size, mtime), so that
    an edited plugin never serves a cached compile; sarek's own passes are in the compiler's fingerprint."""
    if not spec.strip():  # no passes (the common case: a warm launch resolves nothing)
        return ""
    import os
    import sys

    parts: list[str] = []
    for p in resolve_passes(spec):
        mod = sys.modules.get(type(p).__module__)
        f = getattr(mod, "__file__", None) or ""
        if f and not type(p).__module__.startswith("sarek."):
            st = os.stat(f)
            parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
    return ";".join(parts)


def canonical_spec(spec: str) -> str:
    """A pass list spelled one way (xDSL's printing of each pass), for cache keys: `a{x=1}, b` and `a{x=1},b`
    give one key."""
    return ",".join(p.pipeline_pass_spec().__str__() for p in resolve_passes(spec)) if spec.strip() else ""
