#!/usr/bin/env python3
"""Drops each program named on the command line from the page cache and runs it once
(`--version`), so that it is mapped from pages as a read from disk leaves them: a file
just written by `install`, `strip` or the compiler sits in larger folios, which changes
the number of page faults at start-up by a third. The bench scripts call it on every
program they time, before timing it.

Usage: python3 bench/read-back.py PROGRAM...
"""
import os
import subprocess
import sys

for path in sys.argv[1:]:
    descriptor = os.open(path, os.O_RDONLY)
    os.fsync(descriptor)
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(descriptor)
    subprocess.run([path, "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
