#!/usr/bin/env python3
"""Two Syncthing instances on 127.0.0.1 sharing one folder, for the sync tests.

start DIR: makes DIR/a and DIR/b (homes), DIR/fa and DIR/fb (the shared folder on each),
starts both and prints "ok". stop DIR: stops both (and the children serve forks).
wait DIR: scans both and waits, bounded, until each has what the other has.
pause DIR yes|no: pauses or resumes the link on both sides.
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

def config(me, gui, listen, peer, peer_addr, folder):
    return f"""<configuration version="36">
    <folder id="{FOLDER}" label="{FOLDER}" path="{folder}" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="false" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="{me}"></device>
        <device id="{peer}"></device>
        <minDiskFree unit="%">0</minDiskFree>
        <maxConflicts>10</maxConflicts>
    </folder>
    <device id="{me}" name="self"><address>dynamic</address></device>
    <device id="{peer}" name="peer"><address>{peer_addr}</address></device>
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

def start(d):
    homes = [os.path.join(d, n) for n in ("a", "b")]
    folders = [os.path.join(d, n) for n in ("fa", "fb")]
    ids = []
    for h, f in zip(homes, folders):
        os.makedirs(f, exist_ok=True)
        subprocess.run(["syncthing", "generate", "--home=" + h, "--no-default-folder", "--skip-port-probing"], capture_output=True, check=True)
        ids.append(device_id(h))
    gui = [free_port(), free_port()]; listen = [free_port(), free_port()]
    # Only b dials a, whose address is static; a is started first.
    addrs = ["dynamic", f"tcp://127.0.0.1:{listen[0]}"]
    for i in (0, 1):
        with open(os.path.join(homes[i], "config.xml"), "w") as out:
            out.write(config(ids[i], gui[i], listen[i], ids[1 - i], addrs[i], folders[i]))
    env = dict(os.environ, STHASHING="minio", STNORESTART="1", STNOUPGRADE="1", HOME=d)
    pids = []
    for i in (0, 1):
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
    for _ in range(400):
        if api(gui[0], "GET", "/rest/system/connections")["connections"].get(ids[1], {}).get("connected"): break
        time.sleep(0.05)
    else:
        print("not connected"); return
    print("ok")

def state(d): return json.load(open(os.path.join(d, "pair.json")))

def wait(d):
    s = state(d)
    for i in (0, 1): api(s["gui"][i], "POST", f"/rest/db/scan?folder={FOLDER}")
    for _ in range(400):
        done = True
        for i in (0, 1):
            c = api(s["gui"][i], "GET", f"/rest/db/completion?folder={FOLDER}&device={s['ids'][1 - i]}")
            if c["completion"] < 100 or c["needItems"] != 0: done = False
            st = api(s["gui"][i], "GET", f"/rest/db/status?folder={FOLDER}")
            if st["state"] != "idle" or st["needTotalItems"] != 0: done = False
        if done: print("ok"); return
        time.sleep(0.05)
    print("not in sync")

def pause(d, yes):
    s = state(d)
    # What changed while paused is scanned before the link is back, so that each side
    # offers its own version and a change on both makes a conflict copy.
    if not yes:
        for i in (0, 1): api(s["gui"][i], "POST", f"/rest/db/scan?folder={FOLDER}")
    for i in (0, 1): api(s["gui"][i], "PATCH", f"/rest/config/devices/{s['ids'][1 - i]}", {"paused": yes})
    if not yes:
        for _ in range(400):
            if api(s["gui"][0], "GET", "/rest/system/connections")["connections"].get(s["ids"][1], {}).get("connected"): break
            time.sleep(0.05)
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
    {"start": start, "wait": wait, "stop": stop}.get(cmd, lambda d: pause(d, sys.argv[3] == "yes"))(d)
