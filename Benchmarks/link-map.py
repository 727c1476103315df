"""Where a binary's bytes come from: reads a GNU gold link map (`-Xlinker -Map -Xlinker FILE`)
and prints the bytes each library or Swift module put into the file's loaded sections,
largest first, with the sections' own totals (Swift metadata, code, read-only data...).

    python3 Benchmarks/link-map.py routine.map [--top N]
    python3 Benchmarks/link-map.py routine.map --why ARCHIVE   which reference pulled ARCHIVE in
"""
import collections
import re
import sys

path = sys.argv[1]
top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
why = sys.argv[sys.argv.index("--why") + 1] if "--why" in sys.argv else None

# Input sections: " .text.name  0xADDR  0xSIZE  FILE", the name and numbers sometimes on two lines.
piece = re.compile(r"^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")


def owner(file):
    """A library (libX.a), a SwiftPM module (X.build) or the file itself."""
    if m := re.search(r"/([^/()]+\.a)\(", file):
        return m.group(1)
    if m := re.search(r"/([^/]+)\.build/", file):
        return m.group(1) + " (module)"
    return file.rsplit("/", 1)[-1]


lines = open(path, errors="replace").read().split("\n")
if why:
    # "Archive member included because of file (symbol)": member, then the file that needed it.
    first = {}
    for i, line in enumerate(lines):
        if line == "Memory map":
            break
        if why in line and "(" in line and not line.startswith(" ") and i + 1 < len(lines):
            first.setdefault(owner(lines[i + 1].strip()), (line, lines[i + 1].strip()))
    for who, (member, by) in first.items():
        if owner(by.split(" (")[0]) != why:
            print(f"{member.rsplit('/', 1)[-1]}\n    needed by {by.rsplit('/', 1)[-1][:200]}")
    sys.exit()

by_owner = collections.Counter()
by_section = collections.Counter()
in_map, pending = False, None
for line in lines:
    if line == "Memory map":
        in_map = True
        continue
    if not in_map or line.startswith(" **"):
        continue
    if pending is not None and line.startswith("   "):
        line = " " + pending + line
    pending = None
    if re.fullmatch(r" \S+", line):
        pending = line.strip()
        continue
    m = piece.match(line)
    if not m or m.group(2) == "0" * len(m.group(2)) and not m.group(1):
        continue
    section, size, file = m.group(1) or "", int(m.group(3), 16), m.group(4).strip()
    # Only what the file holds: not zero-filled memory, not debugging information.
    if not section or section.startswith((".debug", ".comment", ".bss", ".tbss")) or section == "COMMON":
        continue
    kind = re.sub(r"^(\.(text|rodata|data\.rel\.ro|data|bss|tbss|tdata|eh_frame|gcc_except_table|init_array|fini_array)).*", r"\1", section)
    by_owner[owner(file)] += size
    by_section[kind] += size

total = sum(by_owner.values())
print(f"| input | bytes | share |\n|---|---|---|")
for name, size in by_owner.most_common(top):
    print(f"| {name} | {size / 1e6:.2f} MB | {100 * size / total:.1f}% |")
print(f"| all inputs | {total / 1e6:.2f} MB | |\n")
print(f"| section | bytes |\n|---|---|")
for name, size in by_section.most_common(12):
    print(f"| {name} | {size / 1e6:.2f} MB |")
