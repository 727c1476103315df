"""Times `routine studio` with a real browser (headless Chromium through selenium):
a file saved by another process to the page redrawn, POST /api/edit (connect) to its answer,
the first page load to interactive, and the server's memory over 1,000 edits.
Run by Benchmarks/studio.sh, which prints a Markdown table."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROUTINE = os.environ["ROUTINE"]
TOKEN = "0123456789abcdef0123456789abcdef"
ROUNDS = int(os.environ.get("ROUNDS", "30"))


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


def measure(driver, path, label):
    text = open(path).read()
    folder = tempfile.mkdtemp()
    file = os.path.join(folder, "routine.rt")
    # Two habits of the benchmark's own, to connect and disconnect without a cycle.
    base = text + '\nhabit bench-a "Benchmark A"\nhabit bench-b "Benchmark B"\n'
    open(file, "w").write(base)
    env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=folder)
    server = subprocess.Popen([ROUTINE, "studio", file], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    address = server.stdout.readline().strip()
    port = int(address.split(":")[2].split("/")[0])
    origin = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {TOKEN}", "Origin": origin, "Content-Type": "application/json"}

    def api(method, route, body=None):
        request = urllib.request.Request(origin + route, method=method, headers=headers, data=json.dumps(body).encode() if body else None)
        try:
            with urllib.request.urlopen(request) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            return json.load(error)

    def version():
        return api("GET", "/api/routine")["version"]

    # First load to interactive: the cards drawn, in the page's own clock.
    loads = []
    for _ in range(5):
        driver.get(address)
        state = None
        while not state:
            state = driver.execute_script("return window.studioRedrawn")
            time.sleep(0.01)
        loads.append(state["sinceLoad"])

    # A save by another process to the redraw: the wall clock of the write against the page's.
    saves = []
    for k in range(ROUNDS):
        before = driver.execute_script("return window.studioRedrawn.version")
        content = base + (f'habit bench-c "Saved {k}"\n' if k % 2 == 0 else "")
        written = time.time() * 1000
        with open(file + ".tmp", "w") as out:
            out.write(content)
        os.replace(file + ".tmp", file)
        while True:
            state = driver.execute_script("return window.studioRedrawn")
            if state["version"] > before:
                break
            time.sleep(0.002)
        saves.append(state["at"] - written)
        time.sleep(0.05)
    open(file, "w").write(base)
    time.sleep(0.3)

    # POST /api/edit (connect, then disconnect) to the answer.
    edits = []
    for k in range(ROUNDS * 2):
        op = "connect" if k % 2 == 0 else "disconnect"
        v = version()
        started = time.perf_counter()
        answer = api("POST", "/api/edit", {"version": v, "op": op, "from": "bench-a", "to": "bench-b"})
        took = (time.perf_counter() - started) * 1000
        assert "version" in answer, answer
        if op == "connect":
            edits.append(took)

    # Memory over 1,000 edits: after the first 100, and at the end.
    after100 = None
    for k in range(1000):
        if k == 100:
            after100 = rss_kib(server.pid)
        op = "connect" if k % 2 == 0 else "disconnect"
        answer = api("POST", "/api/edit", {"version": version(), "op": op, "from": "bench-a", "to": "bench-b"})
        assert "version" in answer, answer
    after1000 = rss_kib(server.pid)
    server.terminate()
    server.wait()
    growth = (after1000 - after100) / after100 * 100
    return [
        (label, "saved file to page redrawn (median)", statistics.median(saves)),
        (label, "POST /api/edit connect to answer (median)", statistics.median(edits)),
        (label, "first page load to interactive (median of 5)", statistics.median(loads)),
        (label, f"server memory growth, edits 100 to 1000 ({after100} to {after1000} KiB)", growth),
    ]


def main():
    driver = browser()
    rows = []
    try:
        for label, path in zip(sys.argv[1::2], sys.argv[2::2]):
            rows += measure(driver, path, label)
    finally:
        driver.quit()
    print("| Routine | Measure | Result |")
    print("| --- | --- | --- |")
    for label, what, value in rows:
        unit = "%" if "memory" in what else " ms"
        print(f"| {label} | {what} | {value:.1f}{unit} |")


if __name__ == "__main__":
    main()
