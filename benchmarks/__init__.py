"""Speed measurements (`python -m benchmarks.engine`); never run by the tests."""
