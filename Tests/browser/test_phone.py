"""A phone through the person's own HTTPS: `routine studio FILE --allow-host phone.localhost
--pair` behind Debian's Caddy with its internal certificate authority (`tls internal`), and a
Chromium that emulates a phone (390x844, touch, a mobile user agent) and trusts Caddy's root
through an NSS database in its own temporary HOME, as a person's phone trusts a certificate,
not through a flag that ignores certificate errors. Pairing once, a code that expired or was
used, wrong codes throttled, revocation, the desk's token in nothing the phone receives, and
the desk's "Pair a phone", and the page installable (`Page.getInstallabilityErrors`, whose
icons make_icons.py draws). Screenshots: .build/studio-screenshots/phone-*.png."""

import json
import os
import pathlib
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import unittest

import pageerrors
import test_studio
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from test_a11y import SIDEWAYS
from test_studio import MORNING, ROUTINE, SHOTS, TOKEN, wait

NAME = "phone.localhost"
OTHER = "other.localhost"
MOBILE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"

caddy = None
phone = None
desk = None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Caddy:
    """Caddy on 127.0.0.1 with HTTPS for NAME and OTHER, both proxied to the studio's port: a
    request for OTHER reaches the studio, which must refuse it itself."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.home = pathlib.Path(self.folder.name)
        self.https = free_port()
        self.studio_port = free_port()
        config = self.home / "Caddyfile"
        config.write_text(
            "{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n"
            f"\thttp_port {free_port()}\n\thttps_port {self.https}\n}}\n"
            f"{NAME}:{self.https}, {OTHER}:{self.https} {{\n\tbind 127.0.0.1\n\ttls internal\n"
            f"\treverse_proxy 127.0.0.1:{self.studio_port}\n}}\n"
        )
        env = dict(os.environ, HOME=str(self.home), XDG_DATA_HOME=str(self.home / "data"), XDG_CONFIG_HOME=str(self.home / "config"))
        self.log = open(self.home / "caddy.log", "w")
        self.process = subprocess.Popen(
            ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"], env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        self.root = self.home / "data/caddy/pki/authorities/local/root.crt"
        wait(lambda: self.root.exists() and self.tls(), timeout=30, message="Caddy's HTTPS")

    def tls(self):
        try:
            with self.connect(NAME):
                return True
        except OSError:
            return False

    def connect(self, name):
        context = ssl.create_default_context(cafile=str(self.root))
        sock = socket.create_connection(("127.0.0.1", self.https), timeout=10)
        return context.wrap_socket(sock, server_hostname=name)

    def request(self, method, path, host=None, origin=None, body=None, cookie=None, name=NAME):
        """One HTTP/1.1 request over Caddy's verified HTTPS: (status, headers text, body text)."""
        host = host or f"{name}:{self.https}"
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
        if origin:
            lines.append(f"Origin: {origin}")
        if cookie:
            lines.append(f"Cookie: {cookie}")
        data = (body or "").encode()
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        with self.connect(name) as s:
            s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        head, _, rest = answer.decode().partition("\r\n\r\n")
        return int(head.split()[1]), head, rest

    @property
    def origin(self):
        return f"https://{NAME}:{self.https}"

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()
        self.folder.cleanup()


def setUpModule():
    global caddy, phone, desk
    caddy = Caddy()
    # The phone's own HOME, whose NSS database trusts Caddy's root: what Chromium on Linux
    # reads for the certificates a person added.
    home = caddy.home / "phone-home"
    nssdb = home / ".pki/nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "caddy", "-i", str(caddy.root)], check=True)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--user-data-dir={home / 'profile'}"]:
        options.add_argument(argument)
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1, "touch": True, "mobile": True}, "userAgent": MOBILE_UA}
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    phone = webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=dict(os.environ, HOME=str(home))), options=options)
    desk_options = webdriver.ChromeOptions()
    desk_options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"]:
        desk_options.add_argument(argument)
    desk_options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    desk = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=desk_options)
    SHOTS.mkdir(parents=True, exist_ok=True)
    # conftest.py fails a test on what this browser's pages reported; the desk's are collected
    # when each studio closes.
    test_studio.driver = phone


def tearDownModule():
    test_studio.driver = None
    for driver in (phone, desk):
        if driver:
            driver.quit()
    if caddy:
        caddy.close()


class PhoneStudio:
    """`routine studio FILE --allow-host NAME --pair` on Caddy's studio port, in a HOME of its own."""

    def __init__(self, text=MORNING, pair_seconds=None):
        self.folder = tempfile.TemporaryDirectory()
        home = pathlib.Path(self.folder.name)
        self.path = home / "morning.rt"
        self.path.write_text(text)
        self.env = dict(
            os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_STATE_HOME=str(home / "state")
        )
        if pair_seconds:
            self.env["ROUTINE_TEST_STUDIO_PAIR_SECONDS"] = str(pair_seconds)
        # Caddy serves the test on a port of its own, which `NAME:PORT` puts in the pairing address.
        command = [ROUTINE, "studio", str(self.path), "--port", str(caddy.studio_port), "--allow-host", f"{NAME}:{caddy.https}", "--pair"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=self.env, text=True)
        self.address = self.process.stdout.readline().strip()
        line = self.process.stdout.readline().strip()
        assert line.startswith(f"pair: {caddy.origin}/pair#"), line
        self.pair_address = line.removeprefix("pair: ")
        # Each test's phone starts with no credential.
        phone.execute_cdp_cmd("Network.clearBrowserCookies", {})
        wait(lambda: caddy.request("GET", "/pair")[0] == 200, message="the studio behind Caddy")

    def routine(self, *arguments):
        """`routine ARGUMENTS…` in the studio's HOME: the desk's terminal."""
        done = subprocess.run([ROUTINE, *arguments], env=self.env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def devices(self, *arguments):
        return subprocess.run(
            [ROUTINE, "studio", "devices", *arguments], env=self.env, capture_output=True, text=True, check=False
        )

    def pair(self, name="Pixel", address=None):
        """Opens a pairing address on the phone and names it; the message the page shows."""
        phone.get(address or self.pair_address)
        field = wait(lambda: phone.find_element(By.ID, "pair-name"), message="the pairing page")
        field.send_keys(name)
        phone.find_element(By.ID, "pair-submit").click()
        wait(lambda: phone.current_url.endswith("/#today") or phone.find_element(By.ID, "pair-message").text, message="pairing's answer")
        return phone.find_element(By.ID, "pair-message").text if "/pair" in phone.current_url else None

    def close(self):
        for driver in (phone, desk):
            pageerrors.collect(driver)
            try:
                driver.get("about:blank")
            except Exception:
                pass
        self.process.terminate()
        assert self.process.wait(timeout=10) == 0
        self.folder.cleanup()


def shot(name):
    phone.save_screenshot(str(SHOTS / f"phone-{name}.png"))


def axe_blocking(driver, where):
    """What axe-core finds critical or serious on the page shown, in words."""
    axe = Axe(driver)
    axe.inject()
    found = []
    for v in axe.run()["violations"]:
        if v["impact"] in {"critical", "serious"}:
            targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:3])
            found.append(f"{where}: {v['id']} ({v['impact']}: {targets}): {v['help']}")
    return found


def emulate(width, theme="light", height=844):
    """The phone's width and theme, until the next page is loaded (chromedriver then sets its
    own phone's metrics again; the theme stays)."""
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})


# Every target a finger may need on the views of a phone, with its size: what is shown, enabled
# and focusable or clickable (the skip links appear only when focused).
TARGETS = """
const seen = (e) => { const s = getComputedStyle(e); const r = e.getBoundingClientRect(); return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0; };
const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.dataset.action ? "[" + e.dataset.action + "]" : "") + (e.dataset.date ? "[" + e.dataset.date + "]" : "") + (e.dataset.mode ? "[" + e.dataset.mode + "]" : "");
return [...document.querySelectorAll("button, input, select, a[href], [role=tab], [tabindex]:not([tabindex='-1']), #days-body [data-date]")]
  .filter((e) => seen(e) && !e.disabled && !e.matches("a.skip"))
  .map((e) => { const r = e.getBoundingClientRect(); return [name(e), Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]; });
"""


class PhoneTests(unittest.TestCase):
    def test_the_allowed_name_works_through_https_and_every_other_host_and_origin_is_refused(self):
        studio = PhoneStudio()
        try:
            self.assertEqual(caddy.request("GET", "/pair")[0], 200)
            # The desk's token works through the name too, and a change from its HTTPS origin.
            status, _, _ = caddy.request("GET", "/api/routine", cookie=f"routine-studio-{caddy.studio_port}={TOKEN}")
            self.assertEqual(status, 200)
            # Another name that reaches the studio through the same proxy is refused by the studio.
            status, _, body = caddy.request("GET", "/pair", name=OTHER)
            self.assertEqual(status, 403, body)
            self.assertIn("--allow-host", body)
            for origin in [f"https://{OTHER}:{caddy.https}", f"http://{NAME}:{caddy.https}", f"https://{NAME}", "null", None]:
                status, _, body = caddy.request("POST", "/api/pair/redeem", origin=origin, body='{"code":"x","name":"y"}')
                self.assertEqual(status, 403, (origin, body))
                self.assertIn("own page", body)
            # Chromium on the other name: HTTPS is valid, the studio says no.
            pageerrors.allow(r"other\.localhost.* 403")
            phone.get(f"https://{OTHER}:{caddy.https}/pair")
            self.assertIn("--allow-host", phone.find_element(By.TAG_NAME, "body").text)
        finally:
            studio.close()

    def test_a_phone_pairs_once_and_opens_today_and_never_receives_the_token(self):
        studio = PhoneStudio()
        try:
            phone.get_log("performance")
            phone.get(studio.pair_address)
            wait(lambda: phone.find_element(By.ID, "pair-name"), message="the pairing page")
            # The code left the address bar.
            self.assertEqual(phone.current_url, caddy.origin + "/pair")
            self.assertEqual(phone.execute_script("return window.isSecureContext"), True)
            shot("1-pair")
            self.assertEqual(axe_blocking(phone, "the pairing page"), [])
            # The pairing page has no manifest: Chromium says so, as it would of Today without one.
            errors = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
            self.assertIn("no-manifest", [e["errorId"] for e in errors])
            self.assertIsNone(studio.pair("Pixel", address=studio.pair_address))
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#today-view:not([hidden]) .today-card"), message="Today on the phone")
            self.assertEqual(phone.execute_script("return document.documentElement.clientWidth"), 390)
            shot("2-today")
            # Installable: the manifest, its icons and a worker with a fetch handler, as Chromium
            # judges them.
            scope = phone.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then(r => done(r.scope))")
            self.assertEqual(scope, caddy.origin + "/")
            self.assertEqual(phone.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"], [])
            manifest = phone.execute_cdp_cmd("Page.getAppManifest", {})
            self.assertEqual(manifest["errors"], [])
            self.assertEqual(json.loads(manifest["data"])["display"], "standalone")
            cookies = phone.execute_cdp_cmd("Network.getCookies", {"urls": [caddy.origin]})["cookies"]
            self.assertEqual([(c["name"], c["httpOnly"], c["secure"], c["sameSite"]) for c in cookies], [("__Host-routine-phone", True, True, "Strict")])
            self.assertNotEqual(cookies[0]["value"], TOKEN)
            self.assertNotIn(cookies[0]["value"], (pathlib.Path(studio.env["XDG_STATE_HOME"]) / "routine/studio-devices").read_text())
            # The phone logs a habit.
            card = phone.find_element(By.CSS_SELECTOR, '#today-view .today-card[data-node="water"]')
            card.find_element(By.CSS_SELECTOR, "[data-action=done]").click()
            wait(
                lambda: phone.find_element(By.CSS_SELECTOR, '#today-view .today-card[data-node="water"]').get_attribute("data-status") == "done",
                message="water done",
            )
            shot("3-logged")
            # Editing the routine stays on the desk.
            pageerrors.allow(r"api/edit.* 403")
            status = phone.execute_async_script(
                "const done = arguments[0]; fetch('/api/edit', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'}).then(r => done(r.status))"
            )
            self.assertEqual(status, 403)
            self.assertEqual(studio.path.read_text(), MORNING)
            # Everything the phone received, headers and bodies: no desk token.
            checked = 0
            for entry in phone.get_log("performance"):
                message = json.loads(entry["message"])["message"]
                if message["method"] == "Network.responseReceived":
                    self.assertNotIn(TOKEN, json.dumps(message["params"]["response"]))
                    try:
                        body = phone.execute_cdp_cmd("Network.getResponseBody", {"requestId": message["params"]["requestId"]})["body"]
                    except Exception:
                        continue  # a stream still open (the live channel)
                    self.assertNotIn(TOKEN, body)
                    checked += 1
            self.assertGreater(checked, 10)
            self.assertNotIn(TOKEN, phone.page_source)
            # The address works once.
            self.assertIn("wrong, used or expired", studio.pair("Second", address=studio.pair_address))
            listed = studio.devices()
            self.assertEqual(listed.returncode, 0, listed.stderr)
            self.assertRegex(listed.stdout, r"^Pixel  paired \d{4}-\d\d-\d\d \d\d:\d\d  last seen \d{4}-\d\d-\d\d \d\d:\d\d\n$")
            pageerrors.allow(r"api/pair/redeem.* 403")
        finally:
            studio.close()

    def test_a_code_expires(self):
        studio = PhoneStudio(pair_seconds=1)
        try:
            time.sleep(1.5)  # past the code's lifetime, which the test set to 1 s
            pageerrors.allow(r"api/pair/redeem.* 403")
            self.assertIn("wrong, used or expired", studio.pair("Late"))
            shot("4-expired")
            self.assertIn("no phone is paired", studio.devices().stdout)
        finally:
            studio.close()

    def test_wrong_codes_are_throttled(self):
        studio = PhoneStudio()
        try:
            code = studio.pair_address.partition("#")[2]
            for _ in range(5):
                status, _, body = caddy.request("POST", "/api/pair/redeem", origin=caddy.origin, body=json.dumps({"code": "0" * 32, "name": "Guess"}))
                self.assertEqual(status, 403, body)
            status, _, body = caddy.request("POST", "/api/pair/redeem", origin=caddy.origin, body=json.dumps({"code": code, "name": "Guess"}))
            self.assertEqual(status, 429, body)
            self.assertIn("too many", body)
            pageerrors.allow(r"api/pair/redeem.* 429")
            self.assertIn("too many wrong pairing codes", studio.pair("Pixel"))
        finally:
            studio.close()

    def test_a_revoked_phone_is_told_so(self):
        studio = PhoneStudio()
        try:
            self.assertIsNone(studio.pair("Pixel"))
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#today-view:not([hidden]) .today-card"), message="Today on the phone")
            revoked = studio.devices("--revoke", "Pixel")
            self.assertEqual(revoked.returncode, 0, revoked.stderr)
            self.assertRegex(studio.devices().stdout, r"^Pixel  paired .*  revoked \d{4}-")
            pageerrors.allow(r" 403", r"live")
            phone.get(caddy.origin + "/")
            self.assertEqual(wait(lambda: phone.find_element(By.ID, "revoked")).text, "This phone is no longer paired")
            shot("5-revoked")
            self.assertEqual(axe_blocking(phone, "the revoked page"), [])
            emulate(390, "dark")
            try:
                self.assertEqual(axe_blocking(phone, "the revoked page, dark"), [])
                shot("5-revoked-dark")
            finally:
                emulate(390)
                phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            cookie = "__Host-routine-phone=" + phone.execute_cdp_cmd("Network.getCookies", {"urls": [caddy.origin]})["cookies"][0]["value"]
            status, _, body = caddy.request("GET", "/api/today", cookie=cookie)
            self.assertEqual((status, "pairing was ended" in body), (403, True))
            self.assertNotEqual(studio.devices("--revoke", "Pixel").returncode, 0)
        finally:
            studio.close()

    def test_the_desk_pairs_a_phone(self):
        studio = PhoneStudio()
        try:
            desk.get(studio.address)
            button = wait(lambda: desk.find_element(By.ID, "pair-phone") if desk.find_element(By.ID, "pair-phone").is_displayed() else None, message="Pair a phone")
            button.click()
            address = wait(lambda: desk.find_element(By.ID, "pair-address").text, message="the pairing address")
            self.assertRegex(address, rf"^https://{NAME}:{caddy.https}/pair#[0-9a-f]{{32}}$")
            self.assertTrue(desk.find_element(By.CSS_SELECTOR, "#pair-body svg.pair-qr path").get_attribute("d").startswith("M4 4h7v1h-7z"))
            desk.save_screenshot(str(SHOTS / "phone-0-desk-pair.png"))
            # The address the page shows pairs the phone, as the one printed does.
            self.assertIsNone(studio.pair("Pixel", address=address))
            # A paired phone gets no "Pair a phone".
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#today-view:not([hidden]) .today-card"), message="Today on the phone")
            self.assertFalse(phone.find_element(By.ID, "pair-phone").is_displayed())
        finally:
            studio.close()


class PhoneLayoutTests(unittest.TestCase):
    """Today, Run and the month of Your days on a paired phone: at 360, 390 and 430 px, light
    and dark, nothing scrolls sideways, the tabs are at the bottom, every target is at least
    48 px square, and axe finds nothing critical or serious. Screenshots at each width:
    phone-layout-VIEW-WIDTH-THEME.png."""

    @classmethod
    def setUpClass(cls):
        cls.studio = PhoneStudio()
        for day in ["2026-11-02", "2026-11-03", "2026-11-05", "2026-11-09"]:
            cls.studio.routine("done", str(cls.studio.path), "water", "--date", day)
        cls.studio.routine("done", str(cls.studio.path), "stretch", "--date", "2026-11-03")
        assert cls.studio.pair("Pixel") is None

    @classmethod
    def tearDownClass(cls):
        emulate(390)
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        cls.studio.close()

    def open(self, view):
        # A new page each time: the page reads its view from the address when it loads.
        phone.get("about:blank")
        phone.get(caddy.origin + "/#" + view)
        if view == "today":
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#today-view:not([hidden]) .today-card"), message="Today")
        elif view == "run":
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#run-view:not([hidden]) button"), message="the run")
        else:
            place = view.partition("/")[2]
            wait(lambda: phone.execute_script("return window.studioDaysDrawn && window.studioDaysDrawn.place") == place, message=view)

    def test_each_view_fits_a_phone_for_one_hand(self):
        views = [("today", "today"), ("run", "run"), ("month", "days/month/2026-11")]
        problems = []
        for width in [360, 390, 430]:
            for theme in ["light", "dark"]:
                for name, view in views:
                    self.open(view)
                    # After the page loads: chromedriver sets its phone's metrics again at each.
                    emulate(width, theme)
                    where = f"{name} at {width} {theme}"
                    sizes = wait(lambda: (s := phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]"))[1] == width and s,
                                 message=f"a window {width} px wide")
                    if sizes[0] > sizes[1]:
                        problems.append(f"{where}: the document is {sizes[0]} px wide in a window of {sizes[1]}")
                    problems += [f"{where}: {said}" for said in phone.execute_script(SIDEWAYS)]
                    problems += [f"{where}: {t} is {w}x{h}" for t, w, h in phone.execute_script(TARGETS) if w < 48 or h < 48]
                    # The tabs along the bottom edge; no builder, no path of the desk's.
                    tabs = phone.execute_script(
                        "const r = document.querySelector('.tabs').getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight]")
                    if not (tabs[1] == tabs[2] and tabs[0] > tabs[2] - 90):
                        problems.append(f"{where}: the tabs span {tabs[0]} to {tabs[1]} of {tabs[2]}")
                    shown = [i for i in ["tab-builder", "routine-path", "pair-phone", "builder-view"] if phone.find_element(By.ID, i).is_displayed()]
                    if shown:
                        problems.append(f"{where}: shows {shown}")
                    if width == 390:
                        problems += axe_blocking(phone, where)
                    phone.save_screenshot(str(SHOTS / f"phone-layout-{name}-{width}-{theme}.png"))
        self.assertEqual(problems, [], "\n".join(problems))
        # The header names the routine, with no path.
        self.assertEqual(phone.find_element(By.ID, "routine-name").text, "Morning")
        self.assertEqual(phone.find_element(By.ID, "routine-path").text, "")

    def test_every_task_works_with_the_keyboard(self):
        emulate(390)
        self.open("today")

        def tab_to(selector, limit=400):
            for _ in range(limit):
                ActionChains(phone).send_keys(Keys.TAB).perform()
                if phone.execute_script(f"return document.activeElement.matches({json.dumps(selector)})"):
                    return phone.switch_to.active_element
            self.fail(f"Tab never reached {selector}")

        phone.find_element(By.TAG_NAME, "body").click()
        tab_to('.today-card[data-node="stretch"] [data-action=done]')
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.find_element(By.CSS_SELECTOR, '#today-view .today-card[data-node="stretch"]').get_attribute("data-status") == "done",
             message="stretch done from the keyboard")
        # The tabs, from the keyboard: Run, then a step of the run.
        tab_to("#tab-run")
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#run-view:not([hidden]) button"), message="the run")
        tab_to("#run-view .run-card button")
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#run-view .run-title"), message="a step of the run")
        shot("8-run-step")
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        shot("8-run-step-dark")
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        # Your days' month, a day opened from the keyboard.
        tab_to("#tab-days")
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.execute_script("return !!window.studioDaysDrawn"), message="your days")
        tab_to('[data-mode="month"]')
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#days-body .month-grid [data-date]"), message="the month")
        tab_to('#days-body .month-grid [data-date][tabindex="0"]')
        ActionChains(phone).send_keys(Keys.ENTER).perform()
        wait(lambda: phone.find_element(By.ID, "day-view").is_displayed(), message="the day opened")

    def test_the_page_asks_to_keep_its_data_and_says_whether_it_may(self):
        emulate(390)
        self.open("today")
        note = wait(lambda: phone.find_element(By.ID, "storage-note") if phone.find_element(By.ID, "storage-note").text else None, message="the storage line")
        persisted = phone.execute_async_script("const done = arguments[0]; navigator.storage.persisted().then(done)")
        self.assertEqual(note.get_attribute("data-persisted"), str(persisted).lower())
        if persisted:
            self.assertIn("keeps this page's data", note.text)
        else:
            self.assertIn("may clear this page's data", note.text)
        shot("6-storage")
        # Granted, as a browser grants it to an installed app: the line says so.
        phone.execute_cdp_cmd("Browser.grantPermissions", {"origin": caddy.origin, "permissions": ["durableStorage"]})
        try:
            self.open("today")
            note = wait(lambda: phone.find_element(By.ID, "storage-note") if phone.find_element(By.ID, "storage-note").text else None, message="the storage line")
            self.assertEqual(note.get_attribute("data-persisted"), "true")
            self.assertIn("keeps this page's data on the phone", note.text)
        finally:
            phone.execute_cdp_cmd("Browser.resetPermissions", {})


class UnreachableTests(unittest.TestCase):
    def test_with_the_studio_stopped_the_installed_page_opens_and_says_the_desk_is_unreachable(self):
        studio = PhoneStudio()
        try:
            self.assertIsNone(studio.pair("Pixel"))
            wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#today-view:not([hidden]) .today-card"), message="Today on the phone")
            # The worker took its copy of the page's files when it was installed.
            wanted = {"/", "/app.js", "/lib/api.js", "/today/today.js", "/studio.css", "/phone.css", "/phone/phone.js", "/manifest.json"}
            keys = lambda: phone.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready.then(() => caches.open('routine-shell'))"
                ".then(c => c.keys()).then(k => done(k.map(r => new URL(r.url).pathname)))")
            kept = wait(lambda: set(keys()) >= wanted and set(keys()), message="the page's copy")
            # Nothing of the routine or the history, nor the pages that are not the page's.
            not_page = {"/pair", "/pairing/pair.html", "/pairing/pair.js", "/pairing/revoked.html", "/sw.js"}
            self.assertFalse({p for p in kept if p.startswith("/api/") or p in not_page}, kept)
            # The studio stops: Caddy answers 502 for everything, and the page opens from the copy.
            studio.process.terminate()
            self.assertEqual(studio.process.wait(timeout=10), 0)
            self.assertEqual(caddy.request("GET", "/")[0], 502)
            pageerrors.allow(r" 502", r"live")
            phone.get("about:blank")
            phone.get(caddy.origin + "/#today")
            heading = wait(lambda: phone.find_element(By.ID, "unreachable-title"), message="the page that says so")
            self.assertEqual(heading.text, "The desk cannot be reached")
            # Nothing it cannot vouch for: no routine, no day, no tabs.
            body = phone.find_element(By.TAG_NAME, "body").text
            for word in ["Morning", "Drink a glass of water", "Today", "Your days"]:
                self.assertNotIn(word, body)
            self.assertFalse(phone.find_elements(By.CSS_SELECTOR, ".today-card"))
            retry = phone.find_element(By.ID, "unreachable-retry")
            self.assertGreaterEqual(retry.size["height"], 48)
            shot("7-unreachable")
            self.assertEqual(axe_blocking(phone, "the unreachable page"), [])
            emulate(390, "dark")
            try:
                phone.refresh()
                wait(lambda: phone.find_element(By.ID, "unreachable-title"), message="the page that says so, dark")
                self.assertEqual(axe_blocking(phone, "the unreachable page, dark"), [])
                shot("7-unreachable-dark")
            finally:
                emulate(390)
                phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        finally:
            studio.close()


class DeskHeaderTests(unittest.TestCase):
    def test_pair_a_phone_leaves_the_routine_its_name(self):
        studio = PhoneStudio()
        try:
            for width in [1200, 1400]:
                desk.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
                desk.get(studio.address)
                wait(lambda: desk.find_element(By.ID, "pair-phone").is_displayed(), message="Pair a phone")
                wait(lambda: desk.find_element(By.ID, "routine-name").text == "Morning", message="the name")
                cut = desk.execute_script("""
                    const b = document.getElementById('routine-name'), h = b.parentElement;
                    const r = b.getBoundingClientRect(), p = h.getBoundingClientRect();
                    return [b.scrollWidth > b.clientWidth, r.right > p.right + 0.5, r.width, document.documentElement.scrollWidth > innerWidth];""")
                self.assertEqual(cut[:2] + cut[3:], [False, False, False], f"at {width}: the name's box {cut[2]} px")
                desk.save_screenshot(str(SHOTS / f"phone-desk-header-{width}.png"))
        finally:
            desk.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            studio.close()
