"""Writes a seeded history of DAYS daily runs of a 30-step routine as JSON Lines, the form
`routine history import` reads: ten years are `history-gen.py 3650` (about 110,000 steps).

    python3 Benchmarks/history-gen.py DAYS [--seed S] > history.jsonl
"""
import datetime
import json
import random
import sys

days = int(sys.argv[1])
seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
rng = random.Random(seed)
first = datetime.date(2016, 11, 23)


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


for d in range(days):
    day = first + datetime.timedelta(days=d)
    start = datetime.datetime(day.year, day.month, day.day, 6) + datetime.timedelta(seconds=rng.randint(0, 3600))
    t, steps = start, []
    for k in range(30):
        spent = round(rng.uniform(5, 120), 3)
        t += datetime.timedelta(seconds=spent)
        step = {"step": k + 1, "node": f"h{k}", "kind": "habit", "title": f"Habit {k}"}
        if k == 3:
            answer = rng.randint(1, 3)
            step.update({"kind": "question", "title": "How are you?", "result": "answered",
                         "option": ["Good", "Fine", "Tired"][answer - 1], "index": answer})
        elif k % 7 == 6 and day.weekday() >= 5:
            step.update({"result": "not-scheduled"})
            spent = 0
        else:
            step["result"] = "done" if rng.random() < 0.85 else "skipped"
            if k % 10 == 9 and step["result"] == "done":
                step.update({"value": rng.randint(1, 10), "target": 8, "unit": "glasses"})
        step.update({"at": stamp(t), "seconds": spent})
        steps.append(step)
    run = {"date": day.isoformat(), "routine": "Ten years", "result": "completed", "reachedEnd": False,
           "started": stamp(start), "ended": stamp(t), "utcOffset": "+01:00", "path": "/home/me/ten-years.rt",
           "sourceHash": "fnv1a64:0000000000000000", "steps": steps}
    print(json.dumps(run, separators=(",", ":"), ensure_ascii=False))
