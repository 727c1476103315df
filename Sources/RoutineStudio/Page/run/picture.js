// The routine's picture beside a run: the builder's drawing as it is now (the places a person
// gave its cards included), copied without its controls, scaled to fit its box, and marked as
// Play marks the builder: the cards walked so far and the one in front. The trail under the
// run's card says the same in words, so the picture is hidden from screen readers.

/// Classes of the builder's own state that the copy does not carry.
const DROPPED = ["selected", "connecting", "walked", "current", "drop-ok", "drop-refused", "moving", "with-stats"];
/// Room around the drawing, in the builder's pixels: the out ports hang below their cards and
/// the marks around walked and current cards are wider than the cards, past the drawing's edge.
const MARGIN = 16;

export class RunPicture {
  constructor() {
    this.root = document.createElement("div");
    this.root.className = "run-picture";
    this.root.setAttribute("aria-hidden", "true");
    this.frame = document.createElement("div");
    this.frame.className = "run-picture-frame";
    this.root.append(this.frame);
  }

  /// Draws the builder's drawing again, `walked` (node ids) and `current` marked. Nothing is
  /// drawn while the box is folded away (narrow windows) or the routine has no card.
  show(walked, current) {
    const world = document.getElementById("world");
    const width = parseFloat(world.style.width), height = parseFloat(world.style.height);
    this.root.classList.remove("empty");
    const box = this.root.clientWidth;
    if (!box || !world.querySelector(".card") || !(width > 0 && height > 0)) {
      this.frame.replaceChildren();
      this.root.classList.add("empty");
      return;
    }
    const most = parseFloat(getComputedStyle(this.root).maxHeight) || height;
    const outer = width + 2 * MARGIN, tall = height + 2 * MARGIN;
    const k = Math.min(1, box / outer, most / tall);
    const copy = world.cloneNode(true);
    copy.removeAttribute("id");
    // One marker per page keeps ids unique; the copy's arrows point at its own.
    const marker = copy.querySelector("marker");
    if (marker) marker.id = "run-head";
    for (const path of copy.querySelectorAll("[marker-end]")) path.setAttribute("marker-end", "url(#run-head)");
    for (const element of copy.querySelectorAll("[tabindex], [role], [aria-label], [id]")) {
      for (const name of ["tabindex", "role", "aria-label", "id"]) element.removeAttribute(name);
    }
    for (const element of [copy, ...copy.querySelectorAll("*")]) element.classList?.remove(...DROPPED);
    const done = new Set(walked);
    for (const card of copy.querySelectorAll(".card")) {
      card.classList.toggle("walked", done.has(card.dataset.node) && card.dataset.node !== current);
      card.classList.toggle("current", card.dataset.node === current);
    }
    copy.style.transform = `scale(${k}) translate(${MARGIN}px, ${MARGIN}px)`;
    this.frame.style.width = `${Math.ceil(outer * k)}px`;
    this.frame.style.height = `${Math.ceil(tall * k)}px`;
    this.frame.replaceChildren(copy);
  }
}
