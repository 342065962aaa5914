"""`xdsl.universe` entry point: plain `xdsl-opt` knows the sarek dialect, passes and targets."""

import importlib
import importlib.util
from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.universe import Universe

from sarek.passes import get_all_passes
from sarek.targets import TARGET_DIALECTS, get_all_targets


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def sarek() -> Dialect:
        from sarek.dialect import Sarek

        return Sarek

    def factory(mod: str, name: str) -> Callable[[], Dialect]:
        return lambda: getattr(importlib.import_module(mod), name)

    out: dict[str, Callable[[], Dialect]] = {"sarek": sarek}
    for n, (m, c) in TARGET_DIALECTS.items():
        try:
            if importlib.util.find_spec(m) is not None:
                out[n] = factory(m, c)
        except ModuleNotFoundError:
            pass
    return out


def _targets_not_in_xdsl() -> dict[str, Callable[[], type]]:
    """xDSL's own universe already defines some target names (e.g. `wgsl`); a duplicate name is an error in
    the multiverse, so those are left out here (sarek-opt registers every sarek target itself)."""
    from xdsl.targets import get_all_targets as xdsl_targets

    taken = set(xdsl_targets())
    return {n: f for n, f in get_all_targets().items() if n not in taken}


SAREK_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=_targets_not_in_xdsl(),
)
