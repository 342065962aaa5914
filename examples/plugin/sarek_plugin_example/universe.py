"""The `xdsl.universe` entry point: pass name -> lazy class loader (the module is imported only when used)."""

from xdsl.universe import Universe


def _replace_constant() -> type:
    from sarek_plugin_example.replace_constant import ReplaceConstantPass

    return ReplaceConstantPass


UNIVERSE = Universe(all_passes={"example-replace-constant": _replace_constant})
