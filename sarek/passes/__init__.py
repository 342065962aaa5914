"""sarek's passes, one module each; the registry of pass names is `sarek.registry.PASSES`."""
