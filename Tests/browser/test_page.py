"""The page's shape in a real Chromium: its pure helpers (lib/) pass their cases in the
browser with no clicks (suite.html), every page file is served where the page asks for it, a
problem selects its card whatever the routine's format, keys act on what has focus, and the
header says what became of the last change in words.
Screenshots go to .build/studio-screenshots/ (8x-page-*.png)."""

import functools
import http.server
import json
import threading
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_studio as base
from test_studio import ROOT, Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

# A YAML routine with a habit nothing leads to: its W001 is about the node `orphan`.
YAML = """routine: Orphan
start: [water]
nodes:
- habit: water
  title: Drink water
  next: stretch
- habit: stretch
  title: Stretch
- habit: orphan
  title: Nobody leads here
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


class PageTests(unittest.TestCase):
    def test_the_helpers_pass_their_cases_in_the_browser(self):
        base.allow_page_errors(r"/favicon\.ico - ")  # the plain file server has none
        # The repository's root on loopback: suite.html imports the page's modules by path.
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(ROOT)))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            base.driver.get(f"http://127.0.0.1:{server.server_address[1]}/Tests/browser/suite.html")
            results = wait(lambda: base.driver.execute_script("return window.suiteResults"), message="the suite's results")
            base.driver.save_screenshot(str(base.SHOTS / "80-page-suite.png"))
            self.assertGreater(results["total"], 30)
            failures = "\n".join(f"{f['name']}: expected {f['expected']}, got {f['got']}" for f in results["failed"])
            self.assertEqual(results["failed"], [], "helpers failed in the browser:\n" + failures)
        finally:
            server.shutdown()
            server.server_close()

    def test_every_page_file_is_served_from_its_folder(self):
        base.allow_page_errors(r"/(today\.js|Package\.swift|lib/) - .* 404")  # the paths that must not be there
        studio = Studio("habit water \"Glass of water\"\n")
        try:
            # Each module and style sheet the page loaded came from the studio, at its folder's path.
            loaded = base.driver.execute_script(
                "return performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, e.responseStatus])")
            paths = {path for path, _ in loaded}
            for path in ["/lib/api.js", "/lib/format.js", "/builder/builder.js", "/today/today.js", "/run/run.js", "/days/days.js",
                         "/builder/builder.css", "/days/days.css"]:
                self.assertIn(path, paths)
            self.assertEqual([p for p, status in loaded if status not in (0, 200, 204) and not p.startswith("/api/")], [])
            answers = base.driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                Promise.all(["/today/today.js", "/days/dayview.css", "/index.html", "/today.js", "/lib/../Package.swift", "/lib/"]
                  .map((path) => fetch(path).then((r) => [path, r.status, r.headers.get("Content-Type")]))).then(done);""")
            found = {path: (status, kind) for path, status, kind in answers}
            self.assertEqual(found["/today/today.js"], (200, "text/javascript; charset=utf-8"))
            self.assertEqual(found["/days/dayview.css"], (200, "text/css; charset=utf-8"))
            self.assertEqual(found["/index.html"], (200, "text/html; charset=utf-8"))
            # The old flat paths, and anything outside the folder, are not there.
            for path in ["/today.js", "/lib/../Package.swift", "/lib/"]:
                self.assertEqual(found[path][0], 404, path)
        finally:
            studio.close()

    def test_a_yaml_routines_problem_selects_its_card(self):
        studio = Studio(YAML, "orphan.yaml")
        try:
            state = base.driver.execute_async_script(
                "const done = arguments[arguments.length - 1]; fetch('/api/routine').then((r) => r.json()).then(done);")
            unreachable = [d for d in state["diagnostics"] if d["code"] == "W001"]
            self.assertEqual(len(unreachable), 1, json.dumps(state["diagnostics"]))
            self.assertIn("node", unreachable[0], "the routine's diagnostics carry no 'node' member: the server sends the node's ID with each")
            self.assertEqual(unreachable[0]["node"], "orphan")
            problem = wait(lambda: [li for li in base.driver.find_elements(By.CSS_SELECTOR, "#problem-list li") if "W001" in li.text],
                           message="the W001 problem")[0]
            problem.click()
            wait(lambda: "selected" in studio.card("orphan").get_attribute("class"), message="the orphan's card selected")
            studio.shot("81-page-yaml-problem")
            # By keyboard too: Enter on the problem selects the card, and opens no editor.
            base.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            wait(lambda: "selected" not in studio.card("orphan").get_attribute("class"), message="nothing selected")
            problem.send_keys(Keys.ENTER)
            wait(lambda: "selected" in studio.card("orphan").get_attribute("class"), message="the orphan's card selected by Enter")
            self.assertFalse(base.driver.find_element(By.ID, "dialog").get_attribute("open"))
        finally:
            studio.close()

    def test_the_problems_list_errors_before_warnings(self):
        # The unreachable habit (a warning) comes before the unknown target (an error) in the file.
        studio = Studio('routine "P"\nhabit a "A"\nhabit orphan "Orphan"\nhabit b "B" -> nowhere\n')
        try:
            wait(lambda: len(base.driver.find_elements(By.CSS_SELECTOR, "#problem-list li")) >= 2, message="two problems")
            classes = [li.get_attribute("class") for li in base.driver.find_elements(By.CSS_SELECTOR, "#problem-list li")]
            self.assertIn("error", classes)
            self.assertIn("warning", classes)
            self.assertEqual(classes, sorted(classes, key=lambda c: ["error", "warning", "note"].index(c)), classes)
        finally:
            studio.close()

    def test_enter_on_a_toolbar_button_presses_that_button(self):
        base.allow_page_errors(r"/api/play - .* 422")  # a routine without its routine line: no play
        studio = Studio('habit water "Glass of water" -> stretch\nhabit stretch "Stretch"\n')
        try:
            studio.card("water").click()
            wait(lambda: "selected" in studio.card("water").get_attribute("class"), message="water selected")
            # Enter on Play opens the play panel and no card's editor.
            base.driver.find_element(By.ID, "toggle-play").send_keys(Keys.ENTER)
            wait(lambda: base.driver.find_element(By.ID, "toggle-play").get_attribute("aria-pressed") == "true", message="Play pressed")
            self.assertFalse(base.driver.find_element(By.ID, "dialog").get_attribute("open"))
            # Enter on + Habit opens the add dialog, not the editor of the selected card.
            base.driver.find_element(By.ID, "add-habit").send_keys(Keys.ENTER)
            dialog = wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open]"), message="a dialog")
            self.assertIn("habit", dialog.find_element(By.TAG_NAME, "h3").text.lower())
            self.assertNotIn("Glass of water", dialog.find_element(By.TAG_NAME, "h3").text)
            studio.shot("82-page-enter-on-add")
            dialog.send_keys(Keys.ESCAPE)
            wait(lambda: not base.driver.find_element(By.ID, "dialog").get_attribute("open"), message="the dialog closed")
            # Past the toolbar (the skip link's target), Enter opens the selected card's editor.
            base.driver.execute_script("document.getElementById('views').focus()")
            base.driver.switch_to.active_element.send_keys(Keys.ENTER)
            dialog = wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open]"), message="the selected card's editor")
            self.assertEqual(dialog.find_element(By.ID, "f-title").get_attribute("value"), "Glass of water")
            dialog.send_keys(Keys.ESCAPE)
            wait(lambda: not base.driver.find_element(By.ID, "dialog").get_attribute("open"), message="the dialog closed")
            # On the card itself, Enter opens the card's editor.
            studio.card("water").send_keys(Keys.ENTER)
            dialog = wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open]"), message="the card's editor")
            self.assertEqual(dialog.find_element(By.ID, "f-title").get_attribute("value"), "Glass of water")
        finally:
            studio.close()

    def test_cards_and_the_outline_say_where_each_answer_leads(self):
        studio = Studio('habit water "Glass of water" -> mood\nquestion mood "Mood?"\n  "Good" -> gym\n  "Bad" -> nap\n  then -> plan\n'
                        'habit gym "Gym"\nhabit nap "Nap"\nhabit plan "Plan the day"\n')
        try:
            self.assertTrue(studio.card("mood").get_attribute("aria-label").endswith("Leads: Good → Gym; Bad → Nap; then → Plan the day"),
                            studio.card("mood").get_attribute("aria-label"))
            self.assertTrue(studio.card("water").get_attribute("aria-label").endswith("Leads: → Mood?"))
            base.driver.find_element(By.CSS_SELECTOR, "#outline summary").click()
            items = wait(lambda: base.driver.find_elements(By.CSS_SELECTOR, "#outline-list > li"), message="the outline")
            outline = {li.get_attribute("data-node"): [w.text for w in li.find_elements(By.CSS_SELECTOR, "ul li")] for li in items}
            self.assertEqual(outline["mood"], ["Good → Gym", "Bad → Nap", "then → Plan the day"])
            self.assertEqual(outline["plan"], ["→ the end"])
            # A name in the outline selects its card.
            [li for li in items if li.get_attribute("data-node") == "nap"][0].find_element(By.TAG_NAME, "button").click()
            wait(lambda: "selected" in studio.card("nap").get_attribute("class"), message="nap selected")
            studio.shot("83-page-outline")
        finally:
            studio.close()

    def test_an_outline_number_stays_on_its_titles_first_line(self):
        long = "Write three lines about what went well yesterday and what to try differently today"
        studio = Studio(f'routine "Outline"\nhabit water "Glass of water" -> mood\nquestion mood "{long}?"\n  "Good" -> journal\n  "Bad"\n'
                        f'habit journal "{long}"\n')
        try:
            base.driver.set_window_size(1400, 900)
            base.driver.find_element(By.CSS_SELECTOR, "#outline summary").click()
            wait(lambda: len(base.driver.find_elements(By.CSS_SELECTOR, "#outline-list > li")) == 3, message="the outline")
            lines = base.driver.execute_script("""
                const first = (e) => { const range = document.createRange(); range.selectNodeContents(e); return [...range.getClientRects()]; };
                return [...document.querySelectorAll('#outline-list > li')].map((li) => {
                  const number = first(li.querySelector('.outline-number')), title = first(li.querySelector('.outline-node'));
                  return [li.dataset.node, number.length, number[0].top, number[0].right, title[0].top, Math.min(...title.map((r) => r.left)),
                          new Set(title.map((r) => Math.round(r.top))).size, li.querySelector('.outline-node').getBoundingClientRect().left];
                });""")
            self.assertEqual([line[0] for line in lines][0], "water")
            for node, numbers, number_top, number_right, title_top, title_left, title_lines, button_left in lines:
                self.assertEqual(numbers, 1, node)
                self.assertLessEqual(abs(number_top - title_top), 1, f"{node}: the number at {number_top}, the title's first line at {title_top}")
                self.assertLess(number_right, title_left, node)
                if node != "water":
                    # A long title wraps, under its own text: every line starts right of the number.
                    self.assertGreater(title_lines, 1, node)
            self.assertEqual(base.driver.execute_script("return [...document.querySelectorAll('#outline-list .outline-number')].map((n) => n.textContent)"),
                             ["1.", "2.", "3."])
            studio.shot("84-page-outline-long-titles")
        finally:
            studio.close()

    def test_after_a_delete_the_focus_goes_to_a_neighbour(self):
        studio = Studio('routine "Focus"\nhabit water "Glass of water" -> stretch\nhabit stretch "Stretch" -> plan\nhabit plan "Plan the day"\n')
        try:
            studio.card("stretch").send_keys(Keys.DELETE)
            dialog = wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open]"), message="the delete dialog")
            v = studio.version()
            dialog.find_element(By.CSS_SELECTOR, "button.primary").click()
            try:
                studio.wait_version_after(v)
            finally:
                studio.shot("84-page-after-delete")
            # The card an arrow came from has the focus, and is selected.
            wait(lambda: base.driver.execute_script("return document.activeElement.dataset.node") == "water", message="focus on water")
            self.assertIn("selected", studio.card("water").get_attribute("class"))
            self.assertNotIn("stretch", studio.cards())
        finally:
            studio.close()

    def test_the_header_says_saved_undone_redone_in_words(self):
        studio = Studio('routine "Words"\nhabit water "Glass of water"\n')
        try:
            status = lambda: base.driver.find_element(By.ID, "status").text
            self.assertEqual(status(), "")
            v = studio.version()
            base.driver.find_element(By.ID, "add-habit").click()
            title = wait(lambda: base.driver.find_element(By.ID, "f-title"), message="the add dialog")
            title.send_keys("Stretch")
            title.send_keys(Keys.ENTER)
            try:
                studio.wait_version_after(v)
            finally:
                studio.shot("85-page-saved")
            wait(lambda: status() == "saved", message="saved")
            v = studio.version()
            base.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            wait(lambda: status() == "undone", message="undone")
            v = studio.version()
            ActionChains(base.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
            studio.wait_version_after(v)
            wait(lambda: status() == "redone", message="redone")
            # A delete says what it took along.
            v = studio.version()
            studio.card("stretch").send_keys(Keys.DELETE)
            wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open] button.primary"), message="the delete dialog").click()
            studio.wait_version_after(v)
            wait(lambda: status().startswith("saved: deleted 'stretch'"), message="the delete said")
            # A change made in the file, not by this page.
            v = studio.version()
            studio.path.write_text(studio.text + 'habit plan "Plan the day"\n')
            studio.wait_version_after(v)
            wait(lambda: status() == "updated from the file", message="the outside change said")
            self.assertNotIn("version", status())
        finally:
            studio.close()

    def test_a_dialogs_weekdays_stay_a_row_on_a_phone(self):
        studio = Studio('routine "Days"\nhabit water "Glass of water"\n')
        try:
            base.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
            base.driver.find_element(By.ID, "add-habit").click()
            wait(lambda: base.driver.find_element(By.CSS_SELECTOR, "dialog[open] .days label"), message="the weekday boxes")
            studio.shot("86-page-dialog-390")
            tops = base.driver.execute_script("return [...document.querySelectorAll('dialog[open] .days label')].map((l) => Math.round(l.getBoundingClientRect().top))")
            self.assertEqual(len(tops), 7)
            self.assertLessEqual(len(set(tops)), 2, tops)
            group = base.driver.find_element(By.CSS_SELECTOR, "dialog[open] .days").rect
            self.assertLess(group["height"], 70)
        finally:
            base.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            studio.close()


if __name__ == "__main__":
    unittest.main()
