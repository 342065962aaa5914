"""An out-of-tree sarek pass package (see docs/EXTENDING.md): `example-replace-constant`."""
