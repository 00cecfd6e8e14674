"""Benchmarks run on demand (pytest collects none of them) and their kit; see PERFORMANCE.md."""
