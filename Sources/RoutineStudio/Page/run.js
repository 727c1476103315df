// The Run view: today's run, step by step, with the engine of `routine run` on the server
// (docs/studio.md, "Run"). Every text reaches the page as a text node.
import { el } from "./dom.js";

export class RunView {
  constructor(root) {
    this.root = root;
  }

  /// Shown: `place` is what follows "#run/" in the address.
  async load(place) {
    this.root.replaceChildren(el("p", { class: "muted", text: "Runs in the browser are not here yet." }));
  }

  onHistory() {}
}
