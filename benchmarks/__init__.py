"""Benchmarks (``make bench``): speed and size figures recorded in BENCHMARKS.md."""
