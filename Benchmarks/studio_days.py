"""Times "Your days" of `routine studio` on ten years of history (Benchmarks/history-gen.py
3650 into Benchmarks/ten-years.rt's history), in a real browser (headless Chromium through
selenium): GET /api/stats computed afresh and from the cache, `routine stats --json` on the
same history, the view interactive from a page load, and switching habit or year.
Run by Benchmarks/studio.sh (ROUTINE is the release binary); prints Markdown table rows."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# The browser tests' headless Chromium, set up the same way.
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "browser"))
import test_studio  # noqa: E402

ROUTINE = os.environ["ROUTINE"]
TOKEN = "0123456789abcdef0123456789abcdef"
ROUNDS = int(os.environ.get("ROUNDS", "30"))


def row(measure, bar, values, unit="ms"):
    median = statistics.median(values)
    print(f"| ten years | {measure} | {bar} | {median:.0f} {unit} (min {min(values):.0f}, max {max(values):.0f}) |")


def main():
    folder = tempfile.mkdtemp()
    env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=folder, XDG_DATA_HOME=folder)
    file = os.path.join(folder, "ten-years.rt")
    shutil.copy(os.path.join(HERE, "ten-years.rt"), file)
    history = os.path.join(folder, "routine", "history.sqlite")
    lines = os.path.join(folder, "years.jsonl")
    with open(lines, "w") as out:
        subprocess.run([sys.executable, os.path.join(HERE, "history-gen.py"), "3650"], stdout=out, check=True)
    subprocess.run([ROUTINE, "history", "import", lines, "--history", history], env=env, check=True, capture_output=True)
    server = subprocess.Popen([ROUTINE, "studio", file], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    driver = None
    try:
        address = server.stdout.readline().strip()
        origin = address.split("/?")[0]
        headers = {"Authorization": f"Bearer {TOKEN}", "Origin": origin}

        def stats(query):
            request = urllib.request.Request(origin + "/api/stats" + query, headers=headers)
            started = time.perf_counter()
            with urllib.request.urlopen(request) as answer:
                body = answer.read()
            return (time.perf_counter() - started) * 1000, body

        _, body = stats("")
        size = len(body)
        # A window not asked for before is computed afresh: each round ends a day earlier.
        fresh = [stats(f"?until=2026-11-{24 - k % 20:02d}&since=2016-11-{1 + k // 20:02d}")[0] for k in range(ROUNDS)]
        cached = [stats("")[0] for _ in range(ROUNDS)]
        command = []
        for _ in range(max(5, ROUNDS // 3)):
            started = time.perf_counter()
            out = subprocess.run([ROUTINE, "stats", file, "--json"], env=env, capture_output=True, check=True).stdout
            command.append((time.perf_counter() - started) * 1000)
        # The studio leaves the questions' habits tables out (the page asks for one at a time).
        whole = json.loads(out)
        for question in whole["questions"]:
            for key in ("habits", "habitsLeftOut", "habitsOmitted"):
                question.pop(key, None)
        assert whole == json.loads(body), "GET /api/stats differs from routine stats --json, less the questions' tables"
        row(f"GET /api/stats, computed (median, {size / 1e6:.1f} MB)", "≤ 80 ms", fresh)
        row("GET /api/stats, cached for the history's version (median)", "—", cached)
        row("`routine stats --json` on the same history (median, whole process)", "—", command)

        test_studio.setUpModule()
        driver = test_studio.driver
        loads, habits, years = [], [], []
        for k in range(max(5, ROUNDS // 4)):
            driver.get("about:blank")
            driver.get(address + "#days/habit/h9/2026")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not driver.execute_script("return window.studioDaysDrawn"):
                time.sleep(0.01)
            drawn = driver.execute_script("return window.studioDaysDrawn")
            assert drawn and drawn["place"] == "habit/h9/2026", drawn
            loads.append(drawn["sinceLoad"])
        switch = """
            const [what, done] = [arguments[0], arguments[arguments.length - 1]];
            const started = performance.now();
            if (what === "habit") {
              const picker = document.getElementById("days-habit");
              picker.value = picker.value === "h9" ? "h19" : "h9";
              picker.dispatchEvent(new Event("change"));
            } else document.getElementById(what).click();
            requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0));
        """
        for k in range(ROUNDS):
            habits.append(driver.execute_async_script(switch, "habit"))
            years.append(driver.execute_async_script(switch, "days-prev" if k % 2 == 0 else "days-next"))
        row("\"Your days\" interactive from a page load (median)", "≤ 500 ms", loads)
        row("switching habit, to painted (median)", "≤ 100 ms", habits)
        row("switching year, to painted (median)", "≤ 100 ms", years)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
