// The studio's page: the canvas, the problems panel, the play panel, dialogs and keys, over
// the API. The file is the truth: every change is an op sent to the server, and the page
// redraws from the state it answers.
import { Api } from "./api.js";
import { Canvas, successors } from "./canvas.js";
import { el, toast } from "./dom.js";
import * as forms from "./forms.js";
import { installKeys } from "./keyboard.js";
import { Play } from "./play.js";
import { Today } from "./today.js";
import { RunView } from "./run.js";
import { Days } from "./days.js";
import { DayView } from "./dayview.js";

const $ = (id) => document.getElementById(id);

class Studio {
  constructor() {
    this.api = new Api((state) => this.show(state), (error, status) => this.refused(error, status));
    this.canvas = new Canvas($("canvas"), $("world"), {
      open: (id) => this.open(id),
      connect: (from, option, to) => this.edit({ op: "connect", from, option, to }),
      readOnly: () => this.readOnly(),
    });
    this.play = new Play($("play-body"), this.api);
    $("add-habit").onclick = () => this.add("habit");
    $("add-question").onclick = () => this.add("question");
    $("undo").onclick = () => this.edit({ op: "undo" });
    $("redo").onclick = () => this.edit({ op: "redo" });
    $("fit").onclick = () => this.canvas.fit();
    $("zoom-in").onclick = () => this.canvas.zoomBy(1.2);
    $("zoom-out").onclick = () => this.canvas.zoomBy(1 / 1.2);
    $("toggle-play").onclick = () => this.togglePlay();
    $("help").onclick = () => this.help();
    $("routine-name").onclick = () => { if (!this.readOnly()) forms.renameRoutine(this.api.state, { edit: (op) => this.edit(op) }); };
    this.view = "builder";
    this.today = new Today($("today-view"));
    this.dayView = new DayView($("day-view"));
    this.runView = new RunView($("run-view"));
    this.days = new Days($("days-body"), this.dayView);
    // The views besides the builder, each with load() (on showing) and onHistory() (a change
    // to the history, from this page or a terminal, announced by the live channel).
    this.views = { today: this.today, run: this.runView, days: this.days };
    for (const view of ["builder", ...Object.keys(this.views)]) $(`tab-${view}`).onclick = () => this.showView(view);
    window.addEventListener("resize", () => this.canvas.fit());
    installKeys(this);
  }

  async start() {
    await this.api.load();
    this.api.live((ms) => { window.studioLastRedraw = ms; }, (count) => {
      const shown = this.views[this.view];
      // "Your days" passes it on to the day open beside it.
      if (shown) shown.onHistory(count);
    });
    window.addEventListener("studio-unauthorized", () =>
      toast("The studio was started again with a new token: this address no longer works. Open the address the studio printed.", "error", 0));
    // "#days/…" and the like: the first word names the view, the rest is the view's own.
    const view = location.hash.slice(1).split("/")[0];
    if (this.views[view]) this.showView(view, location.hash);
  }

  /// Shows one view; the address keeps which (and the view's own place in it), so a reload
  /// stays there.
  showView(view, hash) {
    this.view = view;
    const builder = view === "builder";
    for (const name of ["builder", ...Object.keys(this.views)]) {
      $(`${name}-view`).hidden = name !== view;
      $(`tab-${name}`).setAttribute("aria-selected", String(name === view));
    }
    $("builder-actions").hidden = !builder;
    if (builder) {
      history.replaceState(null, "", location.pathname);
      this.canvas.fit();
    } else {
      if (!hash || !hash.startsWith(`#${view}`)) history.replaceState(null, "", `#${view}`);
      this.views[view].load(hash ? hash.slice(view.length + 2) : "");
    }
  }

  readOnly() { const s = this.api.state; return !s || !!s.readOnly || s.stale; }

  node(id) { return this.api.state.nodes.find((n) => n.id === id); }

  show(state) {
    // Today, the run and your days read the routine too: a new version (an edit, a save in an
    // editor, errors fixed) reads them again, as a history change does.
    const shown = this.views[this.view];
    if (shown && this.shownVersion !== undefined && state.version !== this.shownVersion) shown.onHistory(null);
    this.shownVersion = state.version;
    $("routine-name").textContent = state.name || "(no name)";
    $("routine-path").textContent = state.path;
    document.title = `${state.name || "routine"} — routine studio`;
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
    $("status").textContent = `version ${state.version}` + (state.message ? ` · ${state.message}` : "");
    document.body.dataset.version = state.version;
    // For Benchmarks/studio.sh: when this version was on screen, on the wall clock.
    window.studioRedrawn = { version: state.version, at: performance.timeOrigin + performance.now(), sinceLoad: performance.now() };
    this.play.refresh();
  }

  problems(state) {
    const list = $("problem-list");
    const items = state.diagnostics.map((d) => {
      const li = el("li", { class: d.severity, tabindex: 0, role: "button", "aria-label": `${d.severity} ${d.code} at line ${d.line}: ${d.message}` },
        el("span", { class: "code", text: d.code }), `${d.line ? `${d.line}: ` : ""}${d.message}`);
      const select = () => {
        const id = this.nodeAtLine(state, d.line);
        if (id) this.canvas.select(id);
      };
      li.addEventListener("click", select);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") select(); });
      return li;
    });
    if (!items.length) items.push(el("li", { class: "none", text: "No problems." }));
    list.replaceChildren(...items);
  }

  /// The node whose declaration holds `line`: the last one that starts at or before it.
  nodeAtLine(state, line) {
    if (!line) return null;
    const lines = state.source.split("\n");
    let found = null;
    for (let i = 0; i < Math.min(line, lines.length); i++) {
      const m = /^\s*(habit|question)\s+([A-Za-z_][A-Za-z0-9_-]*)/.exec(lines[i]);
      if (m) found = m[2];
    }
    return found && this.node(found) ? found : null;
  }

  /// `refused`, when given, hears a refusal instead of the toast (a dialog shows it itself).
  async edit(op, refused) {
    if (this.readOnly() && op.op !== "undo" && op.op !== "redo") return null;
    const answer = await this.api.edit(op, refused);
    if (answer && answer.message && op.op === "delete") toast(answer.message);
    return answer;
  }

  refused(error, status) {
    if (status === 409) toast("The file changed in the meantime; the page shows it now. Try again.", "error");
    else toast(error.message + (error.notes && error.notes.length ? ` (${error.notes[0]})` : ""), "error");
  }

  open(id) {
    const node = this.node(id);
    if (node && !this.readOnly()) forms.editNode(node, this.api.state, { edit: (op, refused) => this.edit(op, refused) });
  }

  remove(id) {
    const node = this.node(id);
    if (node && !this.readOnly()) forms.confirmDelete(node, this.api.state, { edit: (op) => this.edit(op) });
  }

  add(kind) {
    if (this.readOnly()) return;
    const before = new Set(this.api.state.nodes.map((n) => n.id));
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
    const state = this.api.state;
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

const studio = new Studio();
window.studio = studio;
studio.start().catch((error) => toast(`The studio cannot be reached: ${error.message}`, "error"));
