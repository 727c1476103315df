"""The page by keyboard alone, in a real Chromium: a tour of each view (builder, Today, Run, Your
days) at 1400 and 390 px, Tab through every control and the view's own keys pressed, with no
error on the page (conftest.py fails a test on any); the focus never falls to <body> after a
change (a card saved or deleted, a run's step answered); the builder's skip link; the header's
"saved" whole. Screenshots go to .build/studio-screenshots/ (7x-keys-*.png)."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_studio as base
from test_days import BACKFILL, DaysStudio
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

# A habit, a question and a numeric habit with a time: every kind of step a run has.
ROUTINE = """routine "Keys"
habit water "Glass of water" -> mood
question mood "Mood?"
  "Good" -> stretch
  "Bad" -> stretch
habit stretch "Stretch" for 5m target 10 reps
"""

WIDTHS = [1400, 390]

# What has the focus, in words a failure can show: the element's tag, id, and what names it.
FOCUSED = """
const a = document.activeElement;
if (!a || a === document.body) return null;
const r = a.getBoundingClientRect();
return {tag: a.tagName.toLowerCase(), id: a.id, node: a.dataset.node || null, action: a.dataset.action || null,
        option: a.dataset.option || null, text: (a.getAttribute('aria-label') || a.textContent || '').trim().slice(0, 60),
        shown: r.width > 0 && r.height > 0 && !a.closest('[hidden]')};
"""


def driver():
    return base.driver


def focused():
    return driver().execute_script(FOCUSED)


def keys(*sequence):
    """Presses keys where the focus is, as a person does (not sent to one element)."""
    chain = ActionChains(driver())
    for key in sequence:
        chain.send_keys(key)
    chain.perform()


def wait_focus(condition, message):
    """Waits for the focus to satisfy `condition` (given what `focused` says); a failure says
    where the focus is instead."""
    try:
        wait(lambda: condition(focused() or {}), message=message)
    except AssertionError as error:
        raise AssertionError(f"{error}: the focus is on {focused()}") from None


def chord(modifiers, key):
    """`key` pressed with `modifiers` held down."""
    chain = ActionChains(driver())
    for modifier in modifiers:
        chain.key_down(modifier)
    chain.send_keys(key)
    for modifier in reversed(modifiers):
        chain.key_up(modifier)
    chain.perform()


def width(pixels):
    driver().execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": pixels, "height": 900 if pixels > 800 else 844,
                                                                    "deviceScaleFactor": 1, "mobile": False})


def tab_tour(limit=120):
    """Tabs from the top of the page until the focus comes round again: every element it
    stopped on, each of which is shown (the focus never lands on what cannot be seen)."""
    # The page's first control, the skip link, is where the tour begins (a blur would leave
    # the browser's starting point where the focus was).
    driver().execute_script("document.querySelector('a.skip').focus()")
    stops = [focused()]
    for _ in range(limit):
        keys(Keys.TAB)
        now = focused()
        if now is None:
            # Past the last control the browser's own chrome would have it: the tour is round.
            if stops:
                break
            continue
        if stops and now == stops[0]:
            break
        stops.append(now)
    return stops


class KeyboardTourTests(unittest.TestCase):
    def tearDown(self):
        driver().execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def check_tour(self, stops, expected, view):
        hidden = [stop for stop in stops if not stop["shown"]]
        self.assertEqual(hidden, [], f"{view}: Tab stopped on what is not shown")
        ids = {stop["id"] for stop in stops} | {stop["action"] for stop in stops} | {stop["node"] for stop in stops}
        for name in expected:
            self.assertIn(name, ids, f"{view}: Tab never reached {name}: {stops}")

    def test_the_builder_by_keyboard(self):
        studio = Studio(ROUTINE)
        try:
            for pixels in WIDTHS:
                width(pixels)
                studio.card("water")
                stops = tab_tour()
                self.check_tour(stops, ["tab-builder", "tab-days", "skip-to-cards", "add-habit", "help", "water", "mood", "stretch"], "builder")
                studio.card("water").click()
                # Along the arrows and back, connect started and cancelled, zoom, fit, the panels.
                for key in [Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_UP, "c", Keys.ESCAPE, "+", "-", "f", "p", "s"]:
                    keys(key)
                    self.assertIsNotNone(focused(), f"the focus fell to <body> after {key!r}")
                studio.shot(f"70-keys-builder-{pixels}")
                keys("p", "s")
                # A dialog from each key, closed by Escape: the focus comes back to a card.
                for key in ["?", "h", "q", Keys.ENTER]:
                    studio.card("mood").click()
                    keys(key)
                    wait(lambda: driver().find_elements(By.CSS_SELECTOR, "dialog[open]"), message=f"the dialog of {key!r}")
                    keys(Keys.ESCAPE)
                    wait(lambda: not driver().find_elements(By.CSS_SELECTOR, "dialog[open]"), message="the dialog closed")
                    wait_focus(lambda f: f.get("node") == "mood", f"the focus back on the card after {key!r}")
                # Undo with nothing to undo asks the studio nothing (no refusal).
                chord([Keys.CONTROL], "z")
                chord([Keys.CONTROL, Keys.SHIFT], "z")
        finally:
            studio.close()

    def test_today_by_keyboard(self):
        studio = Studio(ROUTINE)
        try:
            for pixels in WIDTHS:
                width(pixels)
                driver().find_element(By.ID, "tab-today").click()
                wait(lambda: driver().find_elements(By.CSS_SELECTOR, "#today-view .today-card"), message="Today's cards")
                stops = tab_tour()
                self.check_tour(stops, ["tab-today", "done"], "Today")
                # Every key a person might press on Today: none throws (the view need not have keys).
                for key in ["d", "s", "t", "x", Keys.SPACE, Keys.ESCAPE, Keys.ARROW_DOWN, Keys.ARROW_UP, "?"]:
                    keys(key)
                studio.shot(f"71-keys-today-{pixels}")
        finally:
            studio.close()

    def test_a_run_by_keyboard(self):
        # A studio each: a second run the same day would pass over the habits the first did.
        for pixels in WIDTHS:
            self.run_by_keyboard(pixels)

    def run_by_keyboard(self, pixels):
        studio = Studio(ROUTINE)
        try:
            width(pixels)
            driver().execute_script("sessionStorage.clear()")
            driver().find_element(By.ID, "tab-run").click()
            start = "#run-view [data-action=start]"
            wait(lambda: driver().find_element(By.CSS_SELECTOR, start), message="the start")
            stops = tab_tour()
            self.check_tour(stops, ["tab-run", "run-date", "start"], "Run")
            driver().execute_script("document.querySelector(arguments[0]).focus()", start)
            keys(Keys.ENTER)
            # A habit: Done has the focus, and d answers it.
            wait_focus(lambda f: f.get("action") == "done", f"Done focused at {pixels}")
            keys("d")
            # A question: its first answer has the focus; 2 answers it.
            wait_focus(lambda f: f.get("option") == "1", "the first answer focused")
            self.check_tour(tab_tour(), ["back", "quit"], "a run's question")
            keys("2")
            # A numeric habit: its amount has the focus; the timer starts by T and stops by Escape.
            wait(lambda: "run-value" in (driver().execute_script("return document.activeElement.className") or ""), message="the amount focused")
            driver().execute_script("document.activeElement.blur()")
            keys("t")
            wait(lambda: driver().find_elements(By.CSS_SELECTOR, "#run-view .timer"), message="the timer")
            keys(Keys.SPACE, Keys.SPACE, Keys.ESCAPE)
            wait(lambda: "run-value" in (driver().execute_script("return document.activeElement.className") or ""), message="the amount focused again")
            studio.shot(f"72-keys-run-{pixels}")
            keys(Keys.ENTER)
            # The end: Finish has the focus, Enter finishes; the summary's button then has it.
            wait_focus(lambda f: f.get("action") == "finish", "Finish focused")
            keys(Keys.ENTER)
            wait_focus(lambda f: f.get("action") == "again", "the summary's button focused")
            studio.shot(f"73-keys-run-summary-{pixels}")
            keys(Keys.ENTER)
            wait(lambda: driver().find_element(By.CSS_SELECTOR, "#run-view .run-page").get_attribute("data-state") == "start", message="back to the start")
        finally:
            studio.close()

    def test_your_days_by_keyboard(self):
        studio = DaysStudio(ROUTINE.replace("for 5m target 10 reps", "target 10 reps"), "days.rt")
        try:
            studio.routine("run", str(studio.path), "--date", BACKFILL[0][0], answers="d\n1\n10\n")
            for pixels in WIDTHS:
                width(pixels)
                studio.open("month/2026-11")
                stops = tab_tour()
                self.check_tour(stops, ["tab-days"], "Your days")
                cell = driver().find_element(By.CSS_SELECTOR, '#days-body [data-date="2026-11-02"]')
                driver().execute_script("arguments[0].focus()", cell)
                for key in [Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_LEFT, Keys.ARROW_UP]:
                    keys(key)
                    self.assertIsNotNone(focused(), f"the focus fell to <body> after {key!r}")
                self.assertIsNotNone(driver().execute_script("return document.activeElement.dataset.date"), focused())
                keys(Keys.ENTER)
                wait(lambda: driver().find_element(By.ID, "day-view").is_displayed(), message="the day view")
                self.check_tour(tab_tour(), ["tab-days"], "a day")
                studio.shot(f"74-keys-days-{pixels}")
        finally:
            studio.close()


class FocusTests(unittest.TestCase):
    def test_a_saved_card_keeps_the_focus(self):
        studio = Studio(ROUTINE)
        try:
            studio.card("water").send_keys(Keys.ENTER)
            title = wait(lambda: driver().find_element(By.CSS_SELECTOR, "dialog[open] #f-title"), message="the editor")
            title.send_keys(" now")
            v = studio.version()
            title.send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            wait_focus(lambda f: f.get("node") == "water", "the focus on the saved card")
            self.assertNotEqual(driver().execute_script("return document.activeElement.tagName"), "BODY")
            # Renamed, the card keeps the focus under its new ID.
            studio.card("water").send_keys(Keys.ENTER)
            field = wait(lambda: driver().find_element(By.CSS_SELECTOR, "dialog[open] #f-id"), message="the editor")
            field.clear()
            field.send_keys("glass")
            v = studio.version()
            field.send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            wait_focus(lambda f: f.get("node") == "glass", "the focus on the renamed card")
            studio.shot("75-keys-saved-focus")
        finally:
            studio.close()

    def test_after_a_delete_the_next_card_has_the_focus(self):
        studio = Studio('routine "D"\nhabit a "A"\nhabit b "B"\nhabit c "C"\n')
        try:
            studio.card("a").send_keys(Keys.DELETE)
            v = studio.version()
            wait(lambda: driver().find_element(By.CSS_SELECTOR, "dialog[open] button.primary"), message="the delete dialog").send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            wait(lambda: focused() is not None and focused()["node"] in ("b", "c"), message="the focus on a card left")
            self.assertEqual(driver().execute_script("return document.activeElement.classList.contains('card')"), True)
        finally:
            studio.close()

    def test_the_skip_link_leads_past_the_toolbar_to_the_cards(self):
        studio = Studio(ROUTINE)
        try:
            # Tab from the tabs: the skip link comes before the toolbar's buttons.
            driver().find_element(By.ID, "tab-days").send_keys(Keys.TAB)
            self.assertEqual(focused()["id"], "skip-to-cards")
            self.assertTrue(focused()["shown"], "the skip link is not shown when it has the focus")
            studio.shot("76-keys-skip-link")
            keys(Keys.TAB)
            self.assertEqual(focused()["id"], "add-habit")
            chord([Keys.SHIFT], Keys.TAB)
            self.assertEqual(focused()["id"], "skip-to-cards")
            keys(Keys.ENTER)
            wait_focus(lambda f: f.get("node") == "water", "the first card focused")
        finally:
            studio.close()

    def test_the_header_says_saved_whole(self):
        studio = Studio(ROUTINE)
        try:
            width(1400)
            v = studio.version()
            driver().find_element(By.ID, "add-habit").click()
            title = wait(lambda: driver().find_element(By.ID, "f-title"), message="the add dialog")
            title.send_keys("Stretch more")
            title.send_keys(Keys.ENTER)
            studio.wait_version_after(v)
            wait(lambda: driver().find_element(By.ID, "status").text == "saved", message="saved")
            size = driver().execute_script("const s = document.getElementById('status'); return [s.scrollWidth, s.clientWidth]")
            studio.shot("77-keys-saved-1400")
            self.assertLessEqual(size[0], size[1], f"'saved' is cut: {size}")
        finally:
            driver().execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            studio.close()


if __name__ == "__main__":
    unittest.main()
