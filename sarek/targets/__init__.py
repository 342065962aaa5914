"""The targets (`-t NAME`), one package each; their table is `sarek.registry.TARGETS`."""

from sarek.registry import TARGETS, emit_source, get_all_targets

__all__ = ["TARGETS", "emit_source", "get_all_targets"]
