"""Accessibility in a real Chromium: axe-core (axe-selenium-python) finds no critical or serious
violation on any view, and no view scrolls sideways at a phone's width or a tablet's. Every
view is photographed at three sizes in light and dark: .build/studio-screenshots/9x-a11y-*.png."""

import unittest

from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

import test_studio as base
from test_days import ROUTINE, DaysStudio
from test_studio import wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

SIZES = [(1400, 900), (820, 1000), (390, 844)]
BLOCKING = {"critical", "serious"}


def click(element_id):
    base.driver.find_element(By.ID, element_id).click()


def shown(selector):
    return wait(lambda: [e for e in base.driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()], message=selector)


class AccessibilityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.studio = DaysStudio(ROUTINE, "days.rt")
        cls.studio.backfill()

    @classmethod
    def tearDownClass(cls):
        base.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        cls.studio.close()

    def views(self):
        """Each view by name, with how to bring it on screen from a fresh page."""

        def builder():
            click("tab-builder")
            shown(".card")

        def stats():
            builder()
            click("toggle-stats")
            shown(".stats-legend")

        def dialog():
            builder()
            click("add-habit")
            shown("dialog[open]")

        def today():
            click("tab-today")
            shown("#today-view .today-card")

        def run():
            click("tab-run")
            shown("#run-view button")

        def days(place):
            return lambda: (self.studio.open(place), shown("#days-body [data-date]"))

        def day():
            days("month/2026-11")()
            base.driver.execute_script("window.studio.dayView.show('2026-11-02')")
            shown("#day-view .day-run")

        return [("builder", builder), ("builder-stats", stats), ("dialog", dialog), ("today", today), ("run", run),
                ("days-habit", days("habit/run/2026")), ("days-week", days("week/2026-11-02")), ("days-month", days("month/2026-11")),
                ("days-year", days("year/2026")), ("day", day)]

    def fresh(self, show):
        base.driver.get(self.studio.address.split("#")[0])
        wait(lambda: base.driver.find_elements(By.CSS_SELECTOR, "body[data-version]"), message="the page")
        show()

    def test_no_critical_or_serious_violation_on_any_view(self):
        failures = []
        for name, show in self.views():
            with self.subTest(view=name):
                self.fresh(show)
                axe = Axe(base.driver)
                axe.inject()
                results = axe.run()
                for v in results["violations"]:
                    if v["impact"] in BLOCKING:
                        targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:3])
                        failures.append(f"{name}: {v['id']} ({v['impact']}, {len(v['nodes'])} elements: {targets}): {v['help']}")
        self.assertEqual(failures, [], "axe-core found:\n" + "\n".join(failures))

    def test_no_view_scrolls_sideways_and_each_is_photographed(self):
        wide = []
        try:
            for width, height in SIZES:
                base.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                for name, show in self.views():
                    for theme in ["light", "dark"]:
                        base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
                        self.fresh(show)
                        sideways = base.driver.execute_script(
                            "const e = document.scrollingElement; return e.scrollWidth - e.clientWidth")
                        if sideways > 1:
                            wide.append(f"{name} at {width}×{height}: {sideways}px wider than the window")
                        base.driver.save_screenshot(str(base.SHOTS / f"9x-a11y-{name}-{width}-{theme}.png"))
        finally:
            base.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertEqual(sorted(set(wide)), [], "\n".join(sorted(set(wide))))


if __name__ == "__main__":
    unittest.main()
