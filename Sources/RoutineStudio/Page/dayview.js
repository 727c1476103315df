// One day: its runs and logs step by step, as `routine log --date` shows them, with the
// corrections a recorded step allows (docs/studio.md, "A day" and "Corrections").
import { el } from "./dom.js";

export class DayView {
  constructor(root) {
    this.root = root;
    this.date = null;
  }

  /// Shows `date` (YYYY-MM-DD).
  async show(date) {
    this.date = date;
    this.root.hidden = false;
    this.root.replaceChildren(el("h2", { text: date }));
  }

  /// Hides the day.
  close() {
    this.date = null;
    this.root.hidden = true;
  }

  /// A change to the history: the day shown is read again.
  onHistory() { if (this.date) this.show(this.date); }
}
