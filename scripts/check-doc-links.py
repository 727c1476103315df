#!/usr/bin/env python3
"""Every relative link in the project's Markdown pages points at a file that exists, and a
#fragment at a heading of that page (anchors made as GitHub makes them: lower-case, punctuation
dropped, spaces as hyphens, a repeated heading numbered -1, -2). Prints each broken link and
exits 1 when there is one.

    python3 scripts/check-doc-links.py [FILE.md...]     default: README, ARCHITECTURE,
                                                        BENCHMARKS, grammar, docs/, Benchmarks/
"""
import glob
import os
import re
import sys
import urllib.parse

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def anchors(path):
    seen, found, fence = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
            continue
        heading = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        anchor = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


pages = sys.argv[1:] or (
    ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "grammar.md"]
    + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("Benchmarks/*.md")) + sorted(glob.glob("editors/*.md")))
broken = 0
for page in pages:
    text = re.sub(r"```.*?```", "", open(page, encoding="utf-8").read(), flags=re.S)
    for link in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = link.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # a web address or mailto:, not a file of the project
        path, _, fragment = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(path))) if path else page
        if not os.path.exists(full):
            print(f"{page}: '{target}': no such file")
            broken += 1
        elif fragment and full.endswith(".md") and fragment not in anchors(full):
            print(f"{page}: '{target}': no heading '#{fragment}' in {full}")
            broken += 1
print(f"{broken} broken links" if broken else f"every link resolves ({len(pages)} pages)")
sys.exit(1 if broken else 0)
