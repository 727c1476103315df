#!/usr/bin/env python3
"""Two or three Syncthing instances on 127.0.0.1 sharing one folder, for the sync tests.

start DIR [N]: makes N instances (default 2): homes DIR/a, DIR/b, DIR/c and the shared folder
on each, DIR/fa, DIR/fb, DIR/fc; starts them and prints "ok" once every pair is connected.
stop DIR: stops them all (and the children serve forks).
wait DIR: scans each and waits, bounded, until each has what every other has.
pause DIR yes|no: pauses or resumes every link on both sides.
"""
import json, os, signal, socket, subprocess, sys, time, urllib.request

KEY = "routine-test-key"
FOLDER = "routine"

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def device_id(home):
    return subprocess.run(["syncthing", "--home=" + home, "--device-id"], capture_output=True, text=True).stdout.strip().splitlines()[-1]

def api(port, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers={"X-API-Key": KEY},
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req, timeout=10) as r:
        data = r.read()
        return json.loads(data) if data else None

def config(me, gui, listen, peers, folder):
    """peers: (device id, address) of every other instance."""
    shared = "".join(f'<device id="{p}"></device>' for p, _ in peers)
    known = "".join(f'<device id="{p}" name="peer{k}"><address>{a}</address></device>' for k, (p, a) in enumerate(peers))
    return f"""<configuration version="36">
    <folder id="{FOLDER}" label="{FOLDER}" path="{folder}" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="false" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="{me}"></device>
        {shared}
        <minDiskFree unit="%">0</minDiskFree>
        <maxConflicts>10</maxConflicts>
    </folder>
    <device id="{me}" name="self"><address>dynamic</address></device>
    {known}
    <gui enabled="true" tls="false"><address>127.0.0.1:{gui}</address><apikey>{KEY}</apikey></gui>
    <options>
        <listenAddress>tcp://127.0.0.1:{listen}</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <crashReportingEnabled>false</crashReportingEnabled>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <minHomeDiskFree unit="%">0</minHomeDiskFree>
    </options>
</configuration>
"""

def start(d, n=2):
    names = "abc"[:n]
    homes = [os.path.join(d, x) for x in names]
    folders = [os.path.join(d, "f" + x) for x in names]
    ids = []
    for h, f in zip(homes, folders):
        os.makedirs(f, exist_ok=True)
        subprocess.run(["syncthing", "generate", "--home=" + h, "--no-default-folder", "--skip-port-probing"], capture_output=True, check=True)
        ids.append(device_id(h))
    gui = [free_port() for _ in names]; listen = [free_port() for _ in names]
    # Each pair has one dialler: an instance dials those started before it (their address is
    # static) and waits for those started after it; they are started in order.
    for i in range(n):
        peers = [(ids[j], f"tcp://127.0.0.1:{listen[j]}" if j < i else "dynamic") for j in range(n) if j != i]
        with open(os.path.join(homes[i], "config.xml"), "w") as out:
            out.write(config(ids[i], gui[i], listen[i], peers, folders[i]))
    env = dict(os.environ, STHASHING="minio", STNORESTART="1", STNOUPGRADE="1", HOME=d)
    pids = []
    for i in range(n):
        log = open(os.path.join(d, f"log{i}"), "w")
        p = subprocess.Popen(["syncthing", "serve", "--home=" + homes[i], "--no-browser", "--no-restart", "--no-upgrade"],
                             env=env, stdout=log, stderr=log, start_new_session=True)
        pids.append(p.pid)
        # Known at once, so that stop ends whatever started even if start gives up below.
        json.dump({"gui": gui, "ids": ids, "pids": pids, "folders": folders}, open(os.path.join(d, "pair.json"), "w"))
        for _ in range(200):
            try:
                api(gui[i], "GET", "/rest/system/ping"); break
            except Exception:
                time.sleep(0.05)
        else:
            print("no REST API"); return
    if not connected(gui, ids):
        print("not connected"); return
    print("ok")

def connected(gui, ids):
    """Waits, bounded, until every instance sees every other connected."""
    for _ in range(400):
        if all(api(gui[i], "GET", "/rest/system/connections")["connections"].get(ids[j], {}).get("connected")
               for i in range(len(ids)) for j in range(len(ids)) if i != j):
            return True
        time.sleep(0.05)
    return False

def state(d): return json.load(open(os.path.join(d, "pair.json")))

def others(s):
    n = len(s["ids"])
    return [(i, j) for i in range(n) for j in range(n) if i != j]

def wait(d):
    s = state(d)
    for i in range(len(s["ids"])): api(s["gui"][i], "POST", f"/rest/db/scan?folder={FOLDER}")
    for _ in range(400):
        done = True
        for i, j in others(s):
            c = api(s["gui"][i], "GET", f"/rest/db/completion?folder={FOLDER}&device={s['ids'][j]}")
            if c["completion"] < 100 or c["needItems"] != 0: done = False
        for i in range(len(s["ids"])):
            st = api(s["gui"][i], "GET", f"/rest/db/status?folder={FOLDER}")
            if st["state"] != "idle" or st["needTotalItems"] != 0: done = False
        if done: print("ok"); return
        time.sleep(0.05)
    print("not in sync")

def pause(d, yes):
    s = state(d)
    # What changed while paused is scanned before the links are back, so that each side
    # offers its own version and a change on both makes a conflict copy.
    if not yes:
        for i in range(len(s["ids"])): api(s["gui"][i], "POST", f"/rest/db/scan?folder={FOLDER}")
    for i, j in others(s): api(s["gui"][i], "PATCH", f"/rest/config/devices/{s['ids'][j]}", {"paused": yes})
    if not yes and not connected(s["gui"], s["ids"]):
        print("not connected"); return
    print("ok")

def stop(d):
    s = state(d)
    # serve forks a monitor and its child: the signal goes to the group of both, and stop
    # returns once the group is gone (after five seconds it is killed).
    for pid in s["pids"]:
        try: os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError: pass
    for pid in s["pids"]:
        for attempt in range(200):
            try: os.killpg(pid, signal.SIGKILL if attempt == 100 else 0)
            except ProcessLookupError: break
            time.sleep(0.05)
    print("ok")

if __name__ == "__main__":
    cmd, d = sys.argv[1], os.path.abspath(sys.argv[2])
    if cmd == "start": start(d, int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    elif cmd == "pause": pause(d, sys.argv[3] == "yes")
    else: {"wait": wait, "stop": stop}[cmd](d)
