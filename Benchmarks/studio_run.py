"""Times a run in the browser (the studio's Run view) on a routine: each answer from the page's
request to the JSON in hand (`fetch`), and from the page's answer to the card redrawn (the
Run view's own code), every step committed to a history in a temporary folder. A real headless
Chromium through selenium. Run by Benchmarks/studio.sh, which prints a Markdown table.

    ROUTINE=.build/release/routine python Benchmarks/studio_run.py LABEL FILE [LABEL FILE ...]"""

import os
import statistics
import subprocess
import sys
import tempfile

from studio import browser

ROUTINE = os.environ["ROUTINE"]
TOKEN = "0123456789abcdef0123456789abcdef"
ROUNDS = int(os.environ.get("ROUNDS", "30"))

# In the page: ROUNDS runs, each fresh on its own day (so that no habit was done that day by
# an earlier run), answering done, the target, the second option, and the end.
SCRIPT = """
const [rounds, done] = [arguments[0], arguments[arguments.length - 1]];
const view = window.studio.runView;
const fetches = [], redraws = [];
function answerFor(prompt) {
  if (prompt.event === "confirm-end") return "";
  if (prompt.kind === "question") return String(Math.min(2, prompt.options.length));
  return typeof prompt.target === "number" ? String(prompt.target) : "d";
}
async function post(path, body) {
  const started = performance.now();
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  return [answer, performance.now() - started];
}
(async () => {
  for (let r = 0; r < rounds; r++) {
    const date = new Date(Date.UTC(2026, 0, 1 + 2 * r)).toISOString().slice(0, 10);
    // The API as any client calls it.
    let [run] = await post("/api/run/start", { fresh: true, date });
    while (!run.result) {
      const [next, ms] = await post("/api/run/answer", { run: run.run, holder: run.holder, answer: answerFor(run.prompt) });
      fetches.push(ms);
      run = next;
    }
    // The page: its answer, recorded, then the card drawn.
    await view.start({ fresh: true, date: new Date(Date.UTC(2026, 0, 2 + 2 * r)).toISOString().slice(0, 10) });
    while (view.run && !view.run.result) {
      const started = performance.now();
      await view.answer(answerFor(view.run.prompt));
      redraws.push(performance.now() - started);
    }
  }
  done({ fetches, redraws });
})().catch((error) => done({ error: String(error) }));
"""


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(driver, path, label):
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=home, XDG_DATA_HOME=home)
        server = subprocess.Popen([ROUTINE, "studio", path], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
        try:
            address = server.stdout.readline().strip()
            driver.get(address + "#run")
            driver.set_script_timeout(600)
            driver.execute_script("sessionStorage.clear()")
            result = driver.execute_async_script(SCRIPT, ROUNDS)
            if "error" in result:
                raise SystemExit(f"{label}: {result['error']}")
            runs = subprocess.run([ROUTINE, "log", "--since", "2026-01-01"], env=env, capture_output=True, text=True).stdout
            recorded = runs.count("completed")
        finally:
            server.terminate()
            server.wait(timeout=10)
    fetches, redraws = result["fetches"], result["redraws"]
    print(f"| {label} | answer, POST /api/run/answer to JSON (median / p95 of {len(fetches)}) | ≤ 20 ms | "
          f"{statistics.median(fetches):.1f} / {percentile(fetches, 0.95):.1f} ms |")
    print(f"| {label} | answer in the Run view to card redrawn (median / p95 of {len(redraws)}) | — | "
          f"{statistics.median(redraws):.1f} / {percentile(redraws, 0.95):.1f} ms |")
    assert recorded == 2 * ROUNDS, f"{recorded} completed runs recorded, not {2 * ROUNDS}"


def main():
    pairs = list(zip(sys.argv[1::2], sys.argv[2::2]))
    driver = browser()
    try:
        print("| Routine | Measure | Bar | Result |")
        print("| --- | --- | --- | --- |")
        for label, path in pairs:
            measure(driver, path, label)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
