#!/usr/bin/env python3
"""Seeded random valid routines in `.rt`, of several shapes, for the language server's and the
commands' benchmarks. Every arrow points forward, so each routine is acyclic, and every node is
reached (each points at the next, a question by its first answer): `check` finds nothing to say
unless --typo asks for one.

    Benchmarks/rt-shapes-gen.py SHAPE N [--seed S] [--typo] > x.rt

Shapes:
  chain     one habit after another, nothing else (the shortest lines)
  wide      questions of eight to twelve answers each, a third of the nodes
  deep      mostly questions, each answer leading to the next few questions: paths nest deeply
  converge  every node also points at one of a few hubs ahead: many paths meet
  emoji     long titles, prompts, answers and notes, with emoji and accents in them
  mix       all of the above by turns, with durations, targets, days and gathers

--typo misspells the arrow into the middle node (`-> n2500x` for `-> n2500` at 5,000), so that
the half after it is cut off: one error and one unreachable-region warning, published at every
keystroke while the typo stands. Every title starts with an ASCII letter, so that the benchmark's
edit (the first letter of a title near the middle) is one byte in every encoding."""

import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("shape", choices=["chain", "wide", "deep", "converge", "emoji", "mix"])
parser.add_argument("n", type=int)
parser.add_argument("--seed", type=int, default=7)
parser.add_argument("--typo", action="store_true")
args = parser.parse_args()
n, shape = args.n, args.shape
rnd = random.Random(args.seed)
words = ("before the day starts take a moment to notice how the body feels what the mind is busy "
         "with and which of the small things on the list would make the biggest difference").split()
emoji = ["☕", "🧘", "🏃‍♀️", "💧", "📖", "🌅", "✨", "🍳", "café", "naïve", "Ünïcödé", "日本語", "🇫🇷"]


def text(lo, hi, fancy=False):
    start = rnd.randrange(len(words))
    parts = [words[(start + k) % len(words)] for k in range(rnd.randint(lo, hi))]
    if fancy:
        for _ in range(max(1, len(parts) // 4)):
            parts.insert(rnd.randrange(1, len(parts) + 1), rnd.choice(emoji))
    return " ".join(parts).capitalize()


def ahead(i, span=6):
    return min(n - 1, i + 1 + rnd.randrange(span))


hubs = sorted({rnd.randrange(n // 4, n) for _ in range(max(2, n // 40))})
typo_at = n // 2 if args.typo else -1


def name(t):
    return f"n{t}x" if t == typo_at else f"n{t}"


def arrow(targets):
    return " -> " + ", ".join(name(t) for t in targets)


out = [f'routine "Shapes {shape} {n}"', ""]
for i in range(n):
    kind = shape if shape != "mix" else ["chain", "wide", "deep", "converge", "emoji"][(i // 7) % 5]
    last = i == n - 1
    fancy = kind == "emoji"
    label = (8, 20) if fancy else (2, 5)
    p_question = {"chain": 0, "wide": 0.33, "deep": 0.8, "converge": 0.2, "emoji": 0.25}[kind]
    if not last and i + 16 < n and rnd.random() < p_question:
        count = rnd.randint(8, 12) if kind == "wide" else rnd.randint(2, 4)
        out.append(f'question n{i} "{text(*label, fancy)}?"')
        for k in range(count):
            if kind == "deep":
                targets = [i + 1 + k % 3]
            else:
                targets = sorted({min(n - 1, i + 1 + k + rnd.randrange(3)) for _ in range(1 + (rnd.random() < 0.4))})
            if k == 0:
                targets = sorted(set(targets) | {i + 1})
            answer = text(1, 3, fancy) if not fancy else text(4, 10, True)
            out.append(f'  "{answer} {k}"{arrow(targets)}')
        if kind in ("deep", "mix") and rnd.random() < 0.5:
            out.append(f"  then ->{arrow([ahead(i + 3)])[3:]}")
        continue
    line = f'habit n{i} "{text(*label, fancy)}"'
    if kind != "chain":
        r = rnd.random()
        if r < 0.4:
            line += f" for {rnd.randint(1, 45)}m"
        elif r < 0.6:
            line += f" target {rnd.randint(1, 12)} glasses"
        if rnd.random() < 0.1:
            line += " on mon wed fri" if rnd.random() < 0.5 else " on weekdays"
    if fancy and rnd.random() < 0.5:
        line += f'\n  note "{text(20, 40, True)}"'
    if not last:
        targets = {i + 1}
        if kind != "chain" and rnd.random() < 0.6:
            targets.add(ahead(i))
        if kind == "converge":
            later = [h for h in hubs if h > i]
            if later:
                targets.add(later[0] if rnd.random() < 0.7 else rnd.choice(later))
        line += arrow(sorted(targets))
    out.append(line)
print("\n".join(out))
