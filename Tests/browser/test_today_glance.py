"""Today at a glance in a real Chromium: the heading names the chosen day, and each habit shows
the streak and score `routine stats` gives and its last seven days, whose marks correct a day
in one click through the day view's corrections; a card says its status once, and its amount
field fits inside it. Screenshots go to .build/studio-screenshots/ (7x-today-*.png)."""

import datetime
import json
import unittest

from selenium.webdriver.common.by import By

import test_studio as base
from test_run import routine
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = 'routine "Glance"\n\nhabit water "Glass of water" -> pushups\nhabit pushups "Push-ups" target 20 reps\n'
TODAY = datetime.date.today()


def day(n):
    return (TODAY - datetime.timedelta(days=n)).isoformat()


def card(node):
    return base.driver.find_element(By.CSS_SELECTOR, f'#today-view .today-card[data-node="{node}"]')


def mark(node, date):
    return card(node).find_element(By.CSS_SELECTOR, f'.week-marks .mark[data-date="{date}"]')


class TodayGlanceTests(unittest.TestCase):
    def test_streak_score_and_marks_agree_with_stats_and_correct_a_day(self):
        studio = Studio(TEXT)
        try:
            for n in (1, 2, 4):
                done = routine(studio, "done", str(studio.path), "water", "--date", day(n))
                self.assertEqual(done.returncode, 0, done.stderr)
            base.driver.find_element(By.ID, "tab-today").click()
            wait(lambda: card("water").find_elements(By.CSS_SELECTOR, ".week-marks .mark"), message="the marks")
            self.assertIn("(today)", base.driver.find_element(By.ID, "today-heading").text)
            stats = json.loads(routine(studio, "stats", str(studio.path), "--json").stdout)
            water = next(h for h in stats["habits"] if h["id"] == "water")
            self.assertIn(f"streak {water['currentStreak']}", card("water").text)
            self.assertIn(f"{round(water['score'] * 100)}%", card("water").text)
            marks = card("water").find_elements(By.CSS_SELECTOR, ".week-marks .mark")
            self.assertEqual([m.get_attribute("data-date") for m in marks], [day(n) for n in range(6, -1, -1)])
            self.assertEqual(mark("water", day(1)).get_attribute("data-status"), "done")
            self.assertNotEqual(mark("water", day(3)).get_attribute("data-status"), "done")
            studio.shot("70-today-glance")
            # One click marks a day done; a second, skipped: each through /api/correct.
            mark("water", day(3)).click()
            wait(lambda: mark("water", day(3)).get_attribute("data-status") == "done", message="day 3 done")
            log = routine(studio, "log", str(studio.path), "--date", day(3))
            self.assertIn("Glass of water", log.stdout)
            self.assertIn("done", log.stdout)
            mark("water", day(3)).click()
            wait(lambda: mark("water", day(3)).get_attribute("data-status") == "skipped", message="day 3 skipped")
            # A numeric habit is marked done with its target.
            mark("pushups", day(2)).click()
            wait(lambda: mark("pushups", day(2)).get_attribute("data-status") == "done", message="push-ups done")
            values = json.loads(routine(studio, "stats", str(studio.path), "--json").stdout)
            pushups = next(h for h in values["habits"] if h["id"] == "pushups")
            self.assertEqual(next(d for d in pushups["days"] if d["date"] == day(2))["value"], 20)
            studio.shot("71-today-corrected")
        finally:
            studio.close()

    def test_the_heading_names_the_chosen_day(self):
        studio = Studio(TEXT)
        try:
            base.driver.find_element(By.ID, "tab-today").click()
            picker = wait(lambda: base.driver.find_element(By.ID, "today-date"), message="the day picker")
            base.driver.execute_script("arguments[0].value = '2026-11-23'; arguments[0].dispatchEvent(new Event('change'))", picker)
            wait(lambda: base.driver.find_element(By.ID, "today-heading").text.startswith("Monday 23 November 2026"), message="the heading")
            self.assertNotIn("Today", base.driver.find_element(By.ID, "today-heading").text)
        finally:
            studio.close()

    def test_a_card_says_due_once_and_its_amount_field_fits_inside_it(self):
        tomorrow = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][(TODAY.weekday() + 1) % 7]
        studio = Studio(TEXT.replace('target 20 reps\n', 'target 20 reps -> mood\n') + 'question mood "Mood?"\n  "Good" -> gym\n  "Bad"\n'
                        f'habit gym "Gym" -> run\nhabit run "Run" on {tomorrow}\n')
        try:
            base.driver.set_window_size(1400, 900)
            base.driver.find_element(By.ID, "tab-today").click()
            wait(lambda: card("pushups").find_elements(By.CSS_SELECTOR, '[data-action="done"]'), message="push-ups due")
            # The section says "Due"; a card due and not done yet says "to do", not "due" again,
            # and no card repeats its section's heading.
            self.assertEqual(card("pushups").find_element(By.CLASS_NAME, "status").text.lower(), "to do")
            sections = base.driver.find_elements(By.CSS_SELECTOR, "#today-view .today-section")
            self.assertEqual([s.find_element(By.TAG_NAME, "h3").text.lower().split(" (")[0] for s in sections], ["due", "maybe", "not due"])
            for section in sections:
                heading = section.find_element(By.TAG_NAME, "h3").text.lower().split(" (")[0]
                said = [status.text.lower() for status in section.find_elements(By.CSS_SELECTOR, ".today-card .status")]
                self.assertNotIn(heading, said)
            card("pushups").find_element(By.CSS_SELECTOR, '[data-action="done"]').click()
            wait(lambda: card("pushups").find_element(By.CSS_SELECTOR, "input.value"), message="the amount field")
            studio.shot("72-today-amount")
            box = card("pushups").rect
            for part in card("pushups").find_elements(By.CSS_SELECTOR, ".value-form > *"):
                r = part.rect
                self.assertLessEqual(r["x"] + r["width"], box["x"] + box["width"] - 1, part.text or part.tag_name)
                self.assertGreaterEqual(r["x"], box["x"], part.text or part.tag_name)
        finally:
            studio.close()

    def test_a_habit_done_or_skipped_leaves_the_due_heading(self):
        studio = Studio(TEXT.replace('target 20 reps\n', 'target 20 reps -> walk\n') + 'habit walk "Walk"\n')
        try:
            base.driver.set_window_size(1400, 900)
            base.driver.find_element(By.ID, "tab-today").click()

            def sections():
                return {s.find_element(By.TAG_NAME, "h3").get_attribute("textContent"): [c.get_attribute("data-node") for c in s.find_elements(By.CSS_SELECTOR, ".today-card")]
                        for s in base.driver.find_elements(By.CSS_SELECTOR, "#today-view .today-section")}

            wait(lambda: sections() == {"Due": ["water", "pushups", "walk"]}, message="three habits due")
            card("water").find_element(By.CSS_SELECTOR, '[data-action="done"]').click()
            wait(lambda: sections() == {"Due": ["pushups", "walk"], "Done": ["water"]}, message="water under Done")
            # Under "Done" the card does not say "done" again.
            self.assertEqual(card("water").find_elements(By.CLASS_NAME, "status"), [])
            # Skip shows on hover and focus; found again on each try, as the live channel may redraw the view.
            wait(lambda: base.driver.execute_script("arguments[0].click(); return true", card("walk").find_element(By.CSS_SELECTOR, '[data-action="skip"]')),
                 message="Skip")
            wait(lambda: sections() == {"Due": ["pushups"], "Done or skipped": ["water", "walk"]}, message="walk skipped")
            self.assertEqual(card("walk").find_element(By.CLASS_NAME, "status").text.lower(), "skipped")
            studio.shot("73-today-done-heading")
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
