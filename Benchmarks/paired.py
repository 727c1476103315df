#!/usr/bin/env python3
"""Times commands in alternation, round after round, so that a machine whose speed drifts
(a shared host, another job starting) slows every command alike: hyperfine runs all of one
command's runs before the next's, and a drift between them reads as a difference.

    paired.py [--runs N] [--warmup N] [--json OUT] NAME=COMMAND NAME=COMMAND...

Each COMMAND is split on spaces and run without a shell, its output discarded. Prints, per
command, the median and minimum wall time, and for each command after the first the median
of its differences from the first within the same round (the figure a bar of "at most
N ms more" is read from)."""
import json
import os
import statistics
import sys
import time


def run(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"paired.py: '{' '.join(argv)}' failed")
    return elapsed / 1e6


def main():
    args = sys.argv[1:]
    runs, warmup, out = 100, 5, None
    commands = []
    while args:
        flag = args.pop(0)
        if flag == "--runs":
            runs = int(args.pop(0))
        elif flag == "--warmup":
            warmup = int(args.pop(0))
        elif flag == "--json":
            out = args.pop(0)
        else:
            name, _, command = flag.partition("=")
            commands.append((name, command.split()))
    if len(commands) < 1:
        sys.exit(__doc__)
    for _ in range(warmup):
        for _, argv in commands:
            run(argv)
    times = [[] for _ in commands]
    for _ in range(runs):
        for k, (_, argv) in enumerate(commands):
            times[k].append(run(argv))
    results = []
    for k, (name, _) in enumerate(commands):
        result = {"name": name, "median_ms": statistics.median(times[k]), "min_ms": min(times[k])}
        if k > 0:
            result["median_difference_ms"] = statistics.median(b - a for a, b in zip(times[0], times[k]))
        results.append(result)
    if out:
        with open(out, "w") as f:
            json.dump(results, f)
    for r in results:
        extra = f", {r['median_difference_ms']:+.2f} ms against the first" if "median_difference_ms" in r else ""
        print(f"{r['name']}: median {r['median_ms']:.2f} ms, min {r['min_ms']:.2f} ms{extra}")


main()
