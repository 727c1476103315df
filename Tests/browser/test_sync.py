"""The studio on a history in a sync folder, in a real Chromium: the header names the devices,
and a log another device writes to the folder shows on Today while the studio runs
(docs/sync.md). Screenshot: .build/studio-screenshots/80-sync-header.png."""

import os
import subprocess
import unittest

from selenium.webdriver.common.by import By

import test_studio as base
from test_run import routine
from test_studio import Studio, wait

setUpModule = base.setUpModule
tearDownModule = base.tearDownModule

TEXT = 'routine "Synced"\n\nhabit water "Glass of water" -> read\nhabit read "Read"\n'


def devices():
    return base.driver.find_element(By.ID, "devices")


class SyncHeaderTests(unittest.TestCase):
    def test_the_header_names_the_devices_and_another_devices_log_arrives(self):
        studio = Studio(TEXT)
        try:
            wait(lambda: base.driver.find_element(By.CSS_SELECTOR, ".card"), message="the builder")
            self.assertFalse(devices().is_displayed(), "no sync folder, no devices")
            folder = os.path.join(studio.folder.name, "shared")
            desk = os.path.join(studio.folder.name, "desk.sqlite")
            # The studio's history (the default one of its HOME) joins, then the desk.
            joined = routine(studio, "sync", "init", folder, "--device", "laptop")
            self.assertEqual(joined.returncode, 0, joined.stderr)
            joined = routine(studio, "sync", "init", folder, "--device", "desk", "--history", desk)
            self.assertEqual(joined.returncode, 0, joined.stderr)
            wait(lambda: "desk" in devices().text, message="the desk in the header")
            self.assertEqual(devices().text, "syncs as laptop with desk")
            self.assertIn("folder " + folder, devices().get_attribute("title"))
            base.driver.find_element(By.ID, "tab-today").click()
            card = lambda: base.driver.find_element(By.CSS_SELECTOR, '#today-view .today-card[data-node="water"]')
            wait(card, message="the water card")
            self.assertNotIn("done", card().get_attribute("data-status") or "")
            done = routine(studio, "done", str(studio.path), "water", "--history", desk)
            self.assertEqual(done.returncode, 0, done.stderr)
            wait(lambda: card().get_attribute("data-status") == "done", message="the desk's log on Today")
            studio.shot("80-sync-header")
        finally:
            studio.close()


    def test_the_header_lists_events_held_for_being_dated_ahead(self):
        """A day off recorded on a desk whose clock is two days ahead (Debian's faketime) is held
        here, and the header says so as text; the harness fails on any page error."""
        studio = Studio(TEXT)
        try:
            wait(lambda: base.driver.find_element(By.CSS_SELECTOR, ".card"), message="the builder")
            folder = os.path.join(studio.folder.name, "shared")
            desk = os.path.join(studio.folder.name, "desk.sqlite")
            joined = routine(studio, "sync", "init", folder, "--device", "laptop")
            self.assertEqual(joined.returncode, 0, joined.stderr)
            env = dict(os.environ, HOME=studio.folder.name, XDG_DATA_HOME=studio.folder.name, NO_COLOR="1")
            for arguments in (["sync", "init", folder, "--device", "desk"], ["off", str(studio.path), "2026-12-05", "--reason", "trip"]):
                ahead = subprocess.run(["faketime", "-f", "+2d", base.ROUTINE, *arguments, "--history", desk], capture_output=True,
                                       text=True, env=env, stdin=subprocess.DEVNULL, timeout=30)
                self.assertEqual(ahead.returncode, 0, ahead.stderr)
            # The studio reads the folder when it changes; a command here reads it too.
            routine(studio, "sync")
            wait(lambda: "held" in devices().text, message="the held event in the header")
            self.assertEqual(devices().text, "syncs as laptop with desk · 1 event from desk dated a day ahead of this clock: held")
            self.assertEqual(devices().find_elements(By.CSS_SELECTOR, "*"), [], "text, no markup")
        finally:
            studio.close()


if __name__ == "__main__":
    unittest.main()
