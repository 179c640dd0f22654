"""Generic source tools: parse, templates, origin map, loading generated modules."""
