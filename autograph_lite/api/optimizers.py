"""ag.optimizers: SGD and Adam (autograph_lite/modules.py claims them; front_door.py binds
them here)."""
