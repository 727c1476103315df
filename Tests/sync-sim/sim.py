#!/usr/bin/env python3
"""A deterministic, seeded simulation of people using `routine sync` on three devices, black-box
over the built binary (issue #55, docs/sync.md).

Each device has its own HOME, XDG folders and history, and its own copy of the sync folder. A
seed gives a schedule: runs, logs, amendments, days off and their undos, deletions and restores,
interleaved with exchanges of the copies (as Syncthing carries files: whole files replaced by
new ones, never merged; conflict copies `*.sync-conflict-*` where two copies changed one file;
a line half-written, completed later) or git merges (a repository per device, journals merged
as the union of their lines), and mishaps: a stale copy of a folder restored, a device's own
folder deleted, a clock an hour or about a day ahead or behind (libfaketime), a home copied to a
new machine writing as the same device, a junk line added by hand and removed, and so on.

After the schedule and a few full exchanges every device's `history export` must be the same,
every record a command reported must be there (or replaced by a change made after it was seen),
a change made after seeing another must win, no command may have claimed what was false, and
`history check` and `history rebuild --from-sync` must agree with the export.

    python3 sim.py --seed 17 [--mishaps stale,clock] [--keep] [--verbose]
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

MISHAPS = ["stale", "delete", "clock", "clone", "junk", "dupid", "git"]

ROUTINE = 'routine "Sync"\nhabit water "Glass of water" -> read\nhabit read "Read" -> stretch\nhabit stretch "Stretch"\n'
HABITS = ["water", "read", "stretch"]
# Days the schedule records on: a past week, whatever today is (and a day behind).
DATES = ["2026-11-%02d" % d for d in range(16, 23)]
DAY = 86400
FAKETIME_LIBS = ["/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
                 "/usr/lib/faketime/libfaketime.so.1"]
GIT = ["git", "-c", "user.name=sim", "-c", "user.email=sim@localhost", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
       "-c", "core.autocrlf=false", "-c", "pull.rebase=false"]


def root_dir():
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def routine_bin():
    return os.environ.get("ROUTINE_BIN") or os.path.join(root_dir(), ".build", "debug", "routine")


def faketime_lib():
    for path in FAKETIME_LIBS:
        if os.path.exists(path):
            return path
    return None


def replay_command(seed, mishaps):
    command = "scripts/sync-sim.sh --seed %d --mishaps %s" % (seed, ",".join(mishaps) if mishaps else "none")
    if os.environ.get("ROUTINE_BIN"):
        command = "ROUTINE_BIN=%s %s" % (os.environ["ROUTINE_BIN"], command)
    return command


def digest(data):
    return None if data is None else hashlib.sha1(data).hexdigest()


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def write_new_inode(path, data):
    """Writes a file as Syncthing and most copiers do: a new file renamed over the old one."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = os.path.join(os.path.dirname(path), ".tmp-" + os.path.basename(path))
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def list_files(root):
    out = []
    for base, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            if name.startswith(".tmp-"):
                continue
            out.append(os.path.relpath(os.path.join(base, name), root))
    return sorted(out)


# ----------------------------------------------------------------------------------------------
# Carrying the folder: as Syncthing does (version vectors per file, whole files, conflict copies)


class Entry:
    def __init__(self, vv, hash, partial=False):
        self.vv, self.hash, self.partial = dict(vv), hash, partial

    def copy(self):
        return Entry(self.vv, self.hash, self.partial)


def dominates(x, y):
    return x != y and all(x.get(k, 0) >= v for k, v in y.items())


class Copy:
    """One device's copy of the sync folder, with what the file carrier knows of each file."""

    def __init__(self, cid, root):
        self.id, self.root, self.index = cid, root, {}
        os.makedirs(root, mode=0o700, exist_ok=True)

    def path(self, rel):
        return os.path.join(self.root, rel)


class Syncthing:
    """Copies files between the copies as Syncthing does: every file has a version vector; a
    newer version replaces the file whole (a new inode), a deletion deletes, and two versions
    changed apart keep the newer and a conflict copy of the other. Now and then a file arrives
    cut in the middle of its last line and is completed in place later."""

    name = "syncthing"

    def __init__(self, sim):
        self.sim, self.clock = sim, 0

    def tick(self):
        self.clock += 1
        return self.clock

    def make_copy(self, cid, root):
        return Copy(cid, root)

    def scan(self, c):
        for rel in set(list_files(c.root)) | set(c.index):
            h = digest(read_bytes(c.path(rel)))
            e = c.index.get(rel)
            if e is None and h is None:
                continue
            if e is None or e.hash != h:
                vv = dict(e.vv) if e else {}
                vv[c.id] = self.tick()
                c.index[rel] = Entry(vv, h)

    def transfer(self, a, b, rel, cut_ok):
        ea, eb = a.index.get(rel), b.index.get(rel)
        if ea is None or ea.partial:
            return False
        if eb is not None and eb.vv == ea.vv:
            if eb.partial:
                self.apply(a, b, rel, False)
                return True
            return False
        if eb is None or dominates(ea.vv, eb.vv):
            self.apply(a, b, rel, cut_ok)
            return True
        if dominates(eb.vv, ea.vv):
            return False
        self.conflict(a, b, rel)
        return True

    def apply(self, a, b, rel, cut_ok):
        data = read_bytes(a.path(rel))
        ea = a.index[rel]
        target = b.path(rel)
        if data is None:
            if os.path.lexists(target):
                os.remove(target)
                parent = os.path.dirname(target)
                while parent != b.root and os.path.isdir(parent) and not os.listdir(parent):
                    os.rmdir(parent)
                    parent = os.path.dirname(parent)
            b.index[rel] = ea.copy()
            return
        old = read_bytes(target)
        eb = b.index.get(rel)
        if eb is not None and eb.partial and old is not None and data.startswith(old):
            # The rest of a half-written line, appended where it was cut.
            with open(target, "ab") as f:
                f.write(data[len(old):])
            b.index[rel] = ea.copy()
            self.sim.note("  complete %s in %s" % (rel, b.id))
            return
        if cut_ok and rel.endswith(".jsonl") and self.sim.rng.random() < 0.15:
            last = data.rstrip(b"\n").rfind(b"\n") + 1
            if len(data) - last > 4:
                cut = self.sim.rng.randrange(last + 1, len(data) - 1)
                write_new_inode(target, data[:cut])
                e = ea.copy()
                e.hash, e.partial = digest(data[:cut]), True
                b.index[rel] = e
                self.sim.note("  cut %s in %s at %d of %d" % (rel, b.id, cut, len(data)))
                return
        write_new_inode(target, data)
        b.index[rel] = ea.copy()

    def conflict(self, a, b, rel):
        ea, eb = a.index[rel], b.index[rel]
        merged = {k: max(ea.vv.get(k, 0), eb.vv.get(k, 0)) for k in set(ea.vv) | set(eb.vv)}
        merged[b.id] = self.tick()
        theirs, mine = read_bytes(a.path(rel)), read_bytes(b.path(rel))
        # A change wins over a deletion; between two changes, the later.
        a_wins = mine is None or (theirs is not None and max(ea.vv.values()) > max(eb.vv.values()))
        winner, loser, loser_id = (theirs, mine, a.id) if a_wins else (mine, theirs, b.id)
        if loser is not None and winner is not None:
            stem, ext = os.path.splitext(rel)
            copy = "%s.sync-conflict-20261125-%06d-%s%s" % (stem, self.clock, (loser_id.upper() + "XXXXXXX")[:7], ext)
            write_new_inode(b.path(copy), loser)
            b.index[copy] = Entry({b.id: self.tick()}, digest(loser))
            self.sim.note("  conflict %s in %s: %s" % (rel, b.id, copy))
        if winner is None:
            if os.path.lexists(b.path(rel)):
                os.remove(b.path(rel))
        elif winner is not mine:
            write_new_inode(b.path(rel), winner)
        b.index[rel] = Entry(merged, digest(winner))

    def exchange(self, a, b, cut_ok=True):
        """What copy `a` has reaches copy `b`."""
        self.scan(a)
        self.scan(b)
        changed = False
        for rel in sorted(set(a.index)):
            changed |= self.transfer(a, b, rel, cut_ok)
        return changed

    def full(self, copies):
        for _ in range(6):
            changed = False
            for a in copies:
                for b in copies:
                    if a is not b:
                        changed |= self.exchange(a, b, cut_ok=False)
            if not changed:
                return

    def conflict_copy(self, c):
        """A conflict copy Syncthing keeps of an older version of a journal: its first lines."""
        self.scan(c)
        files = [r for r in list_files(c.root) if r.endswith(".jsonl") and "sync-conflict" not in r]
        if not files:
            return
        rel = self.sim.rng.choice(files)
        data = read_bytes(c.path(rel))
        lines = data.split(b"\n")[:-1] if data else []
        if not lines:
            return
        keep = b"".join(line + b"\n" for line in lines[: self.sim.rng.randint(1, len(lines))])
        stem, ext = os.path.splitext(rel)
        copy = "%s.sync-conflict-20261124-%06d-OLDCOPY%s" % (stem, self.tick(), ext)
        write_new_inode(c.path(copy), keep)
        self.sim.note("  conflict copy %s in %s" % (copy, c.id))

    def clone_copy(self, c, cid, root):
        shutil.copytree(c.root, root, symlinks=True)
        n = Copy(cid, root)
        self.scan(c)
        n.index = {rel: e.copy() for rel, e in c.index.items()}
        return n


class Git:
    """Carries the folder through git: a bare repository and a clone per device, whose work
    tree holds the sync folder. An exchange commits everything, merges (`pull --no-rebase`,
    journals merged as the union of their lines, as `merge=union` does) and pushes."""

    name = "git"

    def __init__(self, sim):
        self.sim = sim
        self.bare = os.path.join(sim.work, "remote.git")
        self.git(["init", "-q", "--bare", self.bare], sim.work)
        seed = os.path.join(sim.work, "seed-clone")
        self.git(["clone", "-q", self.bare, seed], sim.work)
        with open(os.path.join(seed, ".gitattributes"), "w") as f:
            f.write("*.jsonl merge=union\n")
        self.git(["add", "-A"], seed)
        self.git(["commit", "-q", "-m", "start"], seed)
        self.git(["push", "-q", "origin", "HEAD:main"], seed)

    def git(self, args, cwd, check=True):
        r = subprocess.run(GIT + args, cwd=cwd, capture_output=True, text=True, env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))
        if check and r.returncode != 0:
            raise RuntimeError("git %s: %s%s" % (" ".join(args), r.stdout, r.stderr))
        return r

    def make_copy(self, cid, root):
        repo = os.path.dirname(root)
        self.git(["clone", "-q", self.bare, repo], self.sim.work)
        return Copy(cid, root)

    def sync(self, c, push=True):
        repo = os.path.dirname(c.root)
        self.git(["add", "-A"], repo)
        # Nothing to commit is no failure.
        self.git(["commit", "-q", "-m", c.id], repo, check=False)
        pulled = self.git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], repo, check=False)
        if pulled.returncode != 0:
            # A deletion on one side and a change on the other: the change is kept.
            status = self.git(["status", "--porcelain"], repo).stdout.splitlines()
            for line in status:
                if line[:2] in ("UU", "AA", "DU", "UD", "AU", "UA", "DD"):
                    rel = line[3:]
                    if os.path.exists(os.path.join(repo, rel)):
                        self.git(["add", "--", rel], repo)
                    else:
                        self.git(["rm", "-q", "--", rel], repo)
            self.git(["commit", "-q", "--no-edit", "-m", "merge"], repo)
            self.sim.note("  git merge conflict resolved in %s" % c.id)
        if push:
            self.git(["push", "-q", "origin", "HEAD:main"], repo)

    def exchange(self, a, b, cut_ok=True):
        self.sync(a)
        self.sync(b)
        return True

    def full(self, copies):
        # The last has everything once each has pushed in turn; the others then pull it.
        for c in copies:
            self.sync(c)
        for c in copies[:-1]:
            self.sync(c, push=False)

    def conflict_copy(self, c):
        pass

    def clone_copy(self, c, cid, root):
        shutil.copytree(os.path.dirname(c.root), os.path.dirname(root), symlinks=True)
        return Copy(cid, root)


# ----------------------------------------------------------------------------------------------
# Devices and what their commands claimed


class Device:
    def __init__(self, sim, name, copy, parent=None, since=None):
        self.sim, self.name, self.copy = sim, name, copy
        self.home = os.path.join(sim.work, "home-" + name)
        self.offset = 0
        self.parent, self.since = parent, since
        self.trash = {}
        self.offsets = [(0, 0)]
        for sub in [".config", ".local/share", ".local/state", ".cache"]:
            os.makedirs(os.path.join(self.home, sub), exist_ok=True)

    @property
    def history(self):
        return os.path.join(self.home, ".local", "share", "routine", "history.sqlite")

    def env(self):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home, "TZ": "UTC", "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"), "XDG_DATA_HOME": os.path.join(self.home, ".local/share"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local/state"), "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
        }
        if self.clock():
            # File times stay the kernel's, as a wrong clock leaves them.
            env.update({"NO_FAKE_STAT": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1"})
        return env

    def clock(self):
        """The device's clock, in seconds from the true one."""
        return self.offset + self.sim.final_offset

    def prefix(self):
        """Debian's faketime, which starts the command with libfaketime preloaded. (Preloaded by
        hand, without the wrapper's FAKETIME_SHARED, the Swift binary did not see its arguments.)"""
        return ["faketime", "-f", "%+d" % self.clock()] if self.clock() else []


class Op:
    """One change a command reported, on one register: ('exist', run), ('step', run, habit) or
    ('day', date). `effect` is what it set; `t` orders ops; `window` counts full exchanges."""

    def __init__(self, sim, device, register, effect, what):
        self.device, self.register, self.effect, self.what = device, register, effect, what
        self.t, self.window = sim.t, sim.window
        self.step = sim.step


class Failure(Exception):
    pass


def parse_export(text):
    runs, days = {}, {}
    for line in text.splitlines():
        if not line:
            continue
        obj = json.loads(line)
        if "dayOff" in obj:
            days[obj["dayOff"]] = line
        else:
            runs[(obj["date"], obj["started"])] = obj
    return runs, days


def step_results(run):
    """The result of each habit, as the run's newest step of it holds it."""
    out = {}
    for step in run.get("steps", []):
        out[step["node"]] = step["result"]
    return out


class Sim:
    def __init__(self, seed, mishaps, verbose=False, keep=False):
        self.seed, self.mishaps, self.verbose, self.keep = seed, list(mishaps), verbose, keep
        self.rng = random.Random(seed)
        self.bin = routine_bin()
        self.faketime = "clock" in mishaps
        if self.faketime:
            if not faketime_lib() or not shutil.which("faketime"):
                raise Failure("the clock mishap needs Debian's faketime (apt-get install -y faketime)")
            linked = subprocess.run(["ldd", self.bin], capture_output=True, text=True)
            if linked.returncode != 0 or "not a dynamic executable" in linked.stdout + linked.stderr or "statically linked" in linked.stdout:
                raise Failure("the clock mishap needs a dynamically linked binary (LD_PRELOAD of libfaketime): %s is not" % self.bin)
        self.work = tempfile.mkdtemp(prefix="sync-sim-%d-" % seed)
        self.file = os.path.join(self.work, "sync.rt")
        with open(self.file, "w") as f:
            f.write(ROUTINE)
        self.answers = {}
        self.t, self.window, self.step = 0, 0, 0
        self.final_offset = 0
        self.ops, self.failures, self.log = [], [], []
        self.messages = []
        self.registry = set()
        self.max_offsets = [(0, 0)]
        use_git = "git" in self.mishaps and (self.mishaps == ["git"] or self.rng.random() < 0.3)
        self.carrier = Git(self) if use_git else Syncthing(self)
        self.devices = []
        self.clones = 0
        self.snaps = 0

    # -- running the binary

    def note(self, text):
        self.log.append(text)
        if self.verbose:
            print(text, file=sys.stderr)

    def run(self, device, args, expect=(0,)):
        self.t += 1
        argv = device.prefix() + [self.bin] + [self.file if a == "FILE" else a for a in args]
        # Ids from the seed and the command's number: a replay of the seed makes the same ones.
        env = dict(device.env(), ROUTINE_TEST_IDS="%d-%d" % (self.seed, self.t))
        for _ in range(3):
            r = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=self.work, stdin=subprocess.DEVNULL,
                               timeout=120)
            # The faketime wrapper names a semaphore after its own process id, and refuses to
            # start when one of that name was left by a wrapper killed earlier: the command did
            # not run, so it is started again (under another process id).
            if not (r.returncode != 0 and r.stderr.startswith("faketime: sem_open")):
                break
        shown = " ".join(args).replace(self.work, "$W")
        out = r.stdout
        if args[:2] == ["history", "export"]:
            out = "%d lines" % len(out.splitlines())
        self.note("%s$ routine %s -> %d%s%s" % (device.name, shown, r.returncode,
                                                 ("\n    out: " + out.strip().replace("\n", "\n         ")) if out.strip() else "",
                                                 ("\n    err: " + r.stderr.strip().replace("\n", "\n         ")) if r.stderr.strip() else ""))
        self.messages.append((device.name, shown, r.stdout + r.stderr, self.t))
        if expect is not None and r.returncode not in expect:
            self.fail("%s: `routine %s` exited %d: %s" % (device.name, shown, r.returncode, (r.stderr or r.stdout).strip()[:400]))
        if "Fatal error" in r.stderr or r.returncode < 0 or r.returncode == 134:
            self.fail("%s: `routine %s` crashed: %s" % (device.name, shown, r.stderr.strip()[:400]))
        return r

    def fail(self, text):
        self.failures.append(text)
        self.note("FAIL " + text)

    def export(self, device):
        r = self.run(device, ["history", "export"])
        return r.stdout

    # -- devices

    def add_device(self, name):
        cid = name
        root = os.path.join(self.work, "copy-" + name, "journals")
        os.makedirs(os.path.dirname(root), exist_ok=True)
        if isinstance(self.carrier, Git):
            copy = self.carrier.make_copy(cid, root)
            os.makedirs(root, mode=0o700, exist_ok=True)
        else:
            copy = self.carrier.make_copy(cid, root)
        d = Device(self, name, copy)
        self.devices.append(d)
        return d

    def set_offset(self, d, offset):
        d.offset = offset
        d.offsets.append((self.t, offset))
        self.max_offsets.append((self.t, max(x.offset for x in self.devices)))

    # -- causality

    def held_possible(self, p, q):
        """Whether q's device may have held p's event as dated more than a day ahead of it:
        p's stamp may carry the largest offset any device had up to p, and q's device read at
        its smallest offset since p."""
        ahead = max(o for t, o in self.max_offsets if t <= p.t)
        d = q.device
        mine = [o for t, o in d.offsets if t <= q.t]
        since = [o for t, o in d.offsets if p.t <= t <= q.t] + [mine[-1] if mine else 0]
        # Its offset when p was made, too.
        before = [o for t, o in d.offsets if t <= p.t]
        if before:
            since.append(before[-1])
        return ahead - min(since) > DAY - 3600

    def before(self, p, q):
        """Whether p happened before q as the devices know: the same device, a clone of p's
        device made after p, or a full exchange in between."""
        if p.t >= q.t:
            return False
        if p.device is q.device:
            return True
        d = q.device
        while d.parent is not None:
            if d.parent is p.device and p.t < d.since:
                return True
            d = d.parent
        return p.window < q.window and not self.held_possible(p, q)

    def expectation(self, register):
        ops = [o for o in self.ops if o.register == register]
        if not ops:
            return None, []
        maximal = [o for o in ops if not any(self.before(o, q) for q in ops if q is not o)]
        if register[0] == "step":
            # A run's content is one register (docs/sync.md): a change of another of its steps
            # made apart from these may carry this step as it was, and win.
            content = [o for o in self.ops if o.register[0] == "step" and o.register[1] == register[1]]
            if any(not self.before(q, m) and not self.before(m, q) for m in maximal for q in content if q is not m):
                return set(), maximal
        return {o.effect for o in maximal}, maximal

    # -- operations

    def claim(self, device, register, effect, what):
        self.ops.append(Op(self, device, register, effect, what))

    def new_runs(self, before, after, date):
        """The runs of `after`, those no command made before (each is noted as made), and those
        changed since `before` (without it, none)."""
        b, _ = parse_export(before) if before is not None else ({}, {})
        a, _ = parse_export(after)
        created = [k for k in a if k not in b and k not in self.registry]
        changed = [k for k in a if k in b and a[k] != b[k]] if before is not None else []
        for k in created:
            self.registry.add(k)
        return a, created, changed

    def op_done(self, d):
        habit, date = self.rng.choice(HABITS), self.rng.choice(DATES)
        r = self.run(d, ["done", "FILE", habit, "--date", date], expect=(0, 1))
        runs, created, changed = self.new_runs(None, self.export(d), date)
        if r.returncode != 0:
            return
        mine = [k for k in created + changed if k[0] == date and step_results(runs[k]).get(habit) == "done"]
        if not mine:
            self.fail("%s: `done %s --date %s` exited 0 but its history has no new log of it" % (d.name, habit, date))
            return
        k = mine[0]
        self.claim(d, ("exist", k), True, "log of %s on %s" % (habit, date))
        self.claim(d, ("step", k, habit), "done", "log of %s on %s" % (habit, date))

    def op_run(self, d):
        date = self.rng.choice(DATES)
        answers = [self.rng.choice("dds") for _ in HABITS]
        path = os.path.join(self.work, "answers-" + "".join(answers))
        with open(path, "w") as f:
            f.write("\n".join(answers) + "\n")
        r = self.run(d, ["run", "FILE", "--date", date, "--answers", path], expect=(0, 1))
        runs, created, changed = self.new_runs(None, self.export(d), date)
        said_not = "not being recorded" in r.stdout + r.stderr
        mine = [k for k in created if k[0] == date and runs[k].get("kind") != "log"]
        if said_not and mine:
            self.fail("%s: `run --date %s` said the run is not being recorded, and it is" % (d.name, date))
        if r.returncode != 0 or said_not:
            return
        if not mine:
            self.fail("%s: `run --date %s` exited 0 but its history has no new run" % (d.name, date))
            return
        k = mine[0]
        self.claim(d, ("exist", k), True, "run on %s" % date)
        results = step_results(runs[k])
        for habit in HABITS:
            if habit in results:
                self.claim(d, ("step", k, habit), results[habit], "run on %s" % date)

    def op_amend(self, d):
        before = self.export(d)
        runs, _ = parse_export(before)
        if runs and self.rng.random() < 0.8:
            date = self.rng.choice(sorted({k[0] for k in runs}))
        else:
            date = self.rng.choice(DATES)
        habit = self.rng.choice(HABITS)
        value = self.rng.choice(["done", "skipped"])
        r = self.run(d, ["amend", "FILE", date, habit, value], expect=(0, 1))
        after = self.export(d)
        runs, created, changed = self.new_runs(before, after, date)
        if r.returncode != 0:
            return
        mine = [k for k in changed + created if k[0] == date and step_results(runs[k]).get(habit) == value]
        if not mine and any(k[0] == date and step_results(run).get(habit) == value for k, run in runs.items()):
            return  # It held that already.
        if not mine:
            self.fail("%s: `amend %s %s %s` exited 0 but no run of that day holds it" % (d.name, date, habit, value))
            return
        k = mine[0]
        if k in created:
            self.claim(d, ("exist", k), True, "log added by amending %s on %s" % (habit, date))
        self.claim(d, ("step", k, habit), value, "%s amended to %s on %s" % (habit, value, date))

    def op_off(self, d, date=None, undo=None):
        date = date or self.rng.choice(DATES[:4])
        undo = self.rng.random() < 0.45 if undo is None else undo
        args = ["off", "FILE", date] + (["--undo"] if undo else ["--reason", "away"])
        r = self.run(d, args, expect=(0, 1))
        if r.returncode != 0:
            return
        _, days = parse_export(self.export(d))
        text = r.stdout + r.stderr
        m = re.search(r"(recorded|removed) (\d+) days? off", text)
        if m and int(m.group(2)) > 0:
            if undo and date in days:
                self.fail("%s: `off %s --undo` said %r and the day off is still there" % (d.name, date, m.group(0)))
            if not undo and date not in days:
                self.fail("%s: `off %s` said %r and there is no day off" % (d.name, date, m.group(0)))
        self.claim(d, ("day", date), not undo, ("undo of day off " if undo else "day off ") + date)

    def op_delete(self, d):
        before = self.export(d)
        runs, _ = parse_export(before)
        if not runs:
            return
        k = self.rng.choice(sorted(runs))
        run = runs[k]
        con = sqlite3.connect(d.history, isolation_level=None, timeout=10)
        try:
            row = con.execute("SELECT id FROM run WHERE routine = ? AND date = ? AND startedAt = ?", (run["routine"], k[0], k[1])).fetchone()
            if row is None:
                self.fail("%s: the run %s of the export is not in the history's table" % (d.name, k))
                return
            rid = row[0]
            saved = {}
            for table, key in [("run", "id"), ("step", "runId"), ("amendment", "runId")]:
                cur = con.execute("SELECT * FROM %s WHERE %s = ?" % (table, key), (rid,))
                saved[table] = ([c[0] for c in cur.description], cur.fetchall())
            # What the studio's delete does (HistoryStore.deleteRun): the sync triggers see it.
            con.execute("BEGIN IMMEDIATE")
            con.execute("DELETE FROM amendment WHERE runId = ?", (rid,))
            con.execute("DELETE FROM step WHERE runId = ?", (rid,))
            con.execute("DELETE FROM run WHERE id = ?", (rid,))
            con.execute("COMMIT")
        finally:
            con.close()
        self.t += 1
        self.note("%s: deleted the run %s %s" % (d.name, k[0], k[1]))
        d.trash[k] = saved
        after, _ = parse_export(self.export(d))
        if k in after:
            self.fail("%s: the run %s %s deleted, and its history still holds it" % (d.name, k[0], k[1]))
        self.claim(d, ("exist", k), False, "deletion of the run %s %s" % k)

    def op_restore(self, d):
        if not d.trash:
            return
        k = self.rng.choice(sorted(d.trash))
        runs, _ = parse_export(self.export(d))
        if k in runs:
            return
        saved = d.trash.pop(k)
        con = sqlite3.connect(d.history, isolation_level=None, timeout=10)
        try:
            con.execute("BEGIN IMMEDIATE")
            columns, rows = saved["run"]
            keep = [i for i, c in enumerate(columns) if c != "id"]
            con.execute("INSERT INTO run (%s) VALUES (%s)" % (", ".join('"%s"' % columns[i] for i in keep), ", ".join("?" * len(keep))),
                        [rows[0][i] for i in keep])
            rid = con.execute("SELECT last_insert_rowid()").fetchone()[0]
            for table in ["step", "amendment"]:
                columns, rows = saved[table]
                keep = [i for i, c in enumerate(columns) if c != "id" or table == "step"]
                for row in rows:
                    values = [rid if columns[i] == "runId" else row[i] for i in keep]
                    con.execute("INSERT INTO %s (%s) VALUES (%s)" % (table, ", ".join('"%s"' % columns[i] for i in keep), ", ".join("?" * len(keep))),
                                values)
            con.execute("COMMIT")
        except sqlite3.Error as e:
            con.execute("ROLLBACK")
            self.note("%s: cannot put back %s: %s" % (d.name, k, e))
            return
        finally:
            con.close()
        self.t += 1
        self.note("%s: put back the run %s %s" % (d.name, k[0], k[1]))
        after, _ = parse_export(self.export(d))
        if k not in after:
            self.fail("%s: the run %s %s put back, and its history lacks it" % (d.name, k[0], k[1]))
        self.claim(d, ("exist", k), True, "restore of the run %s %s" % k)

    def op_sync(self, d):
        self.run(d, ["sync"])

    def operation(self):
        d = self.rng.choice(self.devices)
        kind = self.rng.choices(["done", "run", "amend", "off", "delete", "restore", "sync"], [5, 3, 3, 4, 2, 2, 1])[0]
        getattr(self, "op_" + kind)(d)

    # -- exchanges and full exchanges

    def exchange(self):
        a, b = self.rng.sample(self.devices, 2)
        self.note("exchange %s -> %s" % (a.name, b.name))
        self.carrier.exchange(a.copy, b.copy)
        if self.rng.random() < 0.1:
            self.carrier.conflict_copy(b.copy)

    def barrier(self, rounds=3):
        """Full exchanges: every copy gets everything, and every device syncs; two or three
        times, so that what a device writes again at one (healing its journal, or under a new
        id) reaches all."""
        self.note("full exchange")
        for _ in range(rounds):
            self.carrier.full([d.copy for d in self.devices])
            for d in self.devices:
                self.run(d, ["sync"])
        self.carrier.full([d.copy for d in self.devices])
        self.window += 1

    # -- mishaps

    def own_folder(self, d, copy=None):
        """The device's own folder in a copy: the folder holding the journal its name is in."""
        copy = copy or d.copy
        for rel in list_files(copy.root):
            if not rel.endswith(".jsonl") or "/" not in rel:
                continue
            data = read_bytes(copy.path(rel)) or b""
            if (b'"type":"device","name":' + json.dumps(d.name).encode()) in data:
                return rel.split("/")[0]
        return None

    def snapshot(self, d):
        self.snaps += 1
        snap = os.path.join(self.work, "snap-%s-%d" % (d.name, self.snaps))
        shutil.copytree(d.copy.root, snap, symlinks=True)
        self.snapshots.setdefault(d.name, []).append(snap)

    def mishap_stale(self):
        candidates = [d for d in self.devices if self.snapshots.get(d.name)]
        if not candidates:
            return
        d = self.rng.choice(candidates)
        snap = self.rng.choice(self.snapshots[d.name])
        if self.rng.random() < 0.5:
            # A backup of the whole folder put back over it.
            self.note("mishap: %s's copy of the folder replaced by a backup (%s)" % (d.name, os.path.basename(snap)))
            for rel in list_files(d.copy.root):
                os.remove(d.copy.path(rel))
            for rel in list_files(snap):
                write_new_inode(d.copy.path(rel), read_bytes(os.path.join(snap, rel)))
        else:
            # An older copy of the device's own journals copied the wrong way.
            own = self.own_folder(d)
            if own is None:
                return
            files = [rel for rel in list_files(snap) if rel.startswith(own + "/")]
            self.note("mishap: %s's own journals replaced by older copies: %s" % (d.name, files))
            for rel in files:
                write_new_inode(d.copy.path(rel), read_bytes(os.path.join(snap, rel)))

    def mishap_delete(self):
        d = self.rng.choice(self.devices)
        where = d if self.rng.random() < 0.7 else self.rng.choice(self.devices)
        own = self.own_folder(d, where.copy)
        if own is None:
            return
        self.note("mishap: %s's own folder deleted in %s's copy" % (d.name, where.name))
        shutil.rmtree(where.copy.path(own))

    def mishap_clock(self):
        d = self.rng.choice(self.devices)
        offset = self.rng.choice([3600, -3600, 23 * 3600, -23 * 3600, 25 * 3600, -25 * 3600])
        self.note("mishap: %s's clock %+d s" % (d.name, offset))
        self.set_offset(d, offset)
        self.clock_resets.append((self.step + self.rng.randint(2, 8), d))
        # A day off taken on one device, then, once the other has seen it, undone there: the
        # undo must win whichever clock is wrong (unless the day off is dated more than a day
        # ahead of the second device, which holds it, not having seen it).
        other = self.rng.choice([x for x in self.devices if x is not d])
        first, second = (d, other) if self.rng.random() < 0.5 else (other, d)
        date = self.rng.choice(DATES[:4])
        self.op_off(first, date, undo=False)
        self.followups.append((self.window, lambda: self.op_off(second, date, undo=True)))

    def mishap_clone(self):
        if self.clones:
            return
        d = self.rng.choice([x for x in self.devices if x.parent is None])
        name = d.name + "2"
        self.clones += 1
        root = os.path.join(self.work, "copy-" + name, "journals")
        copy = self.carrier.clone_copy(d.copy, name, root)
        clone = Device(self, name, copy, parent=d, since=self.t)
        shutil.rmtree(clone.home)
        shutil.copytree(d.home, clone.home, symlinks=True)
        clone.offset, clone.offsets = d.offset, list(d.offsets)
        self.devices.append(clone)
        self.note("mishap: %s's home copied to a new machine, %s" % (d.name, name))
        # On the new machine the folder is elsewhere: it joins it again, under the same name.
        self.run(clone, ["sync", "init", copy.root, "--device", d.name])
        # Both machines record before the copies meet.
        self.op_done(d)
        self.op_done(clone)

    def mishap_junk(self):
        where = self.rng.choice(self.devices)
        files = [r for r in list_files(where.copy.root) if r.endswith(".jsonl")]
        if not files:
            return
        rel = self.rng.choice(files)
        junk = self.rng.choice([b"not json\n", b'{"v":1,"id":"0123"}\n', b"\n", b"# tidied by hand\n"])
        path = where.copy.path(rel)
        data = read_bytes(path) or b""
        lines = data.split(b"\n")[:-1]
        at = self.rng.randint(0, len(lines))
        new = b"".join(line + b"\n" for line in lines[:at]) + junk + b"".join(line + b"\n" for line in lines[at:])
        if data and not data.endswith(b"\n"):
            new += data[data.rfind(b"\n") + 1:]
        self.note("mishap: a junk line %r put in %s's %s at line %d" % (junk, where.name, rel, at + 1))
        with open(path, "wb") as f:
            f.write(new)
        self.junk_removals.append((self.step + self.rng.randint(1, 6), where, rel, junk))

    def mishap_dupid(self):
        """A journal line edited by hand, or a copy of it edited: two lines with one event id and
        different content. Only a step's seconds change, which no command here reports."""
        where = self.rng.choice(self.devices)
        files = [r for r in list_files(where.copy.root) if r.endswith(".jsonl") and "sync-conflict" not in r]
        candidates = []
        for rel in files:
            for n, line in enumerate((read_bytes(where.copy.path(rel)) or b"").split(b"\n")):
                if b'"type":"run"' in line and b'"seconds":null' in line:
                    candidates.append((rel, n, line))
        if not candidates:
            return
        rel, n, line = self.rng.choice(candidates)
        edited = line.replace(b'"seconds":null', b'"seconds":7', 1)
        path = where.copy.path(rel)
        if self.rng.random() < 0.5:
            self.note("mishap: line %d of %s's %s edited by hand (one id, other content)" % (n + 1, where.name, rel))
            lines = read_bytes(path).split(b"\n")
            lines[n] = edited
            write_new_inode(path, b"\n".join(lines))
        else:
            stem, ext = os.path.splitext(rel)
            copy = "%s.sync-conflict-20261123-000000-EDITED%s" % (stem, ext)
            self.note("mishap: an edited copy of line %d of %s's %s in %s" % (n + 1, where.name, rel, copy))
            write_new_inode(where.copy.path(copy), edited + b"\n")

    def remove_junk(self, where, rel, junk):
        path = where.copy.path(rel)
        data = read_bytes(path)
        if data is None:
            return
        # The junk as a whole line, where a person would see it.
        at = 0 if data.startswith(junk) else data.find(b"\n" + junk) + 1
        if at == 0 and not data.startswith(junk):
            return
        in_place = self.rng.random() < 0.5
        own = b'"type":"device","name":"%s"' % where.name.encode() in data
        if junk == b"\n" and in_place and own and self.rng.random() < 0.5:
            # The wrong line break taken out, by an editor saving into the same file: two of
            # the device's own events joined on one unreadable line, the file of its old size.
            at = data.find(b"\n")
            self.note("mishap: the first line break of %s's %s taken out instead (two lines joined, in place)" % (where.name, rel))
        else:
            self.note("mishap: the junk line removed from %s's %s" % (where.name, rel))
        data = data[:at] + data[at + len(junk):]
        if not in_place:
            write_new_inode(path, data)
        else:
            with open(path, "r+b") as f:
                f.write(data)
                f.truncate()

    # -- the schedule

    def schedule(self):
        steps = self.rng.randint(12, 16)
        kinds = [m for m in self.mishaps if m != "git"]
        plan = {}
        if kinds:
            for _ in range(self.rng.randint(1, 3)):
                plan.setdefault(self.rng.randint(2, steps - 2), []).append(self.rng.choice(kinds))
        barriers = {steps // 2}
        return steps, plan, barriers

    def play(self):
        self.snapshots, self.clock_resets, self.junk_removals, self.followups = {}, [], [], []
        names = ["laptop", "desk", "phone"]
        for name in names:
            self.add_device(name)
        steps, plan, barriers = self.schedule()
        self.note("seed %d, mishaps %s, carried by %s, %d steps, mishaps at %s" % (
            self.seed, ",".join(self.mishaps) or "none", self.carrier.name, steps, plan))
        # Joining: the first device records a little before it joins.
        first = self.devices[0]
        if self.rng.random() < 0.5:
            self.op_done(first)
        for d in self.devices:
            self.run(d, ["sync", "init", d.copy.root, "--device", d.name])
            self.exchange_all_from(d)
        self.barrier(1)
        for step in range(steps):
            self.step = step
            for due, d in [x for x in self.clock_resets if x[0] == step]:
                self.note("%s's clock set right" % d.name)
                self.set_offset(d, 0)
            for due, where, rel, junk in [x for x in self.junk_removals if x[0] == step]:
                self.remove_junk(where, rel, junk)
            if self.rng.random() < 0.3:
                self.snapshot(self.rng.choice(self.devices))
            for kind in plan.get(step, []):
                getattr(self, "mishap_" + kind)()
            roll = self.rng.random()
            if roll < 0.65:
                self.operation()
            elif roll < 0.95:
                self.exchange()
            else:
                self.exchange()
                self.operation()
            if step in barriers:
                self.barrier(2)
            self.follow_up()
        if self.followups:
            self.barrier(2)
            self.follow_up()
        # The end: clocks right (and two days on, so nothing is still dated ahead), junk gone,
        # and a few full exchanges.
        for _, where, rel, junk in self.junk_removals:
            self.remove_junk(where, rel, junk)
        for d in self.devices:
            if d.offset:
                self.set_offset(d, 0)
        if self.faketime:
            self.final_offset = 2 * DAY
        self.barrier()
        self.check()

    def follow_up(self):
        """The changes a mishap planned for after the next full exchange."""
        due = [f for f in self.followups if f[0] < self.window]
        self.followups = [f for f in self.followups if f[0] >= self.window]
        for _, action in due:
            action()

    def exchange_all_from(self, d):
        for other in self.devices:
            if other is not d:
                self.carrier.exchange(d.copy, other.copy, cut_ok=False)

    # -- the checks

    def check(self):
        exports = {d.name: self.export(d) for d in self.devices}
        reference = exports[self.devices[0].name]
        for name, text in exports.items():
            if text != reference:
                self.fail("the exports of %s and %s differ:\n%s" % (self.devices[0].name, name, diff(reference, text, self.work)))
        parsed = {name: parse_export(text) for name, text in exports.items()}
        lost = False
        checked = set()
        for op in self.ops:
            register = op.register
            if register in checked:
                continue
            checked.add(register)
            effects, maximal = self.expectation(register)
            if len(effects) != 1:
                continue
            effect = next(iter(effects))
            by = ", ".join("%s's %s (command %d)" % (o.device.name, o.what, o.t) for o in maximal)
            wrong = {}
            for name, (runs, days) in parsed.items():
                if register[0] == "exist" and (register[1] in runs) != effect:
                    wrong[name] = "there" if register[1] in runs else "missing"
                elif register[0] == "step" and register[1] in runs and step_results(runs[register[1]]).get(register[2]) != effect:
                    wrong[name] = "%r" % step_results(runs[register[1]]).get(register[2])
                elif register[0] == "day" and (register[1] in days) != effect:
                    wrong[name] = "off" if register[1] in days else "not off"
            if not wrong:
                continue
            where = ", ".join("%s on %s" % (state, name) for name, state in wrong.items())
            if register[0] == "exist":
                lost |= effect
                self.fail("%s: %s; the run is %s" % ("lost" if effect else "come back", by, where))
            elif register[0] == "step":
                self.fail("wrong step: %s; the step holds %s" % (by, where))
            else:
                lost |= effect
                self.fail("wrong day off: %s; the day is %s" % (by, where))
        if lost:
            for name, command, text, t in self.messages:
                if "nothing either wrote is lost" in text:
                    self.fail("%s: `routine %s` said nothing either wrote is lost, and something was" % (name, command))
        for d in self.devices:
            r = self.run(d, ["history", "check"], expect=None)
            if r.returncode != 0:
                self.fail("%s: history check failed: %s" % (d.name, (r.stdout + r.stderr).strip()[:400]))
        # Every copy of the folder holds the same files now: a rebuild from one of them.
        for d in [self.rng.choice(self.devices)]:
            out = os.path.join(self.work, "rebuilt-%s.sqlite" % d.name)
            rebuilt = self.run(d, ["history", "rebuild", out, "--from-sync"], expect=None)
            if rebuilt.returncode != 0:
                self.fail("%s: history rebuild --from-sync failed: %s" % (d.name, rebuilt.stderr.strip()[:400]))
                continue
            text = self.run(d, ["history", "export", "--history", out]).stdout
            if text != exports[d.name]:
                self.fail("%s: history rebuild --from-sync differs from the export:\n%s" % (d.name, diff(exports[d.name], text, self.work)))

    def close(self):
        if not self.keep:
            shutil.rmtree(self.work, ignore_errors=True)


def diff(a, b, work):
    la, lb = set(a.replace(work, "$W").splitlines()), set(b.replace(work, "$W").splitlines())
    out = ["    - " + line[:240] for line in sorted(la - lb)] + ["    + " + line[:240] for line in sorted(lb - la)]
    return "\n".join(out[:12]) + ("\n    ..." if len(out) > 12 else "")


def mishaps_of(seed, selected):
    """The mishaps a seed plays: those selected ('all': every kind; 'none': none)."""
    if not selected or selected == ["none"]:
        return []
    if selected == ["all"]:
        return list(MISHAPS)
    return selected


def simulate(seed, mishaps, verbose=False, keep=False):
    """Plays one seed; returns (failures, log). Raises nothing for a failure of the engine."""
    sim = Sim(seed, mishaps, verbose=verbose, keep=keep)
    try:
        sim.play()
    except Exception as e:  # A crash of the simulation is a failure of this seed, with its log.
        import traceback
        sim.fail("the simulation stopped: %s\n%s" % (e, traceback.format_exc()))
    finally:
        sim.close()
    return sim.failures, sim.log, sim.work


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--mishaps", default="all", help="comma-separated: %s; or all, or none" % ",".join(MISHAPS))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    selected = [m for m in args.mishaps.split(",") if m]
    for m in selected:
        if m not in MISHAPS + ["all", "none"]:
            parser.error("unknown mishap %r" % m)
    mishaps = mishaps_of(args.seed, selected)
    failures, log, work = simulate(args.seed, mishaps, verbose=args.verbose, keep=args.keep)
    if failures:
        print("\n".join(log), file=sys.stderr)
        print("\nseed %d failed (%s):\n%s\nreplay: %s" % (args.seed, ",".join(mishaps) or "none", "\n".join(failures),
                                                          replay_command(args.seed, mishaps)), file=sys.stderr)
        if args.keep:
            print("work folder: %s" % work, file=sys.stderr)
        sys.exit(1)
    print("seed %d passed (%s)" % (args.seed, ",".join(mishaps) or "none"))


if __name__ == "__main__":
    main()
