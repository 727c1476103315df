"""Times a click on "Done" in the studio's Today view on routines/morning.rt, in a real browser
(headless Chromium through selenium): from the click to the card redrawn as done, which the
page does only once the server has committed the log and answered. Each round then takes the
log back through the API and waits for the card to be due again. Run by Benchmarks/studio.sh
(ROUTINE is the release build); prints Markdown table rows."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By

# The browser tests' Chromium, set up as they set it up.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "browser"))
import test_studio  # noqa: E402

ROUTINE = os.environ["ROUTINE"]
TOKEN = "0123456789abcdef0123456789abcdef"
ROUNDS = int(os.environ.get("ROUNDS", "30"))

# In the page: click the card's Done button, and resolve with the milliseconds until the card
# is drawn as done (a MutationObserver sees the new card as soon as it is in the DOM).
CLICK = """
const [node, done] = arguments;
const card = () => document.querySelector(`.today-card[data-node="${node}"]`);
const started = performance.now();
const observer = new MutationObserver(() => {
  const c = card();
  if (c && c.dataset.status === "done") { observer.disconnect(); done(performance.now() - started); }
});
observer.observe(document.getElementById("today-view"), { childList: true, subtree: true, attributes: true });
card().querySelector('[data-action="done"]').click();
"""


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "routines/morning.rt"
    folder = tempfile.mkdtemp()
    env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=folder, XDG_DATA_HOME=folder)
    server = subprocess.Popen([ROUTINE, "studio", path], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    address = server.stdout.readline().strip()
    origin = address.split("/?")[0]
    test_studio.setUpModule()
    driver = test_studio.driver
    try:
        driver.set_script_timeout(10)
        driver.get(address)
        driver.find_element(By.ID, "tab-today").click()
        driver.execute_script("return 1")
        wait_status(driver, "water", "due")
        times = []
        for _ in range(ROUNDS + 3):
            times.append(driver.execute_async_script(CLICK, "water"))
            undo(origin)
            wait_status(driver, "water", "due")
        # The first rounds warm the server's statement cache and the page's code paths.
        times = times[3:]
        print(f"| morning.rt | Today: click on Done to recorded and redrawn (median of {len(times)}) | {statistics.median(times):.1f} ms |")
        print(f"| morning.rt | Today: the same, slowest of {len(times)} | {max(times):.1f} ms |")
    finally:
        test_studio.tearDownModule()
        server.terminate()
        server.wait(timeout=10)


def undo(origin):
    headers = {"Authorization": f"Bearer {TOKEN}", "Origin": origin, "Content-Type": "application/json"}
    body = json.dumps({"habit": "water", "undo": True}).encode()
    with urllib.request.urlopen(urllib.request.Request(origin + "/api/log", method="POST", headers=headers, data=body)) as answer:
        answer.read()


def wait_status(driver, node, status):
    script = "return (document.querySelector(`.today-card[data-node='%s']`) || {dataset: {}}).dataset.status" % node
    for _ in range(400):
        if driver.execute_script(script) == status:
            return
        time.sleep(0.025)
    raise AssertionError(f"{node} never became {status}")


if __name__ == "__main__":
    main()
