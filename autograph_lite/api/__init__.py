"""TensorFlow-style namespaces (ag.math, ag.nn, ag.random, ag.*): thin lookups into OPS."""
