"""The builder's dialogs in a real Chromium: one Save is one edit (all of it written or none,
with the reason in the dialog, and one Undo), and the add dialogs take every attribute.
Screenshots go to .build/studio-screenshots/ (5x-forms-*.png)."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import test_studio as base
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = 'routine "Forms"\n\nhabit water "Drink water" -> stretch\nhabit stretch "Stretch" for 5m\n'


def dialog_open():
    return base.driver.find_element(By.ID, "dialog").get_attribute("open") is not None


def open_editor(studio, node):
    studio.card(node).click()
    ActionChains(base.driver).send_keys(Keys.ENTER).perform()
    return wait(lambda: base.driver.find_element(By.ID, "f-title"), message="the card's dialog")


def replace(field_id, text):
    box = base.driver.find_element(By.ID, field_id)
    box.clear()
    box.send_keys(text)
    return box


def fill(fields):
    """Each field given its new text, in order."""
    for field_id, text in fields.items():
        replace(field_id, text)


def submit():
    base.driver.find_element(By.CSS_SELECTOR, '#dialog button[type="submit"]').click()


class FormTests(unittest.TestCase):
    def test_a_refused_save_writes_nothing_and_says_why(self):
        base.allow_page_errors(r"/api/edit - .* 400")  # the refusal the test is about
        studio = Studio(TEXT)
        try:
            open_editor(studio, "stretch")
            fill({"f-title": "Stretch well", "f-id": "stretching", "f-duration": "5 min"})
            v = studio.version()
            submit()
            problem = wait(lambda: [p for p in base.driver.find_elements(By.CSS_SELECTOR, "#dialog .problem") if p.is_displayed()],
                           message="the refusal in the dialog")[0]
            self.assertIn("'5 min' is not a duration", problem.text)
            studio.shot("50-forms-refused-save")
            # Nothing of it was written: not the new title, not the new ID.
            self.assertEqual(studio.text, TEXT)
            self.assertEqual(studio.version(), v)
            self.assertTrue(dialog_open())
            # Mended, the same Save writes all of it.
            replace("f-duration", "5m30s")
            submit()
            studio.wait_version_after(v)
            self.assertEqual(studio.text, TEXT.replace('stretch\nhabit stretch "Stretch" for 5m', 'stretching\nhabit stretching "Stretch well" for 5m30s'))
            wait(lambda: not dialog_open(), message="the dialog closed")
        finally:
            studio.close()

    def test_a_save_of_title_and_attributes_takes_one_undo(self):
        studio = Studio(TEXT)
        try:
            open_editor(studio, "water")
            fill({"f-title": "Drink a glass of water", "f-target": "2", "f-unit": "glasses", "f-note": "before coffee"})
            v = studio.version()
            submit()
            studio.wait_version_after(v)
            saved = studio.text
            self.assertIn('habit water "Drink a glass of water" target 2 glasses\n  note "before coffee"\n  -> stretch\n', saved)
            wait(lambda: not dialog_open(), message="the dialog closed")
            v = studio.version()
            base.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(studio.text, TEXT)
            studio.shot("51-forms-one-undo")
        finally:
            studio.close()

    def test_a_new_habit_takes_every_attribute_and_is_selected(self):
        studio = Studio(TEXT)
        try:
            studio.card("stretch").click()
            v = studio.version()
            base.driver.find_element(By.ID, "add-habit").click()
            wait(lambda: base.driver.find_element(By.ID, "f-title")).send_keys("Read a chapter")
            fill({"f-duration": "20m", "f-target": "1", "f-unit": "chapter"})
            for day in ["tue", "thu", "sat", "sun"]:
                base.driver.find_element(By.ID, f"f-day-{day}").click()
            replace("f-note", "before bed")
            studio.shot("52-forms-add-habit")
            submit()
            studio.wait_version_after(v)
            self.assertIn('habit read-a-chapter "Read a chapter" for 20m target 1 chapter on mon wed fri\n  note "before bed"\n', studio.text)
            # The new card is selected, focused and in view.
            card = wait(lambda: studio.card("read-a-chapter"), message="the new card")
            wait(lambda: "selected" in card.get_attribute("class"), message="the new card selected")
            self.assertEqual(base.driver.switch_to.active_element.get_attribute("data-node"), "read-a-chapter")
            canvas = base.driver.find_element(By.ID, "canvas").rect
            r = card.rect
            self.assertTrue(canvas["x"] <= r["x"] and r["x"] + r["width"] <= canvas["x"] + canvas["width"] + 1, (r, canvas))
            self.assertTrue(canvas["y"] <= r["y"] and r["y"] + r["height"] <= canvas["y"] + canvas["height"] + 1, (r, canvas))
            # One Undo takes back the add and its attributes.
            v = studio.version()
            base.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
            studio.wait_version_after(v)
            self.assertEqual(studio.text, TEXT)
        finally:
            studio.close()

    def test_at_most_makes_the_target_a_limit(self):
        studio = Studio(TEXT)
        try:
            open_editor(studio, "water")
            fill({"f-target": "2", "f-unit": "cups"})
            Select(base.driver.find_element(By.ID, "f-bound")).select_by_visible_text("at most")
            studio.shot("54-forms-at-most")
            v = studio.version()
            submit()
            studio.wait_version_after(v)
            self.assertIn('habit water "Drink water" target at most 2 cups -> stretch\n', studio.text)
            wait(lambda: not dialog_open(), message="the dialog closed")
            details = lambda: studio.card("water").find_element(By.CSS_SELECTOR, ".details").text
            wait(lambda: "at most 2 cups" in details(), message="the card saying 'at most 2 cups'")
            # The dialog opens on the limit; "at least" makes it a goal again, the amount kept.
            open_editor(studio, "water")
            bound = Select(base.driver.find_element(By.ID, "f-bound"))
            self.assertEqual(bound.first_selected_option.text, "at most")
            bound.select_by_visible_text("at least")
            v = studio.version()
            submit()
            studio.wait_version_after(v)
            self.assertIn('habit water "Drink water" target 2 cups -> stretch\n', studio.text)
            wait(lambda: "at most" not in details() and "2 cups" in details(), message="the card saying '2 cups' as a goal")
            # A new habit takes a limit of 0, the classic "no smoking".
            v = studio.version()
            base.driver.find_element(By.ID, "add-habit").click()
            wait(lambda: base.driver.find_element(By.ID, "f-title")).send_keys("Smoke")
            fill({"f-target": "0", "f-unit": "cigarettes"})
            Select(base.driver.find_element(By.ID, "f-bound")).select_by_visible_text("at most")
            submit()
            studio.wait_version_after(v)
            self.assertIn('habit smoke "Smoke" target at most 0 cigarettes\n', studio.text)
            wait(lambda: "at most 0 cigarettes" in studio.card("smoke").find_element(By.CSS_SELECTOR, ".details").text,
                 message="the new card saying 'at most 0 cigarettes'")
            studio.shot("55-forms-at-most-card")
        finally:
            studio.close()

    def test_a_new_question_takes_answers_that_hold_commas(self):
        studio = Studio(TEXT)
        try:
            v = studio.version()
            base.driver.find_element(By.ID, "add-question").click()
            wait(lambda: base.driver.find_element(By.ID, "f-title")).send_keys("How did you sleep?")
            fill({"f-answer-1": "Well, thanks", "f-answer-2": "Badly"})
            base.driver.find_element(By.CSS_SELECTOR, '#dialog [data-action="add-answer"]').click()
            third = wait(lambda: base.driver.find_element(By.ID, "f-answer-3"), message="a third answer field")
            self.assertEqual(base.driver.switch_to.active_element.get_attribute("id"), "f-answer-3")
            third.send_keys("So-so, I woke at 4")
            replace("f-note", "honestly")
            studio.shot("53-forms-add-question")
            submit()
            studio.wait_version_after(v)
            self.assertIn('question how-did-you-sleep "How did you sleep?"\n  note "honestly"\n  "Well, thanks"\n  "Badly"\n  "So-so, I woke at 4"\n', studio.text)
            ports = base.driver.find_elements(By.CSS_SELECTOR, '.port[data-node="how-did-you-sleep"][data-option]')
            self.assertEqual([p.text for p in ports], ["Well, thanks", "Badly", "So-so, I woke at 4"])
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
