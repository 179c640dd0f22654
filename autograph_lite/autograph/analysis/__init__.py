"""Static analysis over gast trees: activity (reads/writes), liveness, definedness."""
