# The categorical draws have no Python-level API: their test access is gymspaces._probes.
