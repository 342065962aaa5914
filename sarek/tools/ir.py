"""Parse and print sarek IR text: the registry's functions, under the name tools and tests have used."""

from sarek.registry import make_context, parse_module, print_module

__all__ = ["make_context", "parse_module", "print_module"]
