// The builder: the canvas, the problems panel, the play panel, dialogs and keys. The file is
// the truth: every change is an op sent to the server, and the builder redraws from the state
// it answers.
import { api } from "../lib/api.js";
import { $, el, toast } from "../lib/dom.js";
import { Canvas, cyclePath, successors } from "./canvas.js";
import * as forms from "./forms.js";
import { builderKey, focusFollowsCards } from "./keyboard.js";
import { Play } from "./play.js";

/// How many outline entries are made at once: a few screens.
const OUTLINE_SLICE = 250;

export class Builder {
  constructor() {
    this.canvas = new Canvas($("canvas"), $("world"), {
      open: (id) => this.open(id),
      connect: (from, option, to) => this.edit({ op: "connect", from, option, to }),
      move: (id, x, y) => this.moveCard(id, x, y),
      readOnly: () => this.readOnly(),
    });
    this.play = new Play($("play-body"), {
      highlight: (walked, current) => this.canvas.highlight(walked, current),
      selected: () => this.canvas.selected && this.node(this.canvas.selected),
    });
    // Tidy lays every card out afresh; the page's own live region says what each change did.
    $("fit").after(el("button", { id: "tidy", type: "button", title: "Lay every card out afresh, forgetting where cards were put (T)", "aria-keyshortcuts": "t", onclick: () => this.tidy() }, "Tidy"));
    this.announcer = el("div", { id: "builder-announce", role: "status", "aria-live": "polite", class: "announce" });
    Object.assign(this.announcer.style, { position: "absolute", width: "1px", height: "1px", overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap" });
    $("canvas").after(this.announcer);
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
    $("skip-to-cards").onclick = (event) => { event.preventDefault(); this.focusCards(); };
    // A dialog closed (saved, cancelled, an answer or arrow changed) gives the focus back to
    // what had it, unless a redraw replaced that: then the card selected has it, never <body>.
    $("dialog").addEventListener("close", () => setTimeout(() => {
      if ($("builder-view").hidden || $("dialog").open) return;
      const focused = document.activeElement;
      if (!focused || focused === document.body || !focused.isConnected) this.focusCards();
    }));
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
      // Without a drawing the outline is the routine: opened once, and left as the person sets it.
      if (state.nodes.length && !this.outlineOpened) {
        this.outlineOpened = true;
        $("outline").open = true;
      }
    } else if (!state.nodes.length) {
      banner.textContent = "An empty routine: add a habit (H) or a question (Q) to begin.";
      banner.hidden = false;
    } else banner.hidden = true;
    const ro = this.readOnly();
    for (const id of ["add-habit", "add-question", "tidy"]) $(id).disabled = ro;
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
    const order = this.canvas.order;
    // The number is the list's own (a screen reader says it), drawn beside the title so a
    // long title wraps under its text, never above its number.
    const item = (id, k) => {
      const node = nodes.get(id);
      return el("li", { "data-node": id },
        el("span", { class: "outline-number", "aria-hidden": "true", text: `${k + 1}.` }),
        el("button", { class: "outline-node", onclick: () => this.canvas.select(id), text: `${node.title} (${node.kind})` }),
        el("ul", {}, this.canvas.leads.get(id).map((words) => el("li", { text: words }))));
    };
    // A long outline (a routine too large to draw) shows its first screens at once and the
    // rest in slices between frames, so that the page answers while it fills; a newer state
    // stops the slices of the older one.
    const first = OUTLINE_SLICE;
    const list = $("outline-list");
    list.replaceChildren(...order.slice(0, first).map(item));
    const drawing = this.outlineDrawing = {};
    const more = (from) => {
      if (this.outlineDrawing !== drawing || from >= order.length) return;
      const end = Math.min(order.length, from + OUTLINE_SLICE * 4);
      list.append(...order.slice(from, end).map((id, k) => item(id, from + k)));
      setTimeout(() => more(end));
    };
    setTimeout(() => more(first));
  }

  /// The problems, each of which selects the card of the node it is about: the server names
  /// the node (`node`) whatever the routine's format; a problem about no node selects nothing.
  problems(state) {
    // Errors first, then warnings, then notes; in the file's order within each (a stable sort).
    const rank = { error: 0, warning: 1, note: 2 };
    const sorted = [...state.diagnostics].sort((a, b) => (rank[a.severity] ?? 3) - (rank[b.severity] ?? 3));
    const items = sorted.map((d) => {
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
  /// A change made is announced once, in words.
  async edit(op, refused) {
    if (this.readOnly() && op.op !== "undo" && op.op !== "redo") return null;
    // Ctrl+Z with nothing to undo is said, not sent to be refused.
    if ((op.op === "undo" && !api.state.canUndo) || (op.op === "redo" && !api.state.canRedo)) {
      this.announce(op.op === "undo" ? "Nothing to undo" : "Nothing to redo");
      return null;
    }
    const before = api.state;
    const answer = await api.edit(op, refused);
    if (answer && answer.message && op.op === "delete") toast(answer.message);
    if (answer) this.announce(describeChange(op, before, answer));
    return answer;
  }

  /// Says `text` once in the builder's polite live region.
  announce(text) {
    if (!text) return;
    this.announcer.textContent = "";
    // A new text node, a moment later, is read even when it repeats the last one.
    requestAnimationFrame(() => { this.announcer.textContent = text; });
  }

  /// Puts a card where it was dragged (or moved with Alt and the arrows); a refusal puts it back.
  async moveCard(id, x, y) {
    const answer = await this.edit({ op: "move", id, x, y });
    if (!answer && api.state) this.canvas.render(api.state);
    return answer;
  }

  /// Alt and an arrow key: the focused card a small step that way (a large one with Shift).
  nudge(id, dx, dy) {
    const node = this.node(id);
    if (!node || this.readOnly() || node.x === undefined) return;
    this.moveCard(id, Math.max(0, node.x + dx), Math.max(0, node.y + dy));
  }

  tidy() { if (!this.readOnly()) this.edit({ op: "tidy" }); }

  /// `C` on a card: connecting from it begins; C again picks the next answer (a question's),
  /// then focus the card it should lead to and press Enter. Escape cancels.
  connectKey(id) {
    const node = this.node(id);
    if (!node || this.readOnly()) return;
    const c = this.connecting;
    if (c && c.from === id && node.kind === "question") {
      c.option = c.option === null ? 0 : c.option + 1 < node.options.length ? c.option + 1 : null;
    } else {
      this.cancelConnect(false);
      this.connecting = { from: id, option: node.kind === "question" ? 0 : null };
      this.canvas.cardOf(id)?.classList.add("connecting");
    }
    const k = this.connecting.option;
    const what = k === null ? (node.kind === "question" ? `${node.title}, then` : node.title) : `${node.title}, answer ${node.options[k].text}`;
    this.announce(`Connecting from ${what}: move to the card it leads to and press Enter; Escape cancels`);
  }

  /// Enter on a card while connecting: the arrow to it, unless it would close a cycle.
  async finishConnect(to) {
    const { from, option } = this.connecting;
    const refused = cyclePath(api.state, from, to);
    if (refused) {
      this.announce(from === to ? "An arrow cannot lead to its own card" : `Refused: a cycle ${refused.join(" → ")}`);
      return;
    }
    this.cancelConnect(false);
    await this.edit({ op: "connect", from, option, to });
    this.canvas.select(to);
  }

  cancelConnect(say = true) {
    if (!this.connecting) return false;
    this.canvas.cardOf(this.connecting.from)?.classList.remove("connecting");
    this.connecting = null;
    if (say) this.announce("Connecting cancelled");
    return true;
  }

  /// The focus to the cards: the card selected, else the first in reading order (the skip
  /// link's target), else the canvas of an empty routine.
  focusCards() {
    const id = this.canvas.selected && this.canvas.cardOf(this.canvas.selected) ? this.canvas.selected : this.canvas.order.find((n) => this.canvas.cardOf(n));
    if (id) this.canvas.select(id);
    else $("canvas").focus();
  }

  open(id) {
    const node = this.node(id);
    // Saved, the card (under its new ID when renamed) is selected and has the focus.
    if (node && !this.readOnly()) forms.editNode(node, api.state, { edit: (op, refused) => this.edit(op, refused), saved: (saved) => this.canvas.select(saved) });
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

/// What an edit did, in the words a person would use: "Stretch added after Water", "Run
/// moved"; never a version number. `before` is the state the edit was made on.
export function describeChange(op, before, after) {
  const title = (state, id) => (id === "end" ? "the end" : (state && state.nodes.find((n) => n.id === id) || {}).title || id);
  switch (op.op) {
    case "addHabit": case "addQuestion": {
      const known = new Set(before ? before.nodes.map((n) => n.id) : []);
      const added = after.nodes.find((n) => !known.has(n.id));
      const name = added ? added.title : op.title || op.text;
      return op.after ? `${name} added after ${title(before, op.after)}` : `${name} added`;
    }
    case "connect":
      if (op.option === null && before && (before.nodes.find((n) => n.id === op.from) || {}).kind === "question") {
        return `After ${title(before, op.from)}, then leads to ${title(before, op.to)}`;
      }
      return `${title(before, op.from)} now leads to ${title(before, op.to)}`;
    case "disconnect": return `Arrow from ${title(before, op.from)} to ${title(before, op.to)} removed`;
    case "delete": return `${title(before, op.id)} deleted`;
    case "move": return `${title(before, op.id)} moved`;
    case "tidy": return "Cards laid out afresh";
    case "undo": return "Undone";
    case "redo": return "Redone";
    case "setTitle": return `${title(before, op.id)} renamed ${op.title}`;
    case "rename": return `${title(before, op.id)} now has the ID ${op.newId}`;
    case "setName": return `Routine renamed ${op.name}`;
    case "addOption": return `Answer ${op.text} added to ${title(before, op.id)}`;
    case "removeOption": return `An answer of ${title(before, op.id)} removed`;
    case "moveOption": return `Answers of ${title(before, op.id)} reordered`;
    case "together": return op.ops.length && op.ops[0].id ? `${title(before, op.ops[0].id)} changed` : "Changed";
    default: return op.id ? `${title(after, op.id)} changed` : "Changed";
  }
}
