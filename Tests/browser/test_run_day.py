"""The Run tab's countdown and date, and Play's date and amount, in a real Chromium: the time a
run records for a timed habit is the countdown's (pauses left out), a run on a chosen day takes
that weekday's branch, and Play asks a numeric habit for its amount. Screenshots go to
.build/studio-screenshots/ (6x-run-day-*.png)."""

import json
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_studio as base
from test_run import click, open_run_view, page, prompt_title, routine, state
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = (
    'routine "Days"\n\n'
    'habit stretch "Stretch" for 3s -> pushups\n'
    'habit pushups "Push-ups" target 20 reps -> monday\n'
    'habit monday "Monday only" on mon\n'
)
MONDAY = "2026-11-23"


def choose_date(selector, date):
    """A date input set as a person's pick sets it: the value, then its change event."""
    box = base.driver.find_element(By.CSS_SELECTOR, selector)
    base.driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", box, date)


def timer_key(key):
    base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer").send_keys(key)


class RunDayTests(unittest.TestCase):
    def test_a_run_on_a_chosen_day_records_what_its_countdown_measured(self):
        studio = Studio(TEXT)
        try:
            open_run_view()
            choose_date("#run-date", MONDAY)
            wait(lambda: "Monday 23 November 2026" in page().text, message="the chosen day named")
            click('[data-action="start"]')
            wait(lambda: state() == "step", message="the first step")
            self.assertIn("Monday 23 November 2026", base.driver.find_element(By.CSS_SELECTOR, ".run-heading").text)
            self.assertEqual(prompt_title(), "Stretch")
            started = time.monotonic()
            base.driver.find_element(By.TAG_NAME, "body").send_keys("t")
            wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer"), message="the countdown")
            self.assertEqual(base.driver.switch_to.active_element.get_attribute("class").split()[0], "timer")
            paused = time.monotonic()
            timer_key(" ")
            wait(lambda: "paused" in base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer").get_attribute("class"), message="paused")
            shown = base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer .clock").text
            time.sleep(1.3)
            self.assertEqual(base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer .clock").text, shown)
            timer_key(" ")
            pause = time.monotonic() - paused
            studio.shot("60-run-day-timer")
            wait(lambda: "over" in base.driver.find_element(By.CSS_SELECTOR, "#run-view .timer").get_attribute("class"), timeout=8, message="time up")
            timer_key(Keys.ENTER)
            total = time.monotonic() - started
            wait(lambda: prompt_title() == "Push-ups", message="push-ups")
            field = base.driver.find_element(By.CSS_SELECTOR, "input.run-value")
            field.clear()
            field.send_keys("12", Keys.ENTER)
            # On a Monday the Monday branch is asked.
            wait(lambda: prompt_title() == "Monday only", message="the Monday habit")
            click('[data-action="done"]')
            wait(lambda: state() == "end", message="the end")
            base.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
            wait(lambda: state() == "summary", message="the summary")
            studio.shot("61-run-day-summary")
            log = routine(studio, "log", str(studio.path), "--date", MONDAY, "--json")
            self.assertEqual(log.returncode, 0, log.stderr)
            steps = json.loads(log.stdout.splitlines()[0])["steps"]
            self.assertEqual([s["node"] for s in steps], ["stretch", "pushups", "monday"])
            # The countdown's own time, the pause (over 1.3 s) left out.
            self.assertGreaterEqual(steps[0]["seconds"], 3.0)
            self.assertLess(steps[0]["seconds"], total - pause + 0.5, (total, pause))
        finally:
            studio.close()

    def test_play_on_a_chosen_day_asks_for_an_amount(self):
        studio = Studio(TEXT)
        try:
            base.driver.find_element(By.ID, "toggle-play").click()
            wait(lambda: base.driver.find_element(By.ID, "play-date"), message="the play panel")
            choose_date("#play-date", "2026-11-24")
            wait(lambda: "As on Tuesday" in base.driver.find_element(By.ID, "play-body").text, message="Tuesday")
            click('#play-body [data-answer="d"]')
            amount = wait(lambda: base.driver.find_element(By.ID, "play-amount"), message="the amount asked")
            self.assertEqual(amount.get_attribute("value"), "20")
            amount.clear()
            amount.send_keys("12", Keys.ENTER)
            body = wait(lambda: base.driver.find_element(By.ID, "play-body").text if "12 of 20" in base.driver.find_element(By.ID, "play-body").text else None,
                        message="the amount played")
            self.assertIn("Push-ups — done: 12 of 20 reps", body)
            self.assertIn("Monday only — not scheduled on Tuesdays", body)
            studio.shot("62-run-day-play")
            self.assertEqual(studio.text, TEXT)
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
