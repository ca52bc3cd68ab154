#!/usr/bin/env python3
"""Print the rows the benches appended to FILE (their --summary) as one Markdown table.

    python3 bench/ranking/summary.py FILE
"""
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 2:
        common.fail("usage: summary.py FILE")
    common.print_summary(sys.argv[1])
