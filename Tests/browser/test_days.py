"""Browser tests of "Your days": a habit's calendar and a month's shares against `routine stats
--json` on a history backfilled by the binary, the day view opened by a click or Enter, the
address keeping the view, a run in a terminal showing without a reload, and every view fitting
a phone's screen and a wide one."""

import json
import os
import subprocess
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_studio as base
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

ROUTINE = """routine "Days"
habit water "Glass of water" -> pushups
habit pushups "Push-ups" target 20 reps -> run
habit run "Run" on mon wed fri -> mood
question mood "Mood?"
  "Good" -> gym
  "Bad" -> nap
habit gym "Gym"
habit nap "Nap"
"""

# 2026-11-02 is a Monday; days without a run are missed or unknown, 11-10 is a day off.
BACKFILL = [
    ("2026-11-02", "d 25 d 1 d"), ("2026-11-03", "d 15 2 d"), ("2026-11-04", "s 20 s 1 s"),
    ("2026-11-06", "d 30 d 2 d"), ("2026-11-07", "d s 1 d"), ("2026-11-09", "d 22 d 1 d"),
    ("2026-11-12", "d 5 2 s"),
]


class DaysStudio(Studio):
    def routine(self, *arguments, answers=""):
        env = dict(os.environ, HOME=self.folder.name, XDG_DATA_HOME=self.folder.name, NO_COLOR="1")
        done = subprocess.run([base.ROUTINE, *arguments], input=answers, capture_output=True, text=True, env=env)
        assert done.returncode == 0, (arguments, done.stderr)
        return done.stdout

    def backfill(self):
        for date, answers in BACKFILL:
            self.routine("run", str(self.path), "--date", date, answers="\n".join(answers.split()) + "\n")
        self.routine("done", str(self.path), "water", "--date", "2026-11-05")
        self.routine("off", str(self.path), "2026-11-10", "--reason", "travel")

    def stats(self):
        return json.loads(self.routine("stats", str(self.path), "--json"))

    def open(self, place, drawn=None):
        """Opens the page at #days/PLACE by a reload, as a person coming back to it would;
        `drawn` is the place the page settles on, when not PLACE itself."""
        base.driver.get(self.address.split("#")[0] + "#days/" + place)
        base.driver.refresh()
        wait(lambda: base.driver.execute_script("return window.studioDaysDrawn && window.studioDaysDrawn.place") == (drawn or place), message=f"#days/{place} drawn")

    def cells(self, attribute):
        script = f"return [...document.querySelectorAll('#days-body [data-date]')].map(c => [c.dataset.date, c.getAttribute('{attribute}')])"
        return dict(base.driver.execute_script(script))


class DaysTests(unittest.TestCase):
    def setUp(self):
        self.studio = DaysStudio(ROUTINE, "days.rt")
        self.studio.backfill()

    def tearDown(self):
        base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.studio.close()

    def test_each_habits_calendar_shows_the_statuses_of_stats(self):
        stats = self.studio.stats()
        self.studio.open("habit/water/2026")
        for habit in stats["habits"]:
            picker = base.driver.find_element(By.ID, "days-habit")
            base.driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", picker, habit["id"])
            wait(lambda: base.driver.execute_script("return location.hash") == f"#days/habit/{habit['id']}/2026", message=habit["id"])
            shown = self.studio.cells("data-status")
            self.assertEqual(len(shown), 365)
            this_year = [day for day in habit["days"] if day["date"].startswith("2026-")]
            for day in this_year:
                self.assertEqual(shown[day["date"]], day["status"], f"{habit['id']} on {day['date']}")
            known = {day["date"] for day in this_year}
            self.assertEqual({d for d, s in shown.items() if s != "none"}, known)
        # The figures are those of stats, worded as stats words them.
        self.studio.open("habit/pushups/2026")
        pushups = next(h for h in stats["habits"] if h["id"] == "pushups")
        tiles = base.driver.find_element(By.CSS_SELECTOR, ".tiles").text
        self.assertIn(f"{pushups['bestStreak']} day", tiles)
        due = pushups["counts"]["done"] + pushups["counts"]["skipped"] + pushups["counts"]["missed"]
        self.assertIn(f"{round(pushups['rateAll'] * 100)}% of {due} known due days · {pushups['counts']['unknown']} unknown", tiles)
        self.assertEqual(len(base.driver.find_elements(By.CSS_SELECTOR, "svg.value-chart circle")), pushups["valuesGiven"])
        self.assertEqual(len(base.driver.find_elements(By.CSS_SELECTOR, "svg.value-chart line.target")), 1)
        off = base.driver.find_element(By.CSS_SELECTOR, '[data-date="2026-11-10"]')
        self.assertEqual(off.get_attribute("data-off"), "true")
        self.assertIn("day off", off.get_attribute("aria-label"))
        self.assertIn("Mood?", base.driver.find_element(By.CSS_SELECTOR, ".questions").text)
        self.studio.shot("days-1-habit")
        base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.studio.shot("days-1-habit-dark")

    def test_a_months_days_are_shaded_by_the_share_of_stats(self):
        stats = self.studio.stats()
        self.studio.open("month/2026-11")
        shown = self.studio.cells("data-share")
        self.assertEqual(len(shown), 30)
        for day in stats["days"]:
            if not day["date"].startswith("2026-11"):
                continue
            if day["share"] is None:
                self.assertEqual(shown[day["date"]], "", day["date"])
            else:
                self.assertAlmostEqual(float(shown[day["date"]]), day["share"], places=4, msg=day["date"])
        self.assertTrue(any(s not in ("", None) and float(s) < 1 for s in shown.values()))
        self.studio.shot("days-2-month")
        base.driver.find_element(By.ID, "days-prev").click()
        wait(lambda: base.driver.execute_script("return location.hash") == "#days/month/2026-10", message="the month before")
        base.driver.find_element(By.ID, "days-next").click()
        base.driver.find_element(By.CSS_SELECTOR, '[data-mode="week"]').click()
        wait(lambda: base.driver.execute_script("return location.hash").startswith("#days/week/"), message="the week view")
        self.studio.open("week/2026-11-04", drawn="week/2026-11-02")
        self.assertEqual(base.driver.execute_script("return location.hash"), "#days/week/2026-11-02")
        self.assertEqual(sorted(self.studio.cells("data-share")), [f"2026-11-0{d}" for d in range(2, 9)])
        self.studio.shot("days-3-week")
        self.studio.open("year/2026")
        self.assertEqual(len(self.studio.cells("data-share")), 365)
        self.studio.shot("days-4-year")

    def test_a_click_or_enter_on_a_day_opens_it_in_the_day_view(self):
        self.studio.open("habit/run/2026")
        base.driver.execute_script(
            "window.shownDays = []; const view = window.studio.dayView, show = view.show.bind(view);"
            "view.show = (date) => { window.shownDays.push(date); return show(date); }")
        base.driver.find_element(By.CSS_SELECTOR, '[data-date="2026-11-04"]').click()
        self.assertEqual(base.driver.execute_script("return window.shownDays"), ["2026-11-04"])
        wait(lambda: base.driver.find_element(By.ID, "day-view").is_displayed(), message="the day view")
        # The calendar is one Tab stop, the day last chosen.
        stops = base.driver.find_elements(By.CSS_SELECTOR, '[data-date][tabindex="0"]')
        self.assertEqual([c.get_attribute("data-date") for c in stops], ["2026-11-04"])
        cell = base.driver.find_element(By.CSS_SELECTOR, '[data-date="2026-11-06"]')
        self.assertIn("done", cell.get_attribute("aria-label"))
        cell.send_keys(Keys.ENTER)
        self.assertEqual(base.driver.execute_script("return window.shownDays"), ["2026-11-04", "2026-11-06"])
        # Arrows move between days: a column of the calendar is a week.
        focused = lambda: base.driver.execute_script("return document.activeElement.dataset.date")
        base.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        self.assertEqual(focused(), "2026-11-13")
        base.driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
        self.assertEqual(focused(), "2026-11-12")
        self.studio.open("month/2026-11")
        base.driver.execute_script(
            "window.shownDays = []; const view = window.studio.dayView; view.show = (date) => { window.shownDays.push(date); };")
        base.driver.find_element(By.CSS_SELECTOR, '[data-date="2026-11-09"]').click()
        self.assertEqual(base.driver.execute_script("return window.shownDays"), ["2026-11-09"])

    def test_a_run_in_a_terminal_shows_without_a_reload(self):
        self.studio.open("habit/water/2026")
        self.assertEqual(self.studio.cells("data-status")["2026-11-11"], "missed")
        self.studio.routine("done", str(self.studio.path), "water", "--date", "2026-11-11")
        wait(lambda: self.studio.cells("data-status")["2026-11-11"] == "done", timeout=3, message="the log drawn")
        self.assertEqual(base.driver.execute_script("return location.hash"), "#days/habit/water/2026")

    def test_a_routine_fixed_in_an_editor_shows_without_a_reload(self):
        base.allow_page_errors(r"/api/(stats|days-off) - .* 422")  # the routine broken meanwhile
        self.studio.open("habit/water/2026")
        self.studio.path.write_text(ROUTINE.replace('-> pushups', '-> nowhere'))
        wait(lambda: base.driver.find_elements(By.CSS_SELECTOR, ".days-error"), timeout=3, message="the error shown")
        self.assertIn("nowhere", base.driver.find_element(By.CSS_SELECTOR, ".days-error").text)
        self.studio.path.write_text(ROUTINE)
        wait(lambda: not base.driver.find_elements(By.CSS_SELECTOR, ".days-error")
             and self.studio.cells("data-status").get("2026-11-11") == "missed", timeout=3, message="the calendar back")

    def screen(self, width, height):
        base.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def rects(self, css):
        return base.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map((e) => { const r = e.getBoundingClientRect();"
            " return {left: r.left, right: r.right, top: Math.round(r.top), bottom: r.bottom}; })", css)

    def test_your_days_fit_a_wide_screen_and_a_phone(self):
        try:
            self.screen(1400, 900)
            self.studio.open("year/2026")
            # Centred as Today and Run are, and the year four months a row.
            left, right = base.driver.execute_script(
                "const view = document.getElementById('days-view'), box = view.getBoundingClientRect(),"
                " body = document.getElementById('days-body').getBoundingClientRect();"
                " return [body.left - box.left - view.clientLeft, box.left + view.clientLeft + view.clientWidth - body.right]")
            self.assertAlmostEqual(left, right, delta=2)
            self.assertGreater(left, 100)
            rows = [m["top"] for m in self.rects(".year-month")]
            self.assertEqual([rows.count(top) for top in sorted(set(rows))], [4, 4, 4])
            self.screen(390, 844)
            self.studio.open("year/2026")
            rows = [m["top"] for m in self.rects(".year-month")]
            self.assertEqual(set(rows.count(top) for top in rows), {2})
            # A month's days keep their numbers inside them; the view begins at its top.
            self.studio.open("month/2026-11")
            self.assertLess(self.rects(".days-toolbar")[0]["top"] - self.rects("#days-view")[0]["top"], 30)
            for day, number in zip(self.rects(".month-grid .day"), self.rects(".month-grid .day .num")):
                self.assertLessEqual(number["right"], day["right"] + 0.5)
            self.studio.shot("days-5-month-390")
            # A habit's calendar scrolls inside itself, to today.
            self.studio.open("habit/run/2026")
            scroller = self.rects(".grid-scroll")[0]
            today = self.rects(".grid-cells .is-today")[0]
            self.assertGreater(base.driver.execute_script("return document.querySelector('.grid-scroll').scrollLeft"), 0)
            self.assertGreaterEqual(today["left"], scroller["left"])
            self.assertLessEqual(today["right"], scroller["right"])
            self.studio.shot("days-6-habit-390")
            # The week's table scrolls inside itself, its habit column staying in view.
            self.studio.open("week/2026-11-02")
            wide = base.driver.execute_script("const t = document.querySelector('.table-scroll'); t.scrollLeft = t.scrollWidth;"
                                              " return t.scrollWidth - t.clientWidth")
            self.assertGreater(wide, 0)
            scroller = self.rects(".table-scroll")[0]
            wait(lambda: abs(self.rects(".week-habits tbody th")[0]["left"] - scroller["left"]) < 1, message="the habit column kept")
            self.studio.shot("days-7-week-390")
            # The day opens under the calendar, inside the screen.
            base.driver.find_element(By.CSS_SELECTOR, '[data-date="2026-11-03"]').click()
            wait(lambda: base.driver.find_elements(By.CSS_SELECTOR, "#day-view .day-run"), message="the day")
            day = self.rects("#day-view")[0]
            self.assertGreaterEqual(day["left"], 0)
            self.assertLessEqual(day["right"], 390)
            self.studio.shot("days-8-day-390")
        finally:
            base.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


if __name__ == "__main__":
    unittest.main()
