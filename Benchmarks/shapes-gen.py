#!/usr/bin/env python3
"""Seeded random valid routines in YAML, of shapes other than routine-gen's, for the graph and
YAML benchmarks. Every arrow points forward, so each routine is acyclic and valid, and every
node is reached (each points at the next, a question by its first answer): `check` finds nothing
to say, so it is timed reading, not printing warnings.

    Benchmarks/shapes-gen.py SHAPE N [SEED] > x.yaml

Shapes:
  other     flow sequences (`next: [a, b]`), four-option questions, durations: another
            generator's routines (about 340 labelled arrows at 200 nodes)
  long      long titles, prompts, answers and notes (long labels)
  answers   questions of eight to twelve answers each
  converge  many arrows converging: every node also points at one of a few hubs ahead
  block     block sequences everywhere (`next:` and `on:` as `- item` lines), nested options"""

import random
import sys

shape, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
words = "water stretch breathe read walk journal plan tidy call cook rest pray run lift swim write".split()
sentence = ("before the day starts take a moment to notice how the body feels, what the mind is "
            "busy with, and which of the small things on the list would make the biggest difference").split()


def text(lo, hi):
    start = rnd.randrange(len(sentence))
    count = rnd.randint(lo, hi)
    return " ".join(sentence[(start + k) % len(sentence)] for k in range(count)).capitalize()


def ahead(i, span=6):
    return min(n - 1, i + 1 + rnd.randrange(span))


def seq(targets, block, indent):
    names = [f"n{t}" for t in targets]
    if block:
        return "\n" + "".join(f"{indent}- {name}\n" for name in names).rstrip("\n")
    return names[0] if len(names) == 1 else "[" + ", ".join(names) + "]"


hubs = sorted({rnd.randrange(n // 4, n) for _ in range(max(2, n // 40))})
block = shape == "block"
label = (12, 30) if shape == "long" else (2, 5)
out = [f"routine: Shapes {shape} {n}", "nodes:"]
for i in range(n):
    last = i == n - 1
    question = not last and i + 16 < n and rnd.random() < (0.3 if shape != "answers" else 0.25)
    if question:
        count = {"other": 4, "answers": rnd.randint(8, 12)}.get(shape, rnd.randint(2, 4))
        out.append(f"- question: n{i}")
        out.append(f"  prompt: {text(*label)}?")
        out.append("  options:")
        for k in range(count):
            targets = sorted({min(n - 1, i + 1 + k + rnd.randrange(3)) for _ in range(1 + (rnd.random() < 0.4))} | ({i + 1} if k == 0 else set()))
            out.append(f"  - answer: {text(1, 3) if shape != 'long' else text(6, 14)} {k}")
            if not (shape == "other" and k == count - 1 and rnd.random() < 0.3):
                out.append(f"    next: {seq(targets, block, '      ')}")
        out.append(f"  next: {seq([ahead(i + count)], block, '    ')}")
        continue
    out.append(f"- habit: n{i}")
    out.append(f"  title: {text(*label)}")
    if shape == "long" and rnd.random() < 0.5:
        out.append(f"  note: {text(20, 40)}")
    r = rnd.random()
    if r < (0.7 if shape == "other" else 0.4):
        out.append(f"  for: {rnd.randint(1, 45)}m")
    elif r < 0.6:
        out.append(f"  target: {rnd.randint(1, 12)}")
        out.append("  unit: glasses")
    if rnd.random() < 0.1:
        days = ["mon", "wed", "fri"] if rnd.random() < 0.5 else ["weekdays"]
        out.append("  on:" + ("\n" + "".join(f"  - {d}\n" for d in days).rstrip("\n") if block else f" [{', '.join(days)}]"))
    if last:
        continue
    targets = {i + 1}
    if rnd.random() < 0.6:
        targets.add(ahead(i))
    if shape == "converge":
        later = [h for h in hubs if h > i]
        if later:
            targets.add(later[0] if rnd.random() < 0.7 else rnd.choice(later))
    out.append(f"  next: {seq(sorted(targets), block, '  ')}")
print("\n".join(out))
