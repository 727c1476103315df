"""The Today view in a real Chromium: a day off (`routine off`) shows as one, with nothing due,
and is undone from the page; a limit ("at most 2 cups") shows as a limit and over it as over;
after a log the focus goes on to the next Done, never to the page's body; keys pressed in
Today throw nothing. Screenshots at 1400 and 390 px go to .build/studio-screenshots/
(today-view-*.png)."""

import datetime
import json
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_studio as base
from test_run import routine
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = (
    'routine "Limits"\n\n'
    'habit water "Glass of water" -> coffee\n'
    'habit coffee "Coffee" target at most 2 cups -> read\n'
    'habit read "Read"\n'
)
TODAY = datetime.date.today().isoformat()

# Every uncaught error and rejected promise of the page, kept where the test reads them.
CATCH_ERRORS = """
window.todayErrors = [];
window.addEventListener("error", (e) => window.todayErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.todayErrors.push(String(e.reason)));
"""


def view():
    return base.driver.find_element(By.ID, "today-view")


def card(node):
    return base.driver.find_element(By.CSS_SELECTOR, f'#today-view .today-card[data-node="{node}"]')


def focused():
    """What has the focus: its data-action and its card's node, or the tag name."""
    return base.driver.execute_script(
        "const a = document.activeElement; const c = a && a.closest('[data-node]');"
        "return [a ? (a.dataset.action || a.id || a.tagName) : null, c ? c.dataset.node : null];")


class TodayViewTests(unittest.TestCase):
    def setUp(self):
        self.studio = Studio(TEXT)
        base.driver.execute_script(CATCH_ERRORS)

    def tearDown(self):
        base.driver.set_window_size(1400, 900)
        self.studio.close()

    def errors(self):
        return base.driver.execute_script("return window.todayErrors")

    def shots(self, name):
        self.studio.shot(f"today-view-{name}-1400")
        base.driver.set_window_size(390, 844)
        wait(lambda: base.driver.execute_script("return window.innerWidth") <= 400, message="the narrow window")
        self.studio.shot(f"today-view-{name}-390")
        base.driver.set_window_size(1400, 900)

    def open_today(self):
        base.driver.find_element(By.ID, "tab-today").click()
        wait(lambda: view().find_elements(By.CSS_SELECTOR, ".today-card"), message="the cards")

    def test_a_day_off_shows_and_is_undone(self):
        off = routine(self.studio, "off", str(self.studio.path), TODAY, "--reason", "sick")
        self.assertEqual(off.returncode, 0, off.stderr)
        self.open_today()
        box = wait(lambda: view().find_element(By.CSS_SELECTOR, ".today-off"), message="the day off")
        self.assertEqual(box.find_element(By.TAG_NAME, "h3").get_attribute("textContent"), "Day off (sick)")
        self.assertTrue(base.driver.find_element(By.ID, "today-summary").text.startswith("day off (sick)"))
        # Nothing is due: no Done on any card.
        self.assertEqual(view().find_elements(By.CSS_SELECTOR, "[data-action=done]"), [])
        self.assertEqual({c.get_attribute("data-status") for c in view().find_elements(By.CSS_SELECTOR, ".today-card")}, {"not-due"})
        # Keys pressed in Today are Today's to ignore: none throws.
        body = base.driver.find_element(By.TAG_NAME, "body")
        for key in ["t", "d", Keys.ESCAPE, Keys.ARROW_DOWN, Keys.ENTER, "?"]:
            body.send_keys(key)
        self.shots("day-off")
        box.find_element(By.CSS_SELECTOR, "[data-action=undo-day-off]").click()
        wait(lambda: not view().find_elements(By.CSS_SELECTOR, ".today-off"), message="the day off undone")
        wait(lambda: card("water").get_attribute("data-status") == "due", message="water due again")
        self.assertEqual(focused(), ["done", "water"])
        today = json.loads(routine(self.studio, "today", str(self.studio.path), "--json").stdout)
        self.assertNotIn("dayOff", today["routines"][0])
        listed = routine(self.studio, "off", str(self.studio.path), "--list")
        self.assertNotIn(TODAY, listed.stdout)
        self.shots("day-off-undone")
        self.assertEqual(self.errors(), [])

    def test_a_limit_shows_as_a_limit_and_the_focus_goes_on(self):
        self.open_today()
        self.assertIn("at most 2 cups", card("coffee").find_element(By.CSS_SELECTOR, ".details").text)
        self.assertNotIn("target", card("coffee").text)
        # Water done: the focus goes on to the next Done, Coffee's.
        card("water").find_element(By.CSS_SELECTOR, "[data-action=done]").click()
        wait(lambda: card("water").get_attribute("data-status") == "done", message="water done")
        wait(lambda: focused() == ["done", "coffee"], message="the focus on Coffee's Done")
        # Three cups: over the limit, shown as over.
        card("coffee").find_element(By.CSS_SELECTOR, "[data-action=done]").click()
        field = wait(lambda: card("coffee").find_element(By.CSS_SELECTOR, "input.value"), message="the value field")
        field.clear()
        field.send_keys("3", Keys.ENTER)
        wait(lambda: card("coffee").get_attribute("data-status") == "done", message="coffee done")
        details = card("coffee").find_element(By.CSS_SELECTOR, ".details").text
        self.assertIn("3 · over the limit of 2 cups", details)
        self.assertNotIn("3 of 2", details)
        self.assertIn("over-limit", card("coffee").get_attribute("class"))
        wait(lambda: focused() == ["done", "read"], message="the focus on Read's Done")
        self.shots("over-the-limit")
        # The last one done: no Done is left, and the focus stays in the view, not on the body.
        card("read").find_element(By.CSS_SELECTOR, "[data-action=done]").click()
        wait(lambda: card("read").get_attribute("data-status") == "done", message="read done")
        wait(lambda: focused()[0] not in (None, "BODY"), message="the focus kept")
        self.assertNotEqual(focused()[0], "BODY")
        log = routine(self.studio, "log", str(self.studio.path), "--date", TODAY)
        self.assertIn("Coffee: 3", log.stdout)
        self.assertEqual(self.errors(), [])


if __name__ == "__main__":
    unittest.main()
