"""Browser tests of the Run view: a whole run in the page, seen by `routine log`; a scripted
terminal run resumed in the page; two pages on one run. Screenshots go to
.build/studio-screenshots/ (3x-run-*.png)."""

import os
import subprocess
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException

import test_studio as base
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

ROUTINE = (
    'routine "Morning <b>run</b>"\n\n'
    'habit water "Drink <b>water</b> & \\"more\\"" -> pushups\n  note "A full glass, <i>slowly</i>."\n'
    'habit pushups "Push-ups" target 20 reps -> mood\n'
    'question mood "How do you feel?"\n  "Great <img src=x onerror=alert(1)>" -> walk\n  "Tired" -> nap\n'
    'habit walk "Go for a walk" for 20m\n'
    'habit nap "Nap"\n'
)


def routine(studio, *arguments, stdin=None):
    env = dict(os.environ, HOME=studio.folder.name, XDG_DATA_HOME=studio.folder.name, NO_COLOR="1")
    return subprocess.run([base.ROUTINE, *arguments], capture_output=True, text=True, env=env, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, timeout=30)


def page():
    return base.driver.find_element(By.CSS_SELECTOR, "#run-view .run-page")


def page_text():
    """The run page's text, read again when a redraw replaced the page between look-up and read."""
    for _ in range(50):
        try:
            return page().text
        except StaleElementReferenceException:
            time.sleep(0.05)
    return page().text


def state():
    return page().get_attribute("data-state")


def prompt_title():
    return base.driver.find_element(By.CSS_SELECTOR, "#run-view .run-title").text


def press(key):
    base.driver.find_element(By.TAG_NAME, "body").send_keys(key)


def click(selector, driver=None):
    """Clicks the element `selector` finds, found again if the view redrew it meanwhile (a
    history change announced on the live channel redraws the view)."""
    driver = driver or base.driver

    def attempt():
        driver.find_element(By.CSS_SELECTOR, selector).click()
        return True

    wait(attempt, message=f"a click on {selector}")


def open_run_view():
    base.driver.execute_script("sessionStorage.clear()")
    base.driver.find_element(By.ID, "tab-run").click()
    wait(lambda: state() in ("start", "offer", "held"), message="the Run view")


class RunTests(unittest.TestCase):
    def test_a_whole_run_in_the_browser_then_the_log_shows_it(self):
        base.allow_page_errors(r"/api/run/answer - .* 422")  # an amount that is none, refused
        studio = Studio(ROUTINE)
        try:
            open_run_view()
            self.assertEqual(state(), "start")
            studio.shot("30-run-start")
            click('[data-action="start"]')
            wait(lambda: state() == "step", message="the first step")
            # Titles and notes are text: the characters shown as they are, no element from them.
            self.assertEqual(prompt_title(), 'Drink <b>water</b> & "more"')
            self.assertIn("A full glass, <i>slowly</i>.", page().text)
            self.assertIn("step 1 · at most 3 more", page().text.lower())
            view = base.driver.find_element(By.ID, "run-view")
            self.assertEqual(view.find_elements(By.CSS_SELECTOR, ".run-page b, .run-page i, .run-page img"), [])
            studio.shot("31-run-habit")
            press("d")
            wait(lambda: prompt_title() == "Push-ups", message="push-ups")
            field = base.driver.find_element(By.CSS_SELECTOR, "input.run-value")
            self.assertEqual(field.get_attribute("value"), "20")
            # A value that is not an amount is refused with the runner's words.
            base.driver.execute_script("arguments[0].type='text'; arguments[0].value='lots'", field)
            click('[data-action="record"]')
            wait(lambda: "is not an amount" in base.driver.find_element(By.ID, "run-message").text, message="the refusal")
            studio.shot("32-run-refused")
            field = base.driver.find_element(By.CSS_SELECTOR, "input.run-value")
            field.clear()
            field.send_keys("15", Keys.ENTER)
            wait(lambda: prompt_title() == "How do you feel?", message="the question")
            self.assertEqual(len(base.driver.find_elements(By.CSS_SELECTOR, ".run-options button")), 2)
            self.assertEqual(view.find_elements(By.TAG_NAME, "img"), [])
            studio.shot("33-run-question")
            press("1")
            wait(lambda: prompt_title() == "Go for a walk", message="the walk")
            self.assertIn("20m", page().text)
            press("b")
            wait(lambda: prompt_title() == "How do you feel?", message="back at the question")
            click('.run-options button[data-option="1"]')
            wait(lambda: prompt_title() == "Go for a walk", message="the walk again")
            click('[data-action="done"]')
            wait(lambda: state() == "end", message="the end confirmation")
            studio.shot("34-run-end")
            press(Keys.ENTER)
            wait(lambda: state() == "summary", message="the summary")
            self.assertIn("3 done · 0 skipped · 0 not scheduled", page().text)
            self.assertIn("Push-ups: 15 of 20 reps", page().text)
            studio.shot("35-run-summary")

            log = routine(studio, "log", "--date", time.strftime("%Y-%m-%d"))
            self.assertEqual(log.returncode, 0, log.stderr)
            self.assertIn("completed", log.stdout)
            for text in ['Drink <b>water</b> & "more"', "Push-ups", "15", "Go for a walk: done"]:
                self.assertIn(text, log.stdout)
        finally:
            studio.close()

    def test_the_page_shows_and_says_where_the_run_is(self):
        studio = Studio(ROUTINE)
        try:
            open_run_view()
            click('[data-action="start"]')
            wait(lambda: state() == "step", message="the first step")

            def trail():
                items = base.driver.find_elements(By.CSS_SELECTOR, "#run-view .run-trail li")
                return [(li.get_attribute("aria-current"), li.get_attribute("data-node"), li.text) for li in items]

            self.assertEqual([(c, n) for c, n, _ in trail()], [("step", "water")])
            wait(lambda: base.driver.find_element(By.ID, "run-said").get_attribute("textContent") == 'Step 1: Drink <b>water</b> & "more"',
                 message="the first step said")
            press("d")
            wait(lambda: prompt_title() == "Push-ups", message="push-ups")
            field = base.driver.find_element(By.CSS_SELECTOR, "input.run-value")
            field.clear()
            field.send_keys("15", Keys.ENTER)
            wait(lambda: prompt_title() == "How do you feel?", message="the question")
            # The steps walked, in order, then the one in front: the only current step.
            walked = trail()
            self.assertEqual([(c, n) for c, n, _ in walked], [(None, "water"), (None, "pushups"), ("step", "mood")])
            self.assertIn("Push-ups: done (15 reps)", walked[1][2])
            self.assertIn("How do you feel?", walked[2][2])
            self.assertIn("2 steps recorded", page().text)
            # A screen reader hears the step once, with the one before it.
            wait(lambda: base.driver.find_element(By.ID, "run-said").get_attribute("textContent")
                 == "Step 3: How do you feel?, after Push-ups: done (15 reps)", message="the step said")
            self.assertEqual(base.driver.find_element(By.ID, "run-said").get_attribute("role"), "status")
            studio.shot("38-run-trail")
            press("b")
            wait(lambda: prompt_title() == "Push-ups", message="back at push-ups")
            self.assertEqual([(c, n) for c, n, _ in trail()], [(None, "water"), ("step", "pushups")])
        finally:
            studio.close()

    def test_the_routines_picture_marks_the_path_and_folds_away_on_a_phone(self):
        studio = Studio(ROUTINE)
        driver = base.driver
        try:
            driver.set_window_size(1400, 900)
            open_run_view()
            click('[data-action="start"]')
            wait(lambda: state() == "step", message="the first step")

            def marks():
                # One snapshot in the page: the picture is drawn again as the run moves, and
                # cards found one call and read the next may be gone by then.
                return dict(driver.execute_script(
                    "return Array.from(document.querySelectorAll('#run-view .run-picture .card'), c => "
                    "[c.dataset.node, c.classList.contains('current') ? 'current' : c.classList.contains('walked') ? 'walked' : ''])"))

            wait(lambda: marks().get("water") == "current", message="water current in the picture")
            self.assertEqual(sorted(marks()), ["mood", "nap", "pushups", "walk", "water"])
            press("d")
            wait(lambda: prompt_title() == "Push-ups", message="push-ups")
            field = driver.find_element(By.CSS_SELECTOR, "input.run-value")
            field.clear()
            field.send_keys("12", Keys.ENTER)
            wait(lambda: marks() == {"water": "walked", "pushups": "walked", "mood": "current", "walk": "", "nap": ""}, message="the path so far")
            # Beside the card, whole inside its box and the window; a picture only, for no hand and no screen reader.
            picture = driver.find_element(By.CSS_SELECTOR, "#run-view .run-picture")
            box, card = picture.rect, driver.find_element(By.CSS_SELECTOR, "#run-view .run-card").rect
            self.assertGreaterEqual(box["x"], card["x"] + card["width"])
            self.assertLessEqual(box["y"] + box["height"], 900)
            for c in picture.find_elements(By.CSS_SELECTOR, ".card"):
                r = c.rect
                self.assertTrue(box["x"] - 1 <= r["x"] and r["x"] + r["width"] <= box["x"] + box["width"] + 1
                                and box["y"] - 1 <= r["y"] and r["y"] + r["height"] <= box["y"] + box["height"] + 1, c.get_attribute("data-node"))
            # The out ports hang below their cards: the frame that clips the copy has room for them.
            frame = picture.find_element(By.CSS_SELECTOR, ".run-picture-frame").rect
            for port in picture.find_elements(By.CSS_SELECTOR, ".port.out"):
                r = port.rect
                self.assertTrue(frame["x"] <= r["x"] and r["x"] + r["width"] <= frame["x"] + frame["width"]
                                and frame["y"] <= r["y"] and r["y"] + r["height"] <= frame["y"] + frame["height"], f"{r} outside {frame}")
            self.assertEqual(picture.get_attribute("aria-hidden"), "true")
            self.assertEqual(picture.find_elements(By.CSS_SELECTOR, "[tabindex], [id]"), [])
            studio.shot("39-run-picture")
            # A tablet shows it above the card; a phone folds it away, and nothing scrolls sideways.
            driver.set_window_size(820, 1000)
            wait(lambda: picture.is_displayed() and picture.rect["y"] + picture.rect["height"] <= driver.find_element(By.CSS_SELECTOR, "#run-view .run-card").rect["y"],
                 message="the picture above the card")
            wait(lambda: marks()["mood"] == "current", message="the marks kept")
            studio.shot("39-run-picture-tablet")
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
            try:
                wait(lambda: not picture.is_displayed(), message="the picture folded away")
                self.assertLessEqual(driver.execute_script("return document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"), 1)
                studio.shot("39-run-picture-phone")
            finally:
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        finally:
            base.driver.set_window_size(1400, 900)
            studio.close()

    def test_resume_in_the_browser_a_run_begun_in_a_scripted_terminal_run(self):
        studio = Studio(ROUTINE)
        try:
            begun = routine(studio, "run", str(studio.path), stdin="d\n12\nq\n")
            self.assertEqual(begun.returncode, 0, begun.stderr)
            open_run_view()
            wait(lambda: state() == "offer", message="the offer to resume")
            wait(lambda: "at step 3 (How do you feel?)" in page_text(), message="the offer's step")
            self.assertIn("quit", page_text())
            studio.shot("36-run-offer")
            click('[data-action="resume"]')
            wait(lambda: state() == "step", message="the resumed step")
            self.assertEqual(prompt_title(), "How do you feel?")
            self.assertIn("2 steps recorded", page().text)
            press("2")
            wait(lambda: prompt_title() == "Nap", message="the nap")
            press("d")
            wait(lambda: state() == "end", message="the end")
            press(Keys.ENTER)
            wait(lambda: state() == "summary", message="the summary")
            log = routine(studio, "log", "--date", time.strftime("%Y-%m-%d"))
            self.assertIn("completed", log.stdout)
            self.assertIn("Nap: done", log.stdout)
            self.assertEqual(log.stdout.count("Morning <b>run</b>"), 1, log.stdout)
        finally:
            studio.close()

    def test_two_pages_one_holds_the_other_watches_and_takes_over(self):
        studio = Studio(ROUTINE)
        driver = base.driver
        try:
            open_run_view()
            click('[data-action="start"]', driver)
            wait(lambda: state() == "step", message="the first step")
            first = driver.current_window_handle
            driver.switch_to.new_window("tab")
            driver.get(studio.address + "#run")
            wait(lambda: state() == "held", message="the second page told")
            self.assertIn("Another page holds today's run", page().text)
            driver.switch_to.window(first)
            press("d")
            wait(lambda: prompt_title() == "Push-ups", message="the first page's answer")
            driver.switch_to.window(driver.window_handles[-1])
            click('[data-action="take"]', driver)
            wait(lambda: state() == "step" and prompt_title() == "Push-ups", message="taken over")
            driver.switch_to.window(first)
            wait(lambda: state() == "held", message="the first page lets go")
            self.assertIn("Another page holds this run", page().text)
            self.assertTrue(all(not b.is_enabled() for b in driver.find_elements(By.CSS_SELECTOR, ".run-card .run-actions button:not([data-action=take])")))
            studio.shot("37-run-held")
            driver.switch_to.window(driver.window_handles[-1])
            driver.find_element(By.CSS_SELECTOR, "input.run-value").send_keys(Keys.ENTER)
            driver.switch_to.window(first)
            wait(lambda: "Push-ups: done" in page().text or prompt_title() == "How do you feel?", message="the answer seen live")
        finally:
            for handle in driver.window_handles[1:]:
                driver.switch_to.window(handle)
                driver.close()
            driver.switch_to.window(driver.window_handles[0])
            studio.close()


if __name__ == "__main__":
    unittest.main()
