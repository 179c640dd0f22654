"""Source rewrites, one per file; `autograph/pipeline.py` orders them."""
