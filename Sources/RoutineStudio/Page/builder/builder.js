// The builder: the canvas, the problems panel, the play panel, dialogs and keys. The file is
// the truth: every change is an op sent to the server, and the builder redraws from the state
// it answers.
import { api } from "../lib/api.js";
import { $, el, toast } from "../lib/dom.js";
import { Canvas, successors } from "./canvas.js";
import * as forms from "./forms.js";
import { builderKey, focusFollowsCards } from "./keyboard.js";
import { Play } from "./play.js";

export class Builder {
  constructor() {
    this.canvas = new Canvas($("canvas"), $("world"), {
      open: (id) => this.open(id),
      connect: (from, option, to) => this.edit({ op: "connect", from, option, to }),
      readOnly: () => this.readOnly(),
    });
    this.play = new Play($("play-body"));
    $("add-habit").onclick = () => this.add("habit");
    $("add-question").onclick = () => this.add("question");
    $("undo").onclick = () => this.edit({ op: "undo" });
    $("redo").onclick = () => this.edit({ op: "redo" });
    $("fit").onclick = () => this.canvas.fit();
    $("zoom-in").onclick = () => this.canvas.zoomBy(1.2);
    $("zoom-out").onclick = () => this.canvas.zoomBy(1 / 1.2);
    $("toggle-play").onclick = () => this.togglePlay();
    $("help").onclick = () => this.help();
    $("routine-name").onclick = () => { if (!this.readOnly()) forms.renameRoutine(api.state, { edit: (op) => this.edit(op) }); };
    window.addEventListener("resize", () => this.canvas.fit());
    $("outline").addEventListener("toggle", () => this.outline());
    focusFollowsCards(this);
  }

  /// Shown: the drawing is fitted to the window it has now.
  load() { this.canvas.fit(); }

  /// The Stats toggle reads the history again by itself (graphstats.js).
  onHistoryChange() {}

  onKey(event) { builderKey(this, event); }

  readOnly() { const s = api.state; return !s || !!s.readOnly || s.stale; }

  node(id) { return api.state.nodes.find((n) => n.id === id); }

  /// Draws a new state of the routine.
  show(state) {
    this.canvas.render(state);
    this.problems(state);
    const banner = $("banner");
    if (state.stale) {
      banner.textContent = "The file does not parse: the last drawing is shown faded until it does. Fix it in your editor; the page follows.";
      banner.hidden = false;
    } else if (state.readOnly) {
      banner.textContent = state.readOnly.replace(/^./, (c) => c.toUpperCase()) + ". Edit the file in your editor; the page follows.";
      banner.hidden = false;
    } else if (state.layoutError) {
      banner.textContent = `No layout: ${state.layoutError}`;
      banner.hidden = false;
    } else if (!state.nodes.length) {
      banner.textContent = "An empty routine: add a habit (H) or a question (Q) to begin.";
      banner.hidden = false;
    } else banner.hidden = true;
    const ro = this.readOnly();
    for (const id of ["add-habit", "add-question"]) $(id).disabled = ro;
    $("undo").disabled = ro || !state.canUndo;
    $("redo").disabled = ro || !state.canRedo;
    this.play.refresh();
    this.outline();
  }

  /// The routine as a list a screen reader reads (the drawing's text twin): each card in
  /// reading order with where it leads; a name selects its card. Drawn only while open.
  outline() {
    if (!$("outline").open || !api.state) return;
    const nodes = new Map(api.state.nodes.map((n) => [n.id, n]));
    const items = this.canvas.order.map((id) => {
      const node = nodes.get(id);
      return el("li", { "data-node": id },
        el("button", { class: "outline-node", onclick: () => this.canvas.select(id), text: `${node.title} (${node.kind})` }),
        el("ul", {}, this.canvas.leads.get(id).map((words) => el("li", { text: words }))));
    });
    $("outline-list").replaceChildren(...items);
  }

  /// The problems, each of which selects the card of the node it is about: the server names
  /// the node (`node`) whatever the routine's format; a problem about no node selects nothing.
  problems(state) {
    const items = state.diagnostics.map((d) => {
      const li = el("li", { class: d.severity, tabindex: 0, role: "button", "aria-label": `${d.severity} ${d.code} at line ${d.line}: ${d.message}` },
        el("span", { class: "code", text: d.code }), `${d.line ? `${d.line}: ` : ""}${d.message}`);
      const select = () => {
        if (d.node && this.node(d.node)) this.canvas.select(d.node);
      };
      li.addEventListener("click", select);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") select(); });
      return li;
    });
    if (!items.length) items.push(el("li", { class: "none", text: "No problems." }));
    $("problem-list").replaceChildren(...items);
  }

  /// `refused`, when given, hears a refusal instead of the toast (a dialog shows it itself).
  async edit(op, refused) {
    if (this.readOnly() && op.op !== "undo" && op.op !== "redo") return null;
    const answer = await api.edit(op, refused);
    if (answer && answer.message && op.op === "delete") toast(answer.message);
    return answer;
  }

  open(id) {
    const node = this.node(id);
    if (node && !this.readOnly()) forms.editNode(node, api.state, { edit: (op, refused) => this.edit(op, refused) });
  }

  /// Deletes a card once confirmed; the focus then goes to a neighbour: the card an arrow came
  /// from, else one it led to, else the first card.
  remove(id) {
    const node = this.node(id);
    if (!node || this.readOnly()) return;
    const edges = api.state.edges;
    const near = (edges.find((e) => e.to === id && e.from && e.from !== id) || {}).from || (edges.find((e) => e.from === id && e.to !== id) || {}).to;
    forms.confirmDelete(node, api.state, {
      edit: (op) => this.edit(op),
      deleted: () => {
        const next = near && this.node(near) ? near : this.canvas.order[0];
        if (next) this.canvas.select(next);
      },
    });
  }

  add(kind) {
    if (this.readOnly()) return;
    const before = new Set(api.state.nodes.map((n) => n.id));
    forms.addNode(kind, this.canvas.selected, {
      edit: (op, refused) => this.edit(op, refused),
      // The new card is selected, focused and brought into view.
      added: (state) => {
        const node = state.nodes.find((n) => !before.has(n.id));
        if (node) this.canvas.select(node.id);
      },
    });
  }

  /// Moves the selection along an arrow: forward to where it leads, or back to where it came from.
  follow(id, direction) {
    const state = api.state;
    let next;
    if (direction > 0) next = successors(state).get(id) || [];
    else next = state.edges.filter((e) => e.to === id && e.from).map((e) => e.from);
    const order = this.canvas.order;
    next = [...new Set(next)].filter((n) => order.includes(n)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (!next.length) return;
    // Pressing again goes to the next of them.
    const key = `${id}:${direction}`;
    this.followIndex = this.followKey === key ? (this.followIndex + 1) % next.length : 0;
    this.followKey = key;
    this.canvas.select(next[this.followIndex]);
    this.followKey = `${next[this.followIndex]}:${direction}`;
    this.followIndex = -1;
  }

  togglePlay() {
    const panel = $("play");
    panel.hidden = !panel.hidden;
    $("toggle-play").setAttribute("aria-pressed", String(!panel.hidden));
    this.play.open = !panel.hidden;
    this.play.refresh();
  }


  help() { forms.showHelp(); }
}
