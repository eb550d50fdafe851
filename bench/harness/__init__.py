"""The benchmark harness behind `make bench`: peers, drivers, sections, report."""
