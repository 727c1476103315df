// The "Your days" view: per habit the calendar, streaks, rates and values; the whole routine
// by week, month and year (docs/studio.md, "Your days"). Every text is a text node.
import { el } from "./dom.js";

export class Days {
  /// `dayView` shows one day when a day is chosen: `dayView.show(date)`.
  constructor(root, dayView) {
    this.root = root;
    this.dayView = dayView;
  }

  /// Shown: `place` is what follows "#days/" in the address.
  async load(place) {
    this.root.replaceChildren(el("p", { class: "muted", text: "Your days are not here yet." }));
  }

  onHistory() {}
}
