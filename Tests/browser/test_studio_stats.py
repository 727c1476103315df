"""The builder's stats toggle in a real Chromium: cards filled by completion rate and answers
counted as `routine graph --stats` draws them, over a history backfilled with `routine run`,
the rates those of `routine stats`, and a run in a terminal redrawn while the toggle is on."""

import json
import math
import os
import subprocess
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import test_studio as base
from test_studio import ROUTINE, Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = """routine "Stats"

habit water "Glass of water" -> stretch
habit stretch "Stretch" for 5m -> mood

question mood "How do you feel?"
  "Good" -> run
  "Tired" -> nap

habit run "Run" target 3 km
habit nap "Nap"
habit later "Not yet in any run"
"""

# Runs of 2026-11-02 to 2026-11-06: each answer, some habits skipped.
RUNS = [
    ("2026-11-02", ["d", "d", "1", "3"]),
    ("2026-11-03", ["d", "s", "2", "d"]),
    ("2026-11-04", ["s", "d", "1", "2"]),
    ("2026-11-05", ["d", "d", "1", "s"]),
]


class StatsToggleTests(unittest.TestCase):
    def routine(self, studio, *arguments):
        env = dict(os.environ, HOME=studio.folder.name, XDG_DATA_HOME=studio.folder.name, NO_COLOR="1")
        return subprocess.run([ROUTINE, *arguments], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=30)

    def run_on(self, studio, date, answers):
        path = os.path.join(studio.folder.name, f"answers-{date}.txt")
        with open(path, "w") as out:
            out.write("\n".join(answers) + "\n")
        ran = self.routine(studio, "run", str(studio.path), "--date", date, "--answers", path)
        self.assertEqual(ran.returncode, 0, ran.stderr)

    def rates(self, studio):
        """`routine stats --json`'s rateAll of each habit, as whole percents."""
        stats = self.routine(studio, "stats", str(studio.path), "--json")
        self.assertEqual(stats.returncode, 0, stats.stderr)
        # Halves round up, as the page rounds them (Python's round() would take 12.5 to 12).
        return {h["id"]: math.floor(h["rateAll"] * 100 + 0.5) for h in json.loads(stats.stdout)["habits"] if h["rateAll"] is not None}

    def shown(self):
        """The percent on each rated card, and the count on each answer, read in one script:
        the cards may be drawn again between two reads (the figures arriving), which made an
        element read one at a time stale."""
        rates, chosen = base.driver.execute_script("""
            const rates = {};
            for (const card of document.querySelectorAll(".card.stat-rated")) {
                const rate = card.querySelector(".stat.rate");
                rates[card.dataset.node] = rate ? rate.innerText.trim() : null;
            }
            const chosen = [...document.querySelectorAll('.port[data-node="mood"] .stat.chosen')].map(p => p.innerText.trim());
            return [rates, chosen];
        """)
        return rates, chosen

    def test_cards_coloured_by_rate_and_answers_counted(self):
        studio = Studio(TEXT, "stats.rt")
        try:
            for date, answers in RUNS:
                self.run_on(studio, date, answers)
            expected = self.rates(studio)
            self.assertGreater(len(set(expected.values())), 1, expected)
            button = base.driver.find_element(By.ID, "toggle-stats")
            self.assertEqual(button.get_attribute("aria-pressed"), "false")
            button.click()
            wait(lambda: base.driver.find_elements(By.CSS_SELECTOR, ".card.stat-rated"), message="the rated cards")
            self.assertEqual(button.get_attribute("aria-pressed"), "true")
            want = {habit: f"{percent}%" for habit, percent in expected.items()}
            # Once drawn, the figures stay; a wrong figure still fails below, after the wait.
            wait(lambda: self.shown()[0] == want, message="the rates on the cards")
            rates, chosen = self.shown()
            self.assertEqual(rates, want)
            self.assertEqual(chosen, ["· 3×", "· 1×"])
            # Filled with graph --stats' colours; a card no run reached is faded.
            dot = self.routine(studio, "graph", str(studio.path), "--stats").stdout
            for card in base.driver.find_elements(By.CSS_SELECTOR, ".card.stat-rated"):
                fill = base.driver.execute_script("return arguments[0].style.getPropertyValue('--stat-fill')", card)
                self.assertIn(f'fillcolor="{fill}"', dot)
            self.assertIn("stat-unreached", studio.card("later").get_attribute("class"))
            legend = base.driver.find_element(By.ID, "stats-legend")
            self.assertIn("4 runs", legend.text)
            self.assertIn("80–100%", legend.text)
            studio.shot("30-builder-stats")
            base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            studio.shot("30-builder-stats-dark")
            base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

            # A run in a terminal shows while the toggle is on.
            self.run_on(studio, "2026-11-06", ["d", "d", "2", "d"])
            expected = self.rates(studio)
            wait(lambda: "5 runs" in legend.text, timeout=5, message="the terminal's run")
            wait(lambda: self.shown() == ({h: f"{p}%" for h, p in expected.items()}, ["· 3×", "· 2×"]), timeout=3, message="the new figures")

            # Off again, by its key: no fill, no count, no legend.
            ActionChains(base.driver).send_keys("s").perform()
            wait(lambda: not base.driver.find_elements(By.CSS_SELECTOR, ".stat"), message="the figures gone")
            self.assertFalse(legend.is_displayed())
            self.assertEqual(button.get_attribute("aria-pressed"), "false")
        finally:
            studio.close()

    def test_a_selected_question_shows_its_habits_table(self):
        """The figures on the cards come without the questions' tables; a question card
        selected while they are shown asks for its own (`/api/stats?question=ID`), and the
        legend lists it as `routine stats --question ID --json` gives it."""
        studio = Studio(TEXT, "stats.rt")
        try:
            for date, answers in RUNS:
                self.run_on(studio, date, answers)
            command = self.routine(studio, "stats", str(studio.path), "--question", "mood", "--json")
            self.assertEqual(command.returncode, 0, command.stderr)
            expected = json.loads(command.stdout)
            # The side panel's Stats: the legend, then the selected question's table.
            legend = base.driver.find_element(By.ID, "stats-panel")
            base.driver.find_element(By.ID, "toggle-stats").click()
            wait(lambda: "Select a question" in legend.text, message="the legend's hint")
            asked = "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/api/stats'))"
            self.assertEqual(base.driver.execute_script(asked), [], "no table is asked for before a question is selected")
            studio.card("mood").click()
            wait(lambda: legend.find_elements(By.CSS_SELECTOR, ".stats-habits tbody tr"), message="the question's table")
            self.assertTrue(any(name.endswith("/api/stats?question=mood") for name in base.driver.execute_script(asked)))
            heads = [th.text for th in legend.find_elements(By.CSS_SELECTOR, ".stats-habits thead th")]
            self.assertEqual(heads, ["habit", "after “Good”", "after “Tired”"])

            def side(t):
                rate = "–" if t["rate"] is None else f"{math.floor(t['rate'] * 100 + 0.5)}%"
                return f"{rate} ({t['done']} of {t['due']})"

            rows = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
                    for row in legend.find_elements(By.CSS_SELECTOR, ".stats-habits tbody tr")]
            # Named by their cards' titles, as on the canvas.
            titles = {"run": "Run", "nap": "Nap"}
            self.assertEqual(rows, [[titles[h["id"]], *(f"{side(b['with'])} · others {side(b['others'])}" for b in h["byAnswer"])]
                                    for h in expected["habits"]])
            self.assertEqual([r[0] for r in rows], ["Run", "Nap"])
            # The legend and the table hide no card: they sit beside the canvas.
            table = base.driver.find_element(By.ID, "stats-panel").rect
            for card in base.driver.find_elements(By.CSS_SELECTOR, "#world .card"):
                r = card.rect
                self.assertFalse(r["x"] < table["x"] + table["width"] and table["x"] < r["x"] + r["width"]
                                 and r["y"] < table["y"] + table["height"] and table["y"] < r["y"] + r["height"], card.get_attribute("data-node"))
            self.assertIn("How do you feel?", legend.text)
            studio.shot("31-builder-stats-question")
            # A habit card leaves the table as it was; off and on again, none is shown until asked.
            studio.card("water").click()
            self.assertEqual(len(legend.find_elements(By.CSS_SELECTOR, ".stats-habits tbody tr")), 2)
            base.driver.find_element(By.ID, "toggle-stats").click()
            base.driver.find_element(By.ID, "toggle-stats").click()
            wait(lambda: "Select a question" in legend.text, message="the hint again")
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
