"""Times `routine studio` opening a routine of 20,000 nodes (routine-gen's), more cards than the
studio draws: the page loaded to interactive with its outline and problems, and the first
answers of GET /api/routine, GET /api/today and POST /api/run/start, each from a studio just
started. Run by Benchmarks/studio.sh: `studio_huge.py ROUTINE-GEN [NODES]`."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

from studio import TOKEN, ROUTINE, Client, browser

ROUNDS = int(os.environ.get("ROUNDS", "30"))


def start(path, home):
    env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"))
    server = subprocess.Popen([ROUTINE, "studio", path], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    address = server.stdout.readline().strip()
    return server, address, Client(int(address.split(":")[2].split("/")[0]))


def main():
    generator, nodes = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    folder = tempfile.mkdtemp()
    subprocess.run([generator, str(nodes), "--seed", "7", "--out", os.path.join(folder, "huge")], check=True, stdout=subprocess.DEVNULL)
    path = os.path.join(folder, "huge.rt")
    rounds = max(3, ROUNDS // 5)
    times = {"GET /api/routine": [], "GET /api/today": [], "POST /api/run/start": []}
    for _ in range(rounds):
        server, _, client = start(path, folder)
        try:
            for what, (method, route, body) in zip(times, [("GET", "/api/routine", None), ("GET", "/api/today", None),
                                                           ("POST", "/api/run/start", {"fresh": True})]):
                answer, _ = client.call(method, route, body)
                assert "error" not in answer, answer
                times[what].append(client.took)
            assert "more than the studio draws" in (client.call("GET", "/api/routine")[0].get("layoutError") or "")
        finally:
            server.terminate()
            server.wait()
    driver = browser()
    loads, outlined = [], []
    try:
        for _ in range(rounds):
            server, address, _ = start(path, folder)
            try:
                driver.get(address)
                state = None
                for _ in range(3000):
                    state = driver.execute_script("return window.studioRedrawn")
                    if state:
                        break
                    time.sleep(0.01)
                loads.append(state["sinceLoad"])
                outlined.append(driver.execute_script("return document.querySelectorAll('#outline-list > li').length"))
            finally:
                server.terminate()
                server.wait()
    finally:
        driver.quit()
    label = f"{nodes:,} nodes"
    print(f"| {label} | page load to interactive, outline and problems drawn (median of {rounds}) | {statistics.median(loads):.0f} ms |")
    for what, values in times.items():
        print(f"| {label} | {what}, first answer of a studio just started (median of {rounds}) | {statistics.median(values):.0f} ms |")
    print(f"| {label} | cards in the outline | {min(outlined)} |")


if __name__ == "__main__":
    main()
