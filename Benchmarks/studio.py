"""Times `routine studio` with a real browser (headless Chromium through selenium):
a file saved by another process to the page redrawn, POST /api/edit (connect) to its answer,
the first page load to interactive, and the server's memory over 1,000 edits.
Run by Benchmarks/studio.sh, which prints a Markdown table.

Every measured change gives the routine a shape it has not had in the last few changes, so
that Graphviz lays out each one: the studio keeps the last layouts, and a benchmark that went
back and forth between two shapes would time the cache, not the layout. The server's own
timing of each phase (its Server-Timing header) says how much of an edit was `dot`."""

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROUTINE = os.environ["ROUTINE"]
TOKEN = "0123456789abcdef0123456789abcdef"
ROUNDS = int(os.environ.get("ROUNDS", "30"))
EDITS = int(os.environ.get("EDITS", "1000"))

# Records when each state has been painted: a frame after the page drew it.
PAINTED = """
const studio = window.studio, show = studio.show.bind(studio);
studio.show = (state) => {
  show(state);
  requestAnimationFrame(() => setTimeout(() => {
    window.studioPainted = { version: state.version, at: performance.timeOrigin + performance.now() };
  }));
};
"""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def children(pid):
    """The processes any thread of `pid` started (the studio's `dot`)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
        except OSError:
            pass
    return found


class Client:
    """The API over one kept-alive connection, as a page's fetches use it."""

    def __init__(self, port):
        self.origin = f"http://127.0.0.1:{port}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"Authorization": f"Bearer {TOKEN}", "Origin": self.origin, "Content-Type": "application/json"}

    def call(self, method, route, body=None):
        """The answer's JSON, and the server's phases in milliseconds by name. `self.took` is
        the time from sending the request to the answer's last byte, its parsing left out."""
        started = time.perf_counter()
        self.connection.request(method, route, body=json.dumps(body) if body else None, headers=self.headers)
        answer = self.connection.getresponse()
        raw = answer.read()
        self.took = (time.perf_counter() - started) * 1000
        data = json.loads(raw)
        phases = {}
        for part in (answer.getheader("Server-Timing") or "").split(","):
            name, _, duration = part.strip().partition(";dur=")
            if duration:
                phases[name] = float(duration)
        return data, phases

    def version(self):
        return self.call("GET", "/api/routine")[0]["version"]


def measure(driver, path, label):
    text = open(path).read()
    folder = tempfile.mkdtemp()
    file = os.path.join(folder, "routine.rt")
    # Habits of the benchmark's own: bench-a leads to any card without making a cycle.
    base = text + '\nhabit bench-a "Benchmark A"\nhabit bench-b "Benchmark B"\n'
    open(file, "w").write(base)
    env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=folder)
    server = subprocess.Popen([ROUTINE, "studio", "--no-history", file], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    address = server.stdout.readline().strip()
    client = Client(int(address.split(":")[2].split("/")[0]))
    targets = [node["id"] for node in client.call("GET", "/api/routine")[0]["nodes"] if not node["id"].startswith("bench")]

    # First load to interactive: the cards drawn, in the page's own clock.
    loads = []
    for _ in range(5):
        driver.get(address)
        state = None
        while not state:
            state = driver.execute_script("return window.studioRedrawn")
            time.sleep(0.01)
        loads.append(state["sinceLoad"])
    driver.execute_script(PAINTED)

    # A save by another process to the redraw: the wall clock of the write against the page's.
    saves, painted, parts = [], [], {}
    for k in range(ROUNDS):
        before = driver.execute_script("return window.studioRedrawn.version")
        content = base + f'habit bench-c "Saved {k}" -> {targets[k % len(targets)]}\n'
        written = time.time() * 1000
        with open(file + ".tmp", "w") as out:
            out.write(content)
        os.replace(file + ".tmp", file)
        # The times are the page's own; asking seldom keeps chromedriver off the CPU `dot` needs.
        while True:
            time.sleep(0.03)
            state = driver.execute_script("return window.studioRedrawn")
            if state["version"] > before:
                break
        saves.append(state["at"] - written)
        while True:
            shown = driver.execute_script("return window.studioPainted")
            if shown and shown["version"] >= state["version"]:
                break
            time.sleep(0.03)
        painted.append(shown["at"] - written)
        steps = driver.execute_script("return [window.studioLoadTiming, performance.timeOrigin]")
        if steps[0] and steps[0]["version"] == state["version"]:
            timing, origin = steps
            for name, since, until in [("event", None, "asked"), ("fetch", "asked", "fetched"), ("parse", "fetched", "parsed"),
                                       ("draw", "parsed", "drawn")]:
                start = written - origin if since is None else timing[since]
                parts.setdefault(name, []).append(timing[until] - start)
            parts.setdefault("frame", []).append(shown["at"] - (origin + timing["drawn"]))
        time.sleep(0.05)
    open(file, "w").write(base)
    time.sleep(0.3)
    driver.get("about:blank")

    # POST /api/edit (connect to a card not connected before) to the answer; each disconnect
    # after it goes back to a shape already laid out, and is not counted.
    edits, dots, server_parts = [], [], {}
    version = client.version()
    for k in range(ROUNDS):
        target = targets[k % len(targets)]
        answer, phases = client.call("POST", "/api/edit", {"version": version, "op": "connect", "from": "bench-a", "to": target})
        edits.append(client.took)
        assert "version" in answer, answer
        dots.append(phases.get("dot", 0))
        for name, duration in phases.items():
            server_parts.setdefault(name, []).append(duration)
        answer, _ = client.call("POST", "/api/edit", {"version": answer["version"], "op": "disconnect", "from": "bench-a", "to": target})
        assert "version" in answer, answer
        version = answer["version"]

    # POST /api/edit (setTitle: a card's title of another length each time) to the answer.
    titles = []
    version = client.version()
    for k in range(ROUNDS):
        target = targets[(k * 7) % len(targets)]
        title = "Edited " + "x" * (k % 9) + f" {k}"
        answer, _ = client.call("POST", "/api/edit", {"version": version, "op": "setTitle", "id": target, "title": title})
        titles.append(client.took)
        assert "version" in answer, answer
        version = answer["version"]

    # Memory over EDITS edits, half of them laid out anew: after the first 100, and at the end.
    after100 = None
    workers = children(server.pid)
    dot_before = sum(rss_kib(pid) for pid in workers)
    version = client.version()
    for k in range(EDITS):
        if k == 100:
            after100 = rss_kib(server.pid)
        target = targets[(k // 2) % len(targets)]
        op = "connect" if k % 2 == 0 else "disconnect"
        answer, _ = client.call("POST", "/api/edit", {"version": version, "op": op, "from": "bench-a", "to": target})
        assert "version" in answer, answer
        version = answer["version"]
    after = rss_kib(server.pid)
    dot_after = sum(rss_kib(pid) for pid in children(server.pid))
    server.terminate()
    server.wait()
    growth = (after - after100) / after100 * 100
    median_edit, median_dot = statistics.median(edits), statistics.median(dots)
    def medians(parts):
        return ", ".join(f"{name} {statistics.median(values):.1f}" for name, values in parts.items())

    print(f"{label}: a save to the page painted, by step (ms, medians): {medians(parts)}", file=sys.stderr)
    print(f"{label}: an edit on the server, by phase (ms, medians; dot overlaps write): {medians(server_parts)}", file=sys.stderr)
    return [
        (label, "saved file to page redrawn (median)", statistics.median(saves), "ms"),
        (label, "saved file to page painted, a frame later (median)", statistics.median(painted), "ms"),
        (label, "POST /api/edit connect to answer (median)", median_edit, "ms"),
        (label, "of which `dot` laying out (median)", median_dot, "ms"),
        (label, "POST /api/edit setTitle to answer (median)", statistics.median(titles), "ms"),
        (label, "first page load to interactive (median of 5)", statistics.median(loads), "ms"),
        (label, f"server memory growth, edits 100 to {EDITS} ({after100} to {after} KiB)", growth, "%"),
        (label, f"dot's memory, edits 0 to {EDITS} ({dot_before} to {dot_after} KiB)", (dot_after - dot_before) / 1024, "MiB"),
    ]


def main():
    load = os.getloadavg()
    driver = browser()
    rows = []
    try:
        for label, path in zip(sys.argv[1::2], sys.argv[2::2]):
            rows += measure(driver, path, label)
    finally:
        driver.quit()
    print(f"Load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before, {os.getloadavg()[0]:.2f} after.")
    print("| Routine | Measure | Result |")
    print("| --- | --- | --- |")
    for label, what, value, unit in rows:
        print(f"| {label} | {what} | {value:.1f}{'' if unit == '%' else ' '}{unit} |")


if __name__ == "__main__":
    main()
