"""``python -m autograph_lite``: the same command line as ``autograph-lite``."""
from .cli import main

raise SystemExit(main())
