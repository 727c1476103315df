"""Browser tests of `routine studio`: a real Chromium (headless, through selenium) against the
built binary. One browser serves the whole session; each test starts its own studio on a file
in a temporary folder. Screenshots of every state go to .build/studio-screenshots/."""

import os
import pathlib
import subprocess
import tempfile
import time
import unittest

import pageerrors
from pageerrors import allow as allow_page_errors  # noqa: F401 (for every test file, as base.allow_page_errors)

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ROUTINE = os.environ.get("ROUTINE", str(ROOT / ".build/debug/routine"))
SHOTS = ROOT / ".build/studio-screenshots"
TOKEN = "00112233445566778899aabbccddeeff"
MORNING = (ROOT / "routines/morning.rt").read_text()
driver = None


def setUpModule():
    global driver
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    # The page's errors and failed requests, which conftest.py fails every test on.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    SHOTS.mkdir(parents=True, exist_ok=True)


def tearDownModule():
    driver.quit()


def wait(condition, timeout=10.0, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}")


class Studio:
    """`routine studio FILE` on a temporary file, and the page open on it."""

    def __init__(self, text, name="routine.rt", layout=None):
        self.folder = tempfile.TemporaryDirectory()
        self.path = pathlib.Path(self.folder.name) / name
        self.path.write_text(text)
        if layout is not None:
            pathlib.Path(str(self.path) + ".layout").write_text(layout)
        env = dict(os.environ, ROUTINE_STUDIO_TOKEN=TOKEN, HOME=self.folder.name, XDG_DATA_HOME=self.folder.name)
        self.process = subprocess.Popen([ROUTINE, "studio", str(self.path)], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
        self.address = self.process.stdout.readline().strip()
        assert self.address.startswith("http://127.0.0.1:") and self.address.endswith("/?token=" + TOKEN), self.address
        driver.get(self.address)
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "body[data-version]"), message="the first state")

    def close(self):
        # What the page said while the studio ran; then the page is left, so that the studio
        # ending is no error of the page's.
        pageerrors.collect(driver)
        try:
            driver.get("about:blank")
        except Exception:
            pass
        self.process.terminate()
        assert self.process.wait(timeout=10) == 0
        self.folder.cleanup()

    @property
    def text(self):
        return self.path.read_text()

    def cards(self):
        return [c.get_attribute("data-node") for c in driver.find_elements(By.CSS_SELECTOR, ".card[data-node]")]

    def card(self, node):
        return driver.find_element(By.CSS_SELECTOR, f'.card[data-node="{node}"]')

    def port(self, node, option=None):
        if option is None:
            return driver.find_element(By.CSS_SELECTOR, f'.port.out[data-node="{node}"]')
        return driver.find_element(By.CSS_SELECTOR, f'.port[data-node="{node}"][data-option="{option}"]')

    def version(self):
        return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version"))

    def wait_version_after(self, version):
        return wait(lambda: self.version() > version, message=f"a version after {version}")

    def shot(self, name):
        driver.save_screenshot(str(SHOTS / f"{name}.png"))

    def drag(self, source, target, hold=None):
        chain = ActionChains(driver).click_and_hold(source).move_by_offset(5, 5).move_to_element(target).move_by_offset(2, 2)
        chain.perform()
        if hold:
            hold()
        ActionChains(driver).release().perform()


class StudioTests(unittest.TestCase):
    def test_morning_has_a_card_for_every_node(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            self.assertEqual(sorted(studio.cards()), sorted(["water", "stretch", "mood", "run", "meditate", "walk", "journal", "shower", "plan", "water2"]))
            ports = driver.find_elements(By.CSS_SELECTOR, '.port[data-node="mood"][data-option]')
            self.assertEqual([p.text for p in ports], ["Great!", "Okay", "Not so good", "Skip today", "Tired"])
            # Fitted on open: every card is inside the canvas.
            canvas = driver.find_element(By.ID, "canvas").rect
            for card in driver.find_elements(By.CSS_SELECTOR, ".card"):
                r = card.rect
                self.assertTrue(canvas["x"] <= r["x"] and r["x"] + r["width"] <= canvas["x"] + canvas["width"] + 1, card.get_attribute("data-node"))
            # 13 arrows, and the gather twice: from Tired's port and from Cold shower, where branches end.
            self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "path.edge")), 15)
            studio.shot("1-morning")
            # The dark theme follows prefers-color-scheme.
            light = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            self.assertNotEqual(driver.execute_script("return getComputedStyle(document.body).backgroundColor"), light)
            studio.shot("1-morning-dark")
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        finally:
            studio.close()

    def test_add_connect_undo_redo(self):
        text = 'routine "Morning"\n\n# the first thing\nhabit water "Drink water" -> mood\n\nquestion mood "How are you?"\n  "Fine"\n  "Tired"\n'
        studio = Studio(text)
        try:
            v = studio.version()
            driver.find_element(By.ID, "add-habit").click()
            title = wait(lambda: driver.find_element(By.ID, "f-title"))
            title.send_keys("Go back to bed")
            studio.shot("2-add-habit-dialog")
            title.send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            added = text + "\nhabit go-back-to-bed \"Go back to bed\"\n"
            self.assertEqual(studio.text, added)
            wait(lambda: studio.card("go-back-to-bed"))
            studio.shot("3-added")
            v = studio.version()
            studio.drag(studio.port("mood", 1), studio.card("go-back-to-bed"))
            studio.wait_version_after(v)
            connected = added.replace('"Tired"\n', '"Tired" -> go-back-to-bed\n')
            self.assertEqual(studio.text, connected)
            studio.shot("4-connected")
            v = studio.version()
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(studio.text, added)
            v = studio.version()
            ActionChains(driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
            studio.wait_version_after(v)
            self.assertEqual(studio.text, connected)
            studio.shot("5-redone")
        finally:
            studio.close()

    def test_an_edit_saved_outside_shows(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            v = studio.version()
            studio.path.write_text(MORNING + 'habit stretch2 "Stretch again" for 2m\n')
            studio.wait_version_after(v)
            wait(lambda: studio.card("stretch2"), message="the new card")
            self.assertIn("2m", studio.card("stretch2").text)
            studio.shot("6-saved-outside")
        finally:
            studio.close()

    def test_a_cycle_is_refused_while_dragging(self):
        text = 'routine "R"\n\nhabit a "First" -> b\nhabit b "Second" -> c\nhabit c "Third"\n'
        studio = Studio(text)
        try:
            v = studio.version()
            seen = {}

            def look():
                hint = driver.find_element(By.ID, "drag-hint")
                seen["hint"] = hint.text if hint.is_displayed() else None
                seen["refused"] = "drop-refused" in studio.card("a").get_attribute("class")
                studio.shot("7-cycle-refused")

            studio.drag(studio.port("c"), studio.card("a"), hold=look)
            self.assertEqual(seen["hint"], "refused: a cycle c → a → b → c")
            self.assertTrue(seen["refused"])
            time.sleep(0.3)
            self.assertEqual(studio.version(), v)
            self.assertEqual(studio.text, text)
        finally:
            studio.close()

    def test_a_syntax_error_and_its_recovery(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            v = studio.version()
            studio.path.write_text(MORNING.replace('"Stretch"', '"Stretch'))
            studio.wait_version_after(v)
            wait(lambda: "stale" in driver.find_element(By.ID, "world").get_attribute("class"), message="the faded drawing")
            self.assertTrue(driver.find_element(By.ID, "banner").is_displayed())
            problems = driver.find_elements(By.CSS_SELECTOR, "#problem-list li.error")
            self.assertTrue(problems and "E005" in problems[0].text)
            self.assertEqual(len(studio.cards()), 10)
            studio.shot("8-syntax-error")
            v = studio.version()
            studio.path.write_text(MORNING)
            studio.wait_version_after(v)
            wait(lambda: "stale" not in driver.find_element(By.ID, "world").get_attribute("class"), message="recovery")
            self.assertFalse(driver.find_element(By.ID, "banner").is_displayed())
            studio.shot("9-recovered")
        finally:
            studio.close()

    def test_keyboard_and_form(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            body = driver.find_element(By.TAG_NAME, "body")
            studio.card("water").click()
            ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
            wait(lambda: driver.switch_to.active_element.get_attribute("data-node") == "stretch", message="stretch focused")
            ActionChains(driver).send_keys(Keys.TAB).perform()
            wait(lambda: driver.switch_to.active_element.get_attribute("data-node") == "mood", message="Tab in reading order")
            ActionChains(driver).send_keys(Keys.ENTER).perform()
            dialog = wait(lambda: driver.find_element(By.ID, "dialog"))
            self.assertTrue(dialog.is_displayed())
            studio.shot("10-question-form")
            ActionChains(driver).send_keys(Keys.ESCAPE).perform()
            studio.card("water2").click()
            ActionChains(driver).send_keys(Keys.ENTER).perform()
            target = wait(lambda: driver.find_element(By.ID, "f-target"))
            target.clear()
            target.send_keys("6")
            studio.shot("11-habit-form")
            v = studio.version()
            target.send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            self.assertIn('habit water2 "Drink water" target 6 glasses\n', studio.text)
            self.assertIn("# Comments start with '#'", studio.text)
            for card in driver.find_elements(By.CSS_SELECTOR, ".card"):
                self.assertTrue(card.get_attribute("aria-label"))
            del body
        finally:
            studio.close()

    def test_delete_lists_the_arrows(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            studio.card("plan").click()
            ActionChains(driver).send_keys(Keys.DELETE).perform()
            dialog = wait(lambda: driver.find_element(By.ID, "dialog"))
            self.assertIn('mood then → plan', dialog.text.replace("  ", " ").replace('"', '"'))
            self.assertIn("meditate → plan", dialog.text)
            studio.shot("12-delete-dialog")
            v = studio.version()
            dialog.find_element(By.CSS_SELECTOR, "button.primary").click()
            studio.wait_version_after(v)
            self.assertNotIn("habit plan", studio.text)
            self.assertNotIn("-> plan", studio.text)
            self.assertIn("# Comments start with '#'", studio.text)
        finally:
            studio.close()

    def test_texts_are_never_html(self):
        text = 'routine "R"\n\nhabit a "<script>window.hacked=1</script>" -> q\nquestion q "<img src=x onerror=\\"window.hacked=2\\">"\n  "\\"quoted\\" <b>bold</b>"\n'
        studio = Studio(text)
        try:
            self.assertEqual(studio.card("a").find_element(By.CSS_SELECTOR, ".title").text, "<script>window.hacked=1</script>")
            self.assertEqual(studio.port("q", 0).text, '"quoted" <b>bold</b>')
            self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "#world img, #world b, #world script"), [])
            self.assertIsNone(driver.execute_script("return window.hacked"))
            studio.shot("13-hostile-titles")
        finally:
            studio.close()

    def test_a_routine_too_large_to_draw_opens_as_its_outline(self):
        count = 2500
        lines = ['routine "Long"'] + [f'habit h{k} "Step {k}" -> {"h" + str(k + 1) if k + 1 < count else "end"}' for k in range(count)]
        studio = Studio("\n".join(lines) + "\n")
        try:
            banner = driver.find_element(By.ID, "banner")
            self.assertIn("more than the studio draws", banner.text)
            self.assertTrue(driver.execute_script("return document.getElementById('outline').open"))
            self.assertEqual(studio.cards(), [])
            # The first entries at once, then every card, in the file's order, each saying where it leads.
            entries = lambda: driver.execute_script("return [...document.querySelectorAll('#outline-list > li')].map((li) => li.innerText)")
            wait(lambda: len(entries()) == count, message="every card in the outline")
            listed = entries()
            self.assertTrue(listed[0].startswith("1.") and "Step 0 (habit)" in listed[0] and "Step 1" in listed[0], listed[0])
            self.assertIn("Step 2499 (habit)", listed[-1])
            self.assertIn("the end", listed[-1])
            studio.shot("35-too-large-to-draw-outline")
        finally:
            studio.close()

    def test_play_replays_after_an_edit(self):
        text = 'routine "R"\n\nhabit a "First" -> q\nquestion q "Go on?"\n  "Yes" -> b\n  "No"\nhabit b "Second"\n'
        studio = Studio(text)
        try:
            ActionChains(driver).send_keys("p").perform()
            play = driver.find_element(By.ID, "play-body")
            wait(lambda: play.find_elements(By.CSS_SELECTOR, '[data-answer="d"]')).__getitem__(0).click()
            wait(lambda: play.find_elements(By.CSS_SELECTOR, '[data-answer="o0"]')).__getitem__(0).click()
            wait(lambda: "Second" in play.text, message="the second habit offered")
            studio.shot("14-play")
            v = studio.version()
            studio.path.write_text(text.replace('"Yes" -> b', '"Yes"'))
            studio.wait_version_after(v)
            wait(lambda: "complete" in play.text, message="the replay after the edit")
            self.assertIn("First — done", play.text)
        finally:
            studio.close()


def places():
    """Each card's top-left corner, as the page draws it."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('.card[data-node]')].map((c) => [c.dataset.node, [parseFloat(c.style.left), parseFloat(c.style.top), c.offsetWidth]]))")


def announced():
    return driver.find_element(By.ID, "builder-announce").text


class LayoutTests(unittest.TestCase):
    """A picture that stays put, cards placed by hand, the gather drawn for what it is, Play's
    path on the cards, and connecting from the keyboard."""

    def test_an_added_answer_moves_no_other_card(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            before = places()
            studio.card("mood").send_keys(Keys.ENTER)
            answer = wait(lambda: driver.find_element(By.ID, "f-new-answer"))
            answer.send_keys("Sleepy")
            v = studio.version()
            driver.find_element(By.XPATH, "//dialog[@open]//button[text()='Add']").click()
            studio.wait_version_after(v)
            wait(lambda: [p.text for p in driver.find_elements(By.CSS_SELECTOR, '.port[data-node="mood"][data-option]')][-1] == "Sleepy", message="the new answer")
            after = places()
            for node, (x, y, width) in before.items():
                # Centres: the question grows about its own.
                nx, ny, nwidth = after[node]
                self.assertLessEqual(abs(nx + nwidth / 2 - x - width / 2) + abs(ny - y), 4, f"{node} moved from {(x, y)} to {(nx, ny)}")
            wait(lambda: announced() == "Answer Sleepy added to How are you feeling today?", message="the announcement")
            studio.shot("60-answer-added-nothing-moved")
        finally:
            studio.close()

    def test_a_card_put_by_hand_stays(self):
        studio = Studio(MORNING, "morning.rt")
        layout = pathlib.Path(str(studio.path) + ".layout")
        try:
            x, y, _ = places()["run"]
            v = studio.version()
            ActionChains(driver).click_and_hold(studio.card("run")).move_by_offset(10, 10).move_by_offset(110, 30).release().perform()
            studio.wait_version_after(v)
            moved = places()["run"]
            self.assertGreater(moved[0], x + 60)
            self.assertIn(f"run {int(moved[0])} {int(moved[1])}\n", layout.read_text())
            self.assertEqual(studio.text, MORNING)
            wait(lambda: announced() == "Run moved", message="the announcement")
            studio.shot("61-card-dragged")
            # An edit elsewhere and a reload keep it there.
            v = studio.version()
            studio.path.write_text(MORNING.replace('"Go for a walk"', '"Go for a long walk"'))
            studio.wait_version_after(v)
            self.assertEqual(places()["run"][:2], moved[:2])
            driver.refresh()
            wait(lambda: driver.find_elements(By.CSS_SELECTOR, '.card[data-node="run"]'), message="the page again")
            self.assertEqual(places()["run"][:2], moved[:2])
            # Alt and an arrow move the focused card, announced.
            v = studio.version()
            studio.card("walk").send_keys(Keys.ALT, Keys.ARROW_RIGHT)
            studio.wait_version_after(v)
            wait(lambda: announced() == "Go for a long walk moved", message="the keyboard move announced")
            self.assertIn("walk ", layout.read_text())
            self.assertEqual(driver.switch_to.active_element.get_attribute("data-node"), "walk")
            # Tidy forgets the places; undo brings them back.
            v = studio.version()
            driver.find_element(By.ID, "tidy").click()
            studio.wait_version_after(v)
            self.assertNotIn("run ", layout.read_text())
            self.assertNotEqual(places()["run"][:2], moved[:2])
            v = studio.version()
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(places()["run"][:2], moved[:2])
            kept = layout.read_text()
        finally:
            studio.close()
        # A studio started again on the routine and its layout file draws the card there.
        studio = Studio(MORNING, "morning.rt", layout=kept)
        try:
            self.assertEqual(places()["run"][:2], moved[:2])
        finally:
            studio.close()

    def test_a_damaged_layout_file_is_a_problem_not_a_crash(self):
        studio = Studio(MORNING, "morning.rt", layout="run twelve\n")
        try:
            problems = driver.find_element(By.ID, "problem-list").text
            self.assertIn("E513", problems)
            self.assertEqual(len(studio.cards()), 10)
        finally:
            studio.close()

    def test_the_gather_is_drawn_from_where_branches_end(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            labels = driver.find_elements(By.CSS_SELECTOR, ".gather-arrow text")
            self.assertEqual([label.text for label in labels], ["then", "then"])
            starts = sorted(g.get_attribute("data-from") for g in driver.find_elements(By.CSS_SELECTOR, "g.gather-arrow"))
            self.assertEqual(starts, ["mood", "shower"])
            driver.find_element(By.CSS_SELECTOR, "#outline summary").click()
            items = wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#outline-list > li"), message="the outline")
            outline = {li.get_attribute("data-node"): [w.text for w in li.find_elements(By.CSS_SELECTOR, "ul li")] for li in items}
            self.assertEqual(outline["shower"], ["→ then → Plan the day"])
            self.assertEqual(outline["mood"][-2:], ["Tired → then", "then → Plan the day"])
            self.assertTrue(studio.card("shower").get_attribute("aria-label").endswith("Leads: → then → Plan the day"))
            studio.shot("62-gather-then")
        finally:
            studio.close()

    def test_play_marks_its_path_and_starts_from_a_card(self):
        studio = Studio(MORNING, "morning.rt")
        try:
            ActionChains(driver).send_keys("p").perform()
            play = driver.find_element(By.ID, "play-body")
            wait(lambda: play.find_elements(By.CSS_SELECTOR, '[data-answer="d"]')).__getitem__(0).click()
            wait(lambda: "current" in studio.card("stretch").get_attribute("class"), message="stretch current")
            self.assertIn("walked", studio.card("water").get_attribute("class"))
            self.assertNotIn("walked", studio.card("mood").get_attribute("class"))
            studio.shot("63-play-path")
            studio.card("journal").click()
            # The panel offers the selected card once it is drawn again.
            wait(lambda: play.find_elements(By.CSS_SELECTOR, '[data-answer="d"]')).__getitem__(0).click()
            wait(lambda: play.find_elements(By.ID, "play-from")).__getitem__(0).click()
            wait(lambda: "current" in studio.card("journal").get_attribute("class"), message="the play from journal")
            self.assertNotIn("walked", studio.card("water").get_attribute("class"))
            self.assertIn("From Write three lines", play.text)
        finally:
            studio.close()

    def test_connect_from_the_keyboard(self):
        text = 'routine "R"\n\nhabit a "Alpha"\nhabit b "Beta"\n'
        studio = Studio(text)
        try:
            studio.card("a").send_keys("c")
            wait(lambda: announced().startswith("Connecting from Alpha"), message="connecting announced")
            self.assertIn("connecting", studio.card("a").get_attribute("class"))
            # The next card in reading order, whichever side of Alpha Beta is drawn.
            order = driver.execute_script("return [...document.querySelectorAll('.card[data-node]')].map((c) => c.dataset.node)")
            if order.index("b") > order.index("a"):
                ActionChains(driver).send_keys(Keys.TAB).perform()
            else:
                ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
            wait(lambda: driver.switch_to.active_element.get_attribute("data-node") == "b", message="b focused")
            v = studio.version()
            ActionChains(driver).send_keys(Keys.ENTER).perform()
            studio.wait_version_after(v)
            self.assertIn('habit a "Alpha" -> b\n', studio.text)
            wait(lambda: announced() == "Alpha now leads to Beta", message="the connection announced")
            self.assertFalse(driver.find_elements(By.CSS_SELECTOR, "dialog[open]"))
        finally:
            studio.close()

    def test_a_questions_then_port_and_key_set_its_gather_and_undo_takes_it_back(self):
        text = 'routine "R"\n\nhabit a "Alpha" -> q\nquestion q "Go on?"\n  "Yes" -> b\n  "No"\nhabit b "Beta"\nhabit c "Gamma"\n'
        gathered = text.replace('  "No"\n', '  "No"\n  then -> c\n')
        studio = Studio(text)
        try:
            then = driver.find_element(By.CSS_SELECTOR, '.port.then[data-node="q"]')
            self.assertEqual(then.text, "then")
            v = studio.version()
            studio.drag(then, studio.card("c"))
            studio.wait_version_after(v)
            self.assertEqual(studio.text, gathered)
            wait(lambda: announced() == "After Go on?, then leads to Gamma", message="the gather announced")
            wait(lambda: driver.find_elements(By.CSS_SELECTOR, 'g.gather-arrow[data-to="c"]'), message="the gather drawn")
            studio.shot("64-then-port-dragged")
            v = studio.version()
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(studio.text, text)
            # The keyboard: C on the question offers each answer, then "then".
            card = wait(lambda: studio.card("q"))
            card.send_keys("c")
            wait(lambda: announced().startswith("Connecting from Go on?, answer Yes"), message="the first answer offered")
            for offered in ["Go on?, answer No", "Go on?, then"]:
                studio.card("q").send_keys("c")
                wait(lambda: announced().startswith(f"Connecting from {offered}:"), message=offered)
            v = studio.version()
            studio.card("c").send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            self.assertEqual(studio.text, gathered)
            v = studio.version()
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(studio.text, text)
        finally:
            studio.close()

    def test_the_then_label_sits_on_no_card_and_no_other_label(self):
        for name in ["morning.rt", "evening.rt", "weekly-review.rt", "workout.rt", "morning.yaml", "workout.yaml"]:
            with self.subTest(routine=name):
                studio = Studio((ROOT / "routines" / name).read_text(), name)
                try:
                    boxes = driver.execute_script("""
                        const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
                        return { labels: [...document.querySelectorAll('.gather-arrow .edge-label-back')].map(box),
                                 words: [...document.querySelectorAll('.gather-arrow .edge-label')].map(box),
                                 cards: [...document.querySelectorAll('.card[data-node]')].map((c) => [c.dataset.node, box(c)]) };""")
                    if name.startswith(("morning", "evening", "weekly", "workout.rt")):
                        self.assertTrue(boxes["labels"], "a gather's label")

                    def meets(a, b):
                        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

                    for k, label in enumerate(boxes["labels"]):
                        # The word sits inside its background.
                        word = boxes["words"][k]
                        self.assertTrue(label[0] <= word[0] and word[2] <= label[2] and label[1] <= word[1] and word[3] <= label[3], (label, word))
                        for node, card in boxes["cards"]:
                            self.assertFalse(meets(label, card), f"the label {label} sits on {node} {card}")
                        for j, other in enumerate(boxes["labels"]):
                            if j != k:
                                self.assertFalse(meets(label, other), f"two labels meet: {label} {other}")
                    studio.shot(f"65-then-label-{name.replace('.', '-')}")
                finally:
                    studio.close()


class TodayTests(unittest.TestCase):
    ROUTINE = (
        'routine "Day"\n\nhabit water "Drink <b>water</b> & \\"more\\"" -> pushups\n'
        'habit pushups "Push-ups" target 20 reps -> mood\n'
        'question mood "Mood?"\n  "Good" -> gym\n  "Bad"\nhabit gym "Gym <img src=x onerror=alert(1)>" -> run\n'
        'habit run "Run" on TOMORROW\n'
    )

    def routine(self, studio, *arguments):
        env = dict(os.environ, HOME=studio.folder.name, XDG_DATA_HOME=studio.folder.name, NO_COLOR="1")
        return subprocess.run([ROUTINE, *arguments], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=30)

    def test_complete_habits_in_today_and_see_them_in_the_log(self):
        tomorrow = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][(time.localtime().tm_wday + 1) % 7]
        studio = Studio(self.ROUTINE.replace("TOMORROW", tomorrow))
        try:
            driver.find_element(By.ID, "tab-today").click()
            view = driver.find_element(By.ID, "today-view")

            def card(node):
                return view.find_element(By.CSS_SELECTOR, f'.today-card[data-node="{node}"]')

            def status(node):
                return card(node).get_attribute("data-status")

            wait(lambda: status("water") == "due", message="water due")
            self.assertEqual(status("gym"), "maybe")
            # Titles are text: no element from them, the characters shown as they are.
            self.assertEqual(card("water").find_element(By.CLASS_NAME, "title").text, 'Drink <b>water</b> & "more"')
            self.assertEqual(view.find_elements(By.TAG_NAME, "b") + view.find_elements(By.TAG_NAME, "img"), [])
            studio.shot("20-today")

            card("water").find_element(By.CSS_SELECTOR, '[data-action="done"]').click()
            wait(lambda: status("water") == "done", message="water done")
            # A numeric habit asks for its value, the target filled in.
            card("pushups").find_element(By.CSS_SELECTOR, '[data-action="done"]').click()
            field = wait(lambda: card("pushups").find_element(By.CSS_SELECTOR, "input.value"))
            self.assertEqual(field.get_attribute("value"), "20")
            field.clear()
            field.send_keys("15", Keys.ENTER)
            wait(lambda: status("pushups") == "done", message="pushups done")
            self.assertIn("15 of 20 reps", card("pushups").text)

            # The terminal sees the page's logs in the same history.
            today = time.strftime("%Y-%m-%d")
            log = self.routine(studio, "log", "--date", today)
            self.assertEqual(log.returncode, 0, log.stderr)
            self.assertIn('Drink <b>water</b> & "more"', log.stdout)
            self.assertIn("Push-ups", log.stdout)
            self.assertIn("15", log.stdout)

            # A log in the terminal shows in the page by the live channel.
            done = self.routine(studio, "done", str(studio.path), "gym")
            self.assertEqual(done.returncode, 0, done.stderr)
            wait(lambda: status("gym") == "done", timeout=3, message="the terminal's log shown")
            self.assertEqual(view.find_elements(By.TAG_NAME, "img"), [])
            # Undo takes it back; the terminal refuses to log water again, as the page's log stands.
            card("gym").find_element(By.CSS_SELECTOR, '[data-action="undo"]').click()
            wait(lambda: status("gym") == "maybe", message="gym undone")
            again = self.routine(studio, "done", str(studio.path), "water")
            self.assertEqual(again.returncode, 1)
            self.assertIn("E501", again.stderr)
            self.assertEqual(driver.find_element(By.ID, "today-summary").text, "2 of 2 done, 1 maybe")
            studio.shot("21-today-done")

            # A habit not due says why, and offers no Done that would only be refused: a quiet
            # "Record anyway" records it all the same.
            self.assertEqual(status("run"), "not-due")
            self.assertEqual(card("run").find_elements(By.CSS_SELECTOR, '[data-action="done"]'), [])
            weekday = time.strftime("%A")
            self.assertIn(f"not scheduled on {weekday}s: only on {tomorrow}", card("run").text)
            self.assertIn(f"{weekday} {time.localtime().tm_mday} {time.strftime('%B %Y')} (today)", driver.find_element(By.ID, "today-heading").text)
            studio.shot("22-today-not-due")
            # Found again on each try: the live channel may redraw the view meanwhile.
            wait(lambda: card("run").find_element(By.CSS_SELECTOR, '[data-action="force"]').click() or True, message="Record anyway")
            wait(lambda: status("run") == "done", message="run recorded anyway")
            self.assertFalse(driver.find_element(By.ID, "today-message").is_displayed())
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
