"""Turns the hyperfine and /usr/bin/time results of Benchmarks/run.sh into a Markdown table."""
import json
import os
import platform
import subprocess
import sys

work, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]


def stats(name, size):
    """The runs of every round of `name` at `size` (run.sh writes one file per round)."""
    prefix = f"{name}-{size}-"
    paths = sorted(p for p in os.listdir(work) if p.startswith(prefix) and p.endswith(".json"))
    if not paths:
        return None
    times, failed = [], False
    for path in paths:
        result = json.load(open(os.path.join(work, path)))["results"][0]
        times += result["times"]
        failed = failed or any(code != 0 for code in result.get("exit_codes", []))
    times.sort()
    middle = len(times) // 2
    median = times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
    rss_path = os.path.join(work, f"{name}-{size}.rss")
    rss = int(open(rss_path).read().split()[-1]) * 1024 if os.path.exists(rss_path) else None
    return {"median": median, "min": times[0], "max": times[-1], "rss": rss, "failed": failed, "runs": len(times)}


def size_of(ext, n):
    return int(open(os.path.join(work, f"size-{ext}-{n}")).read())


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


commands = [
    ("check-rt", "routine check x.rt", "rt", "acyclic", "acyclic / check: at least 5x"),
    ("check-yaml", "routine check x.yaml", "yaml", "libyaml", "check / libyaml: at most 1.5x"),
    ("graph", "routine graph x.rt", "rt", "check-rt", "graph / check: at most 2x"),
    ("paths-count", "routine paths --count x.rt", "rt", "check-rt", "paths / check: at most 1.3x"),
    ("run", "routine run x.rt --json (scripted)", "rt", None, "under 1 s at 100,000"),
    ("acyclic", "acyclic -n x.dot (Graphviz)", "dot", None, ""),
    ("libyaml", "libyaml event parse of x.yaml (C)", "yaml", None, ""),
]

print("| N | command | median | min-max | ratio | bar | peak RSS | RSS / input | MB/s |")
print("|---|---------|--------|---------|-------|-----|----------|-------------|------|")
for n in sizes:
    for name, label, ext, peer, bar in commands:
        s = stats(name, n)
        if s is None:
            continue
        size = size_of(ext, n)
        ratio = ""
        p = stats(peer, n) if peer else None
        if p:
            value = p["median"] / s["median"] if name == "check-rt" else s["median"] / p["median"]
            ratio = f"{value:.2f}x"
        rss = f"{s['rss'] / 1e6:.0f} MB" if s["rss"] else ""
        per_input = f"{s['rss'] / size:.1f}x" if s["rss"] else ""
        speed = f"{size / 1e6 / s['median']:.0f}"
        note = " (failed)" if s["failed"] else ""
        print(f"| {n:,} | {label}{note} | {s['median'] * 1000:.1f} ms | {s['min'] * 1000:.1f}-{s['max'] * 1000:.1f} ms "
              f"| {ratio} | {bar} | {rss} | {per_input} | {speed} |")

print()
print("Growth from the smallest to the largest N (time ratio; linear would be the size ratio):")
print()
if len(sizes) >= 2:
    a, b = sizes[-2], sizes[-1]
    for name, label, *_ in commands:
        sa, sb = stats(name, a), stats(name, b)
        if sa and sb:
            print(f"- {label}: {sb['median'] / sa['median']:.1f}x from {a:,} to {b:,} nodes "
                  f"(fastest runs: {sb['min'] / sa['min']:.1f}x)")
cold = stats("cold", 0)
if cold:
    print()
    print(f"Cold start, `routine check routines/morning.rt`: median {cold['median'] * 1000:.1f} ms "
          f"(min {cold['min'] * 1000:.1f}, max {cold['max'] * 1000:.1f}), peak RSS {cold['rss'] / 1e6:.0f} MB.")
print()
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
print(f"Machine: {cpu()}, {os.cpu_count()} cores; {swift[0] if swift else 'swift'}; release build.")
