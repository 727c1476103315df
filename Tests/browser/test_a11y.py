"""Accessibility in a real Chromium: axe-core (axe-selenium-python) finds no critical or serious
violation on any view, and nothing on any view scrolls sideways or passes the window's edge at
a phone's width or a tablet's. Every view is photographed at three sizes in light and dark, a
habit's title holding an emoji: .build/studio-screenshots/9x-a11y-*.png."""

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
# An emoji in a title, drawn by the emoji font the tests install.
EMOJI_ROUTINE = ROUTINE.replace('"Glass of water"', '"Glass of water 💧"')

# What passes sideways on the page, in words; empty when nothing does. The only things meant to
# scroll sideways are a habit's calendar and the week's table (each inside itself) and the
# builder's canvas (which pans): every other box that scrolls sideways (the document, a view, a
# dialog) is reported, and so is every element whose box passes the window's left or right edge
# unless an ancestor that fits the window clips it or is one of those.
SIDEWAYS = """
const width = document.documentElement.clientWidth;
const meant = (e) => e.matches(".grid-scroll, .table-scroll, .canvas");
const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.classList.length ? "." + [...e.classList].join(".") : "");
const fits = (e) => { const r = e.getBoundingClientRect(); return r.left >= -1 && r.right <= width + 1; };
const found = [];
const doc = document.scrollingElement;
if (doc.scrollWidth > doc.clientWidth + 1) found.push(`the document is ${doc.scrollWidth - doc.clientWidth}px wider than the window`);
const contained = (e) => {
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const overflow = getComputedStyle(a).overflowX;
    if ((overflow === "hidden" || overflow === "clip" || meant(a)) && fits(a)) return true;
  }
  return false;
};
const past = [];
for (const e of document.body.querySelectorAll("*")) {
  const style = getComputedStyle(e);
  if (style.display === "none" || style.visibility === "hidden") continue;
  const sideways = (style.overflowX === "auto" || style.overflowX === "scroll" || e.tagName === "DIALOG") && e.scrollWidth > e.clientWidth + 1;
  if (sideways && !meant(e)) found.push(`${name(e)} scrolls sideways by ${e.scrollWidth - e.clientWidth}px`);
  const r = e.getBoundingClientRect();
  if (r.width && r.height && !fits(e) && !contained(e)) past.push(e);
}
// The outermost of the elements past the edge: their children say nothing more.
for (const e of past.filter((e) => !past.some((o) => o !== e && o.contains(e))).slice(0, 6)) {
  const r = e.getBoundingClientRect();
  found.push(`${name(e)} spans ${Math.round(r.left)} to ${Math.round(r.right)} of ${width}px`);
}
return found;
"""


def click(element_id):
    base.driver.find_element(By.ID, element_id).click()


def shown(selector):
    return wait(lambda: [e for e in base.driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()], message=selector)


class AccessibilityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.studio = DaysStudio(EMOJI_ROUTINE, "days.rt")
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

        def day_delete():
            day()
            shown('#day-view [data-action="delete-run"]')[0].click()
            shown("dialog.day-confirm[open]")

        def today_amount():
            today()
            shown('#today-view .today-card[data-node="pushups"] [data-action="done"]')[0].click()
            shown("#today-view input.value")

        return [("builder", builder), ("builder-stats", stats), ("dialog", dialog), ("today", today), ("run", run),
                ("days-habit", days("habit/run/2026")), ("days-week", days("week/2026-11-02")), ("days-month", days("month/2026-11")),
                ("days-year", days("year/2026")), ("day", day), ("day-delete", day_delete), ("today-amount", today_amount)]

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
                        for said in base.driver.execute_script(SIDEWAYS):
                            wide.append(f"{name} at {width}×{height}: {said}")
                        base.driver.save_screenshot(str(base.SHOTS / f"9x-a11y-{name}-{width}-{theme}.png"))
        finally:
            base.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            base.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertEqual(sorted(set(wide)), [], "\n".join(sorted(set(wide))))


if __name__ == "__main__":
    unittest.main()
