// The canvas: cards at Graphviz's boxes, arrows along its splines, pan, zoom, fit, and
// connecting by dragging from a port to a card.
import { $, el, svg } from "../lib/dom.js";
import { edgePath, fitView, LABEL, labelBox, zoomView } from "../lib/layout.js";
import { GraphStats } from "./graphstats.js";

/// Where each node leads (every arrow but the start's), for cycle checks and arrow keys.
export function successors(state) {
  const map = new Map(state.nodes.map((n) => [n.id, []]));
  for (const edge of state.edges) if (edge.from && map.has(edge.from) && map.has(edge.to)) map.get(edge.from).push(edge.to);
  return map;
}

/// The path from `to` back to `from` that an arrow from → to would close, or null.
export function cyclePath(state, from, to) {
  if (from === to) return [from, from];
  const next = successors(state);
  const parent = new Map([[to, null]]);
  const queue = [to];
  while (queue.length) {
    const id = queue.shift();
    if (id === from) {
      const path = [];
      for (let at = from; at !== null; at = parent.get(at)) path.unshift(at);
      return [from, ...path];
    }
    for (const n of next.get(id) || []) if (!parent.has(n)) { parent.set(n, id); queue.push(n); }
  }
  return null;
}

export function describeNode(node) {
  if (node.kind === "question") {
    return `Question ${node.id}: ${node.title}. Answers: ${node.options.map((o) => o.text).join(", ")}`;
  }
  return `Habit ${node.id}: ${node.title}` + (node.details ? `, ${node.details}` : "") + (node.note ? `. Note: ${node.note}` : "");
}

/// Where each node leads, in words, for a screen reader and the outline: "Great! → Run,
/// Meditate", "then → Plan the day" for a question, "→ Stretch" for a habit, and "→ then →
/// Plan the day" for a habit that ends a branch of a question with a gather; in one pass.
export function connections(state) {
  const titles = new Map(state.nodes.map((n) => [n.id, n.title]));
  const name = (id) => (id === "end" ? "the end" : titles.get(id) || `${id} (missing)`);
  const out = new Map(state.nodes.map((n) => [n.id, { next: [], gather: [], then: [], options: new Map() }]));
  const add = (list, item) => { if (!list.includes(item)) list.push(item); };
  for (const edge of state.edges) {
    const from = edge.from && out.get(edge.from);
    if (!from) continue;
    if (edge.kind === "option") {
      if (!from.options.has(edge.option)) from.options.set(edge.option, []);
      from.options.get(edge.option).push(name(edge.to));
    } else if (edge.kind === "gather") {
      add(from.gather, name(edge.to));
      // A gather is drawn once from each place a branch ends: that habit goes on to it.
      const via = edge.via && edge.via !== edge.from && edge.viaOption === null ? out.get(edge.via) : null;
      if (via) add(via.then, name(edge.to));
    } else from.next.push(name(edge.to));
  }
  const words = new Map();
  for (const node of state.nodes) {
    const o = out.get(node.id);
    const parts = [];
    if (node.kind === "question") {
      for (const option of node.options) {
        const to = o.options.get(option.index);
        // An answer with no arrow of its own goes on to the gather, or ends the run.
        parts.push(`${option.text} → ${to ? to.join(", ") : o.gather.length ? "then" : "the end"}`);
      }
      if (o.gather.length) parts.push(`then → ${o.gather.join(", ")}`);
    } else parts.push(`→ ${o.next.length ? o.next.join(", ") : o.then.length ? `then → ${o.then.join(", ")}` : "the end"}`);
    words.set(node.id, parts);
  }
  return words;
}

/// The elements for `items`, in their order: the one drawn before for an item of the same key
/// (brought up to date by `update`), else a new one from `make`. `kept` is for the next call.
function reuse(previous, items, keyOf, make, update) {
  const kept = new Map(), elements = [];
  for (const item of items) {
    const key = keyOf(item);
    const old = previous?.get(key);
    let element = old && old.length ? old.pop() : null;
    if (element) update(element, item);
    else element = make(item);
    if (!kept.has(key)) kept.set(key, []);
    kept.get(key).push(element);
    elements.push(element);
  }
  return { kept, elements };
}

/// Makes `parent`'s children `list` with as few moves as it takes: the ones that go are
/// removed, the new ones put in place, and the others left where they are.
function setChildren(parent, list) {
  const wanted = new Set(list);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  let at = parent.firstElementChild;
  for (const element of list) {
    if (element === at) at = at.nextElementSibling;
    else parent.insertBefore(element, at);
  }
}

function place(element, box) {
  element.style.left = `${box.x}px`;
  element.style.top = `${box.y}px`;
}

export class Canvas {
  constructor(root, world, handlers) {
    this.root = root;
    this.world = world;
    this.handlers = handlers;
    this.view = { x: 0, y: 0, k: 1 };
    this.state = null;
    this.selected = null;
    this.fitted = false;
    this.installPanZoom();
    this.stats = new GraphStats(this);
  }

  apply() {
    const { x, y, k } = this.view;
    this.world.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
  }

  fit() {
    if (!this.state) return;
    this.view = fitView(this.state.width, this.state.height, this.root.clientWidth, this.root.clientHeight);
    this.apply();
  }

  zoomBy(factor, cx = this.root.clientWidth / 2, cy = this.root.clientHeight / 2) {
    this.view = zoomView(this.view, factor, cx, cy);
    this.apply();
  }

  installPanZoom() {
    let pan = null;
    this.root.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || e.target.closest(".card, .port, .stats-legend")) return;
      pan = { x: e.clientX, y: e.clientY, vx: this.view.x, vy: this.view.y };
      this.root.classList.add("panning");
      this.root.setPointerCapture(e.pointerId);
    });
    this.root.addEventListener("pointermove", (e) => {
      if (!pan) return;
      this.view.x = pan.vx + e.clientX - pan.x;
      this.view.y = pan.vy + e.clientY - pan.y;
      this.apply();
    });
    const end = () => { pan = null; this.root.classList.remove("panning"); };
    this.root.addEventListener("pointerup", end);
    this.root.addEventListener("pointercancel", end);
    this.root.addEventListener("wheel", (e) => {
      e.preventDefault();
      const box = this.root.getBoundingClientRect();
      this.zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX - box.left, e.clientY - box.top);
    }, { passive: false });
  }

  /// Draws a state. Cards and arrows whose data did not change are kept as they are, so a
  /// change redraws only what it touched; the rest are only put back in reading order.
  render(state) {
    this.state = state;
    const world = this.world;
    world.classList.toggle("stale", state.stale);
    world.style.width = `${state.width}px`;
    world.style.height = `${state.height}px`;
    if (!this.layer) {
      this.layer = svg("svg", { "aria-hidden": "true" });
      const defs = svg("defs");
      const marker = svg("marker", { id: "head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
      marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }));
      defs.append(marker);
      this.dragLine = svg("path", { class: "drag-line" });
      this.dragLine.style.display = "none";
      this.defs = defs;
    }
    this.layer.setAttribute("width", state.width);
    this.layer.setAttribute("height", state.height);
    // A card is kept while its texts, size and marks are; a new layout only moves it. An
    // arrow is kept while its ends are; a new layout only redraws its line.
    const paths = reuse(this.paths, state.edges.filter((e) => e.points.length), (e) => `${e.kind} ${e.from} ${e.option} ${e.to} ${e.via} ${e.viaOption}`,
      (edge) => this.arrow(edge), (arrow, edge) => this.placeArrow(arrow, edge));
    this.paths = paths.kept;
    // Gathers last, so that their "then" labels sit above every other line.
    const gathers = paths.elements.filter((e) => e.tagName === "g");
    setChildren(this.layer, [this.defs, ...paths.elements.filter((e) => e.tagName !== "g"), ...gathers, this.dragLine]);
    const markers = state.markers || {};
    const marks = [];
    if (markers.start) marks.push({ box: markers.start, kind: "start", text: "" });
    if (markers.end) marks.push({ box: markers.end, kind: "end", text: "end" });
    for (const missing of markers.missing || []) marks.push({ box: missing, kind: "missing", text: `${missing.name} (missing)` });
    const shown = reuse(this.marks, marks, (m) => JSON.stringify(m), (m) => this.marker(m.box, m.kind, m.text), () => {});
    this.marks = shown.kept;
    // Reading order: top to bottom, then left to right, which is also the Tab order.
    const ordered = [...state.nodes].filter((n) => n.width !== undefined)
      .sort((a, b) => (a.y - b.y) || (a.x - b.x));
    // A routine drawn without a layout (too large, or Graphviz too slow) is read in the file's order.
    this.order = (ordered.length ? ordered : state.nodes).map((n) => n.id);
    const cards = reuse(this.cards, ordered, (node) => JSON.stringify({ ...node, x: 0, y: 0 }), (node) => this.card(node), place);
    this.cards = cards.kept;
    // A card kept over an edit that changed only its arrows says where it leads now.
    this.leads = connections(state);
    ordered.forEach((node, k) => {
      cards.elements[k].setAttribute("aria-label", `${describeNode(node)}${node.unreachable ? ". Unreachable" : ""}. Leads: ${this.leads.get(node.id).join("; ")}`);
    });
    const focused = document.activeElement;
    setChildren(world, [this.layer, ...shown.elements, ...cards.elements]);
    // A card moved to keep the reading order loses the focus; it stays where it was.
    if (focused && focused !== document.activeElement && focused.isConnected) focused.focus({ preventScroll: true });
    if (!this.fitted && state.nodes.length) { this.fit(); this.fitted = true; }
    if (this.selected) this.select(this.selected, false);
    if (this.walked) this.highlight(this.walked, this.current);
    this.stats.decorate();
  }

  /// An arrow; a gather's carries the word "then" beside its start, as `graph` labels it.
  arrow(edge) {
    const path = svg("path", { class: `edge ${edge.kind}`, "marker-end": "url(#head)" });
    const arrow = edge.kind === "gather" ? svg("g", { class: "gather-arrow" }) : path;
    if (arrow !== path) {
      const label = svg("text", { class: "edge-label", "text-anchor": "middle" });
      label.textContent = "then";
      arrow.append(path, svg("rect", { class: "edge-label-back", rx: 4, width: LABEL.width, height: LABEL.height }), label);
    }
    for (const element of new Set([arrow, path])) {
      element.dataset.from = edge.via ?? edge.from ?? "";
      element.dataset.to = edge.to;
    }
    this.placeArrow(arrow, edge);
    return arrow;
  }

  placeArrow(arrow, edge) {
    const path = arrow.tagName === "g" ? arrow.firstChild : arrow;
    path.setAttribute("d", edgePath(edge));
    if (path === arrow) return;
    const box = labelBox(edge);
    const [, back, label] = arrow.children;
    back.setAttribute("x", box.x);
    back.setAttribute("y", box.y);
    label.setAttribute("x", box.x + LABEL.width / 2);
    label.setAttribute("y", box.y + LABEL.height - 4);
  }

  marker(box, kind, text) {
    const m = el("div", { class: `marker ${kind}`, "aria-hidden": "true" }, text);
    Object.assign(m.style, { left: `${box.x}px`, top: `${box.y}px`, width: `${box.width}px`, height: `${box.height}px` });
    return m;
  }

  card(node) {
    const card = el("div", {
      class: `card ${node.kind}` + (node.unreachable ? " unreachable" : ""), "data-node": node.id, tabindex: 0,
      role: "button",
      title: node.note ? `${node.title}\n${node.note}` : node.title,
    });
    Object.assign(card.style, { left: `${node.x}px`, top: `${node.y}px`, width: `${node.width}px`, height: `${node.height}px` });
    card.append(el("div", { class: "title", text: node.title }));
    if (node.kind === "habit") {
      if (node.details) card.append(el("div", { class: "details", text: node.details }));
      const out = el("div", { class: "port out", "data-node": node.id, title: "Drag to the habit or question that follows", "aria-label": `Arrow from ${node.id}` });
      card.append(out);
      this.dragFrom(out, node.id, null);
    } else {
      const ports = el("div", { class: "ports", role: "group", "aria-label": `Answers of ${node.id}` });
      for (const option of node.options) {
        const port = el("div", {
          class: "port", "data-node": node.id, "data-option": option.index, title: `${option.text}: drag to where this answer leads`,
          "aria-label": `Answer ${option.index + 1} of ${node.id}: ${option.text}`,
        }, option.text);
        if (option.width) port.style.width = `${option.width}px`;
        ports.append(port);
        this.dragFrom(port, node.id, option.index);
      }
      card.append(ports);
      // The gather's own port: where every answer goes on to once its branch ends.
      const then = el("div", {
        class: "port then", "data-node": node.id, "data-then": "", title: "then: drag to where every answer goes on to",
        "aria-label": `Then of ${node.id}: where every answer goes on to`,
      }, "then");
      card.append(then);
      this.dragFrom(then, node.id, null);
    }
    if (node.start) card.append(el("span", { class: "badge start", text: "start" }));
    if (node.unreachable) card.append(el("span", { class: "badge", text: "unreachable" }));
    card.addEventListener("click", () => { if (!this.justMoved) this.select(node.id); });
    card.addEventListener("dblclick", () => this.handlers.open(node.id));
    this.dragCard(card, node.id);
    return card;
  }

  /// Dragging a card (not one of its ports) puts it there by hand: the server keeps the place
  /// beside the routine, so it stays across edits, reloads and restarts.
  dragCard(card, id) {
    card.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || e.target.closest(".port") || this.state.stale || this.handlers.readOnly()) return;
      const node = this.state.nodes.find((n) => n.id === id);
      if (!node) return;
      e.stopPropagation();
      const [sx, sy] = this.toWorld(e);
      let to = null;
      const move = (ev) => {
        const [x, y] = this.toWorld(ev);
        // A click that wobbles a little is still a click.
        if (!to && Math.hypot(x - sx, y - sy) < 4) return;
        if (!to) { card.setPointerCapture(e.pointerId); card.classList.add("moving"); }
        to = { x: Math.max(0, Math.round(node.x + x - sx)), y: Math.max(0, Math.round(node.y + y - sy)) };
        place(card, to);
      };
      const up = () => {
        card.removeEventListener("pointermove", move);
        card.removeEventListener("pointerup", up);
        card.removeEventListener("pointercancel", up);
        card.classList.remove("moving");
        if (!to) return;
        // The click that ends a drag does not select.
        this.justMoved = true;
        setTimeout(() => { this.justMoved = false; }, 0);
        this.handlers.move(id, to.x, to.y);
      };
      card.addEventListener("pointermove", move);
      card.addEventListener("pointerup", up);
      card.addEventListener("pointercancel", up);
    });
  }

  /// Marks the cards a play walked through and the one it is at.
  highlight(walked, current) {
    const done = new Set(walked);
    for (const card of this.world.querySelectorAll(".card")) {
      card.classList.toggle("walked", done.has(card.dataset.node));
      card.classList.toggle("current", card.dataset.node === current);
    }
    this.walked = walked;
    this.current = current;
  }

  cardOf(id) { return this.world.querySelector(`.card[data-node="${CSS.escape(id)}"]`); }

  select(id, focus = true) {
    for (const c of this.world.querySelectorAll(".card.selected")) c.classList.remove("selected");
    this.selected = id;
    const card = id && this.cardOf(id);
    if (!card) return;
    card.classList.add("selected");
    if (focus && document.activeElement !== card) card.focus({ preventScroll: true });
    this.reveal(card);
  }

  /// Pans so that the card is in view.
  reveal(card) {
    const box = card.getBoundingClientRect(), root = this.root.getBoundingClientRect();
    let dx = 0, dy = 0;
    if (box.left < root.left + 20) dx = root.left + 20 - box.left;
    if (box.right > root.right - 20) dx = root.right - 20 - box.right;
    if (box.top < root.top + 20) dy = root.top + 20 - box.top;
    if (box.bottom > root.bottom - 20) dy = root.bottom - 20 - box.bottom;
    if (dx || dy) { this.view.x += dx; this.view.y += dy; this.apply(); }
  }

  /// Pointer coordinates in the world's own points.
  toWorld(e) {
    const root = this.root.getBoundingClientRect();
    return [(e.clientX - root.left - this.view.x) / this.view.k, (e.clientY - root.top - this.view.y) / this.view.k];
  }

  dragFrom(port, from, option) {
    port.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || this.state.stale || this.handlers.readOnly()) return;
      e.stopPropagation();
      e.preventDefault();
      port.setPointerCapture(e.pointerId);
      port.classList.add("dragging");
      const rect = port.getBoundingClientRect(), root = this.root.getBoundingClientRect();
      const start = [(rect.left + rect.width / 2 - root.left - this.view.x) / this.view.k, (rect.bottom - root.top - this.view.y) / this.view.k];
      const hint = $("drag-hint");
      let target = null, refused = null;
      const move = (ev) => {
        const [x, y] = this.toWorld(ev);
        this.dragLine.style.display = "";
        this.dragLine.setAttribute("d", `M${start[0]},${start[1]} C${start[0]},${start[1] + 40} ${x},${y - 40} ${x},${y}`);
        for (const c of this.world.querySelectorAll(".drop-ok, .drop-refused")) c.classList.remove("drop-ok", "drop-refused");
        const over = document.elementFromPoint(ev.clientX, ev.clientY)?.closest(".card");
        target = over ? over.dataset.node : null;
        refused = target ? cyclePath(this.state, from, target) : null;
        this.dragLine.classList.toggle("refused", !!refused);
        if (over) over.classList.add(refused ? "drop-refused" : "drop-ok");
        if (refused) {
          hint.textContent = from === target ? "an arrow cannot lead to its own card" : `refused: a cycle ${refused.join(" → ")}`;
          hint.hidden = false;
          const root = this.root.getBoundingClientRect();
          hint.style.left = `${ev.clientX - root.left + 14}px`;
          hint.style.top = `${ev.clientY - root.top + 14}px`;
        } else hint.hidden = true;
      };
      const up = () => {
        port.removeEventListener("pointermove", move);
        port.removeEventListener("pointerup", up);
        port.removeEventListener("pointercancel", up);
        port.classList.remove("dragging");
        this.dragLine.style.display = "none";
        hint.hidden = true;
        for (const c of this.world.querySelectorAll(".drop-ok, .drop-refused")) c.classList.remove("drop-ok", "drop-refused");
        if (target && !refused) this.handlers.connect(from, option, target);
      };
      port.addEventListener("pointermove", move);
      port.addEventListener("pointerup", up);
      port.addEventListener("pointercancel", up);
    });
  }
}
