#!/usr/bin/python3
"""Runs a command and prints its peak resident memory (the largest child's ru_maxrss, MB) and wall time on one line:
  peak_rss.py LABEL COMMAND...   (the command's own output is discarded; a failing command fails this)"""
import resource
import subprocess
import sys
import time

start = time.time()
done = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if done.returncode != 0:
    last = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
    sys.exit(f"{sys.argv[1]}: exit {done.returncode}: " + " | ".join(line[:300] for line in last))
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{sys.argv[1]}: peak RSS {peak_kb / 1024:.0f} MB, {time.time() - start:.1f} s")
