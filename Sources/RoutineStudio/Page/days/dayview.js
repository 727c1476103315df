// One day: its runs and logs step by step, as `routine log --date` shows them, with the
// corrections a recorded step allows (docs/studio.md, "A day and its corrections"). A
// correction shows only once the server has recorded it and answered with the day.
import { api, get, onLiveLost, post } from "../lib/api.js";
import { clockAt, weekdayName } from "../lib/dates.js";
import { el } from "../lib/dom.js";
import { human, number } from "../lib/format.js";

const PASSED = { "done-by-log": "passed over, done by a log", "done-by-run": "passed over, done by another run" };

export class DayView {
  constructor(root) {
    this.root = root;
    this.date = null;
    this.day = null;
    this.message = null;
    // What this page did, newest last: the bar undoes the newest, as the server undoes
    // corrections newest first.
    this.undos = [];
    this.editing = null;
    // Runs deleted from this page: each can be put back while the page is open.
    this.deleted = [];
  }

  /// Shows `date` (YYYY-MM-DD).
  async show(date) {
    onLiveLost(this, () => this.away());
    const opening = this.root.hidden || date !== this.date;
    if (date !== this.date) { this.message = null; this.editing = null; }
    this.date = date;
    this.root.hidden = false;
    const query = "?date=" + encodeURIComponent(date);
    const day = await get("/api/day" + query);
    if (date !== this.date) return;
    if (day.ok) {
      this.day = day.answer;
      if (this.message && !this.message.code) this.message = null;
    } else { this.day = null; this.message = day.answer.error; }
    this.render();
    // Under the calendar in a narrow window: brought into view, as a day chosen is what comes next.
    if (opening) this.root.scrollIntoView({ block: "nearest" });
  }

  /// The studio is away: no mark stays on screen that may be stale until the day is read again.
  away() {
    if (!this.date) return;
    this.day = null;
    this.message = { message: "the studio cannot be reached: the day shows again when it is back" };
    this.render();
  }

  /// Hides the day.
  close() {
    this.date = null;
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  /// A change to the history (or the live channel back after a restart): the day is read again.
  onHistoryChange() { if (this.date) this.show(this.date); }

  /// Sends one change; the day redraws from the server's answer only.
  async send(path, body, after) {
    const { ok, answer } = await post(path, body);
    if (ok) {
      this.message = null;
      this.editing = null;
      if (after) after(answer);
    } else {
      this.message = answer.error || { message: "the studio did not answer" };
    }
    // The day as it is now: the answer's, or read again after a refusal.
    if (ok && answer.runs) this.day = answer; else if (answer.state && answer.state.runs) this.day = answer.state;
    await this.show(this.date);
    return ok;
  }

  correct(body, title) {
    return this.send("/api/correct", body, (answer) => {
      const c = answer.correction;
      const before = c.added ? null : c.before.result === "answered" ? `"${c.before.option}"`
        : c.before.result === "done" && typeof c.before.value === "number" ? number(c.before.value) : c.before.result;
      const was = c.added ? "added as a log" : `was ${before}`;
      this.undos.push({ text: `${title}: corrected (${was}).`, body: c.added ? {} : { run: c.run, step: c.step }, path: "/api/correct/undo" });
    });
  }

  render() {
    const children = [this.header(), this.messageBox(), this.undoBar()];
    const day = this.day;
    if (day) {
      for (const off of day.daysOff) children.push(el("p", { class: "day-off", text: "Day off" + (off.reason ? ` (${off.reason})` : "") }));
      // A day's runs read best in the order they happened.
      const runs = [...day.runs].reverse();
      if (!runs.length) children.push(el("p", { class: "muted", text: "Nothing was recorded on this day." }));
      for (const { id, run, values } of runs) children.push(this.runSection(id, run, values));
      children.push(this.missing());
      const gone = this.deleted.filter((d) => d.date === this.date);
      if (gone.length) children.push(this.deletedList(gone));
    }
    this.root.replaceChildren(...children.filter(Boolean));
    const input = this.root.querySelector("input.value");
    if (input) { input.focus(); input.select(); }
  }

  header() {
    const title = this.date ? `${weekdayName(this.date)} ${this.date}` : "";
    return el("div", { class: "day-head" },
      el("h2", { id: "day-title", text: title }),
      el("button", { "data-action": "close-day", "aria-label": "Close the day", onclick: () => this.close(), text: "Close" }));
  }

  messageBox() {
    const error = this.message;
    if (!error) return null;
    return el("div", { class: "day-message", role: "alert" },
      el("strong", { text: error.code ? `${error.code}: ` : "" }), el("span", { text: error.message }),
      ...(error.notes || []).map((note) => el("div", { class: "note", text: note })),
      el("button", { onclick: () => { this.message = null; this.render(); }, text: "Dismiss" }));
  }

  undoBar() {
    const undo = this.undos[this.undos.length - 1];
    if (!undo) return null;
    const more = this.undos.length - 1;
    return el("div", { class: "day-undo", role: "status" }, el("span", { text: undo.text + (more ? ` (${more} earlier)` : "") }),
      el("button", { "data-action": "undo-correction", onclick: () => { this.undos.pop(); this.send(undo.path, undo.body, undo.after); }, text: "Undo" }),
      el("button", { "aria-label": "Dismiss", onclick: () => { this.undos = []; this.render(); }, text: "×" }));
  }

  /// `values`: by step number, what a done step's value says against its target, as the
  /// library words it ("3 · over the limit of 2 cups").
  runSection(id, run, values = {}) {
    const amended = new Set((run.amendments || []).map((a) => a.step));
    const log = run.kind === "log";
    let span = clockAt(run.started, run.utcOffset);
    if (run.ended && !log) span += " to " + clockAt(run.ended, run.utcOffset);
    const result = log ? "logged" : run.result;
    const heading = `${log ? "Log" : "Run"} · ${span} · ${result}` + (run.reachedEnd ? " (reached end)" : "");
    return el("section", { class: "day-run" + (log ? " log" : ""), "data-run": id, "aria-label": heading },
      el("div", { class: "day-run-head" }, el("h3", { text: heading }),
        run.ended ? el("button", { class: "danger", "data-action": "delete-run", onclick: () => this.confirmDelete(id, run, span), text: log ? "Delete log…" : "Delete run…" }) : null),
      el("ol", { class: "day-steps" }, run.steps.map((step) => this.stepItem(id, step, amended.has(step.step), values[step.step]))));
  }

  stepItem(run, step, amended, valueText) {
    let text = step.title + (step.result === "answered" ? " " : ": ");
    if (step.result === "answered") text += step.option || "";
    else if (step.result === "done") text += valueText || (typeof step.value === "number" ? number(step.value) + (step.unit ? " " + step.unit : "") : "done");
    else if (step.result === "skipped") text += "skipped";
    else text += PASSED[step.reason] || "not scheduled";
    if (step.result !== "not-scheduled" && typeof step.seconds === "number") text += " · " + human(step.seconds);
    const li = el("li", { class: "day-step " + step.result, "data-step": step.step, "data-node": step.node, "data-result": step.result },
      el("span", { class: "text", text }), amended ? el("span", { class: "amended", text: "(amended)" }) : null);
    const key = `${run}:${step.step}`;
    if (step.kind === "question") return this.answerActions(li, run, step, key);
    if (step.kind !== "habit") return li;
    const numeric = typeof step.target === "number";
    if (this.editing === key) {
      li.append(this.valueForm(step.title, step.value ?? step.target, (value) => this.correct({ run, step: step.step, value }, step.title)));
      return li;
    }
    const actions = el("span", { class: "day-actions" });
    if (step.result !== "done") {
      actions.append(el("button", { "data-action": "mark-done", onclick: () => numeric ? this.edit(key) : this.correct({ run, step: step.step, result: "done" }, step.title), text: numeric ? "Done…" : "Mark done" }));
    } else if (numeric) {
      actions.append(el("button", { "data-action": "change-value", onclick: () => this.edit(key), text: "Change value…" }));
    }
    if (step.result !== "skipped") {
      actions.append(el("button", { "data-action": "mark-skipped", onclick: () => this.correct({ run, step: step.step, result: "skipped" }, step.title), text: "Mark skipped" }));
    }
    li.append(actions);
    return li;
  }

  /// A recorded answer can be changed to another option of the question as the routine has it
  /// now, as `routine amend FILE DATE QUESTION ANSWER` does; the server refuses the same one.
  answerActions(li, run, step, key) {
    const state = api.state;
    const node = state && state.nodes.find((n) => n.id === step.node);
    const options = (node && node.options) || [];
    if (!options.length) return li;
    if (this.editing !== key) {
      li.append(el("span", { class: "day-actions" },
        el("button", { "data-action": "change-answer", onclick: () => this.edit(key), text: "Change answer…" })));
      return li;
    }
    const select = el("select", { class: "answer", "aria-label": `New answer to ${step.title}` },
      ...options.map((option, k) => el("option", { value: String(k + 1), text: option.text, selected: typeof step.index === "number" && step.index === k + 1 })));
    const form = el("form", { class: "day-value" }, select,
      el("button", { class: "primary", type: "submit", text: "Record" }),
      el("button", { type: "button", onclick: () => { this.editing = null; this.render(); }, text: "Cancel" }));
    form.onsubmit = (event) => {
      event.preventDefault();
      this.correct({ run, step: step.step, answer: select.value }, step.title);
    };
    form.onkeydown = (event) => { if (event.key === "Escape") { this.editing = null; this.render(); } };
    li.append(form);
    return li;
  }

  edit(key) { this.editing = key; this.message = null; this.render(); }

  valueForm(title, value, record) {
    const input = el("input", { class: "value", type: "number", min: 0, step: "any", value: typeof value === "number" ? number(value) : "", "aria-label": `Value for ${title}` });
    const form = el("form", { class: "day-value" }, input,
      el("button", { class: "primary", type: "submit", text: "Record" }),
      el("button", { type: "button", onclick: () => { this.editing = null; this.render(); }, text: "Cancel" }));
    form.onsubmit = (event) => {
      event.preventDefault();
      const number = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(number)) { this.message = { message: "give a number" }; this.render(); return; }
      record(number);
    };
    form.onkeydown = (event) => { if (event.key === "Escape") { this.editing = null; this.render(); } };
    return form;
  }

  /// Habits due that day that nothing recorded, by the statistics' rules (the day's
  /// `missing`, as `stats` and the week grid count them): each can be added as a log.
  missing() {
    const habits = (this.day && this.day.missing) || [];
    if (!habits.length) return null;
    return el("section", { class: "day-missing", "aria-label": "Not recorded" },
      el("h3", { text: "Due but not recorded" }),
      el("ul", {}, habits.map((h) => {
        const key = `add:${h.node}`;
        const numeric = typeof h.target === "number";
        const add = (body) => this.correct({ date: this.date, habit: h.node, ...body }, h.title);
        const li = el("li", { "data-node": h.node }, el("span", { class: "text", text: h.title }));
        if (this.editing === key) li.append(this.valueForm(h.title, h.target, (value) => add({ value })));
        else li.append(el("span", { class: "day-actions" },
          el("button", { "data-action": "add-done", onclick: () => numeric ? this.edit(key) : add({ result: "done" }), text: numeric ? "Add as done…" : "Add as done" }),
          el("button", { "data-action": "add-skipped", onclick: () => add({ result: "skipped" }), text: "Add as skipped" })));
        return li;
      })));
  }

  /// Asks before a whole run goes: its date, time and how many steps it holds.
  confirmDelete(id, run, span) {
    const what = run.kind === "log" ? "log" : "run";
    const count = run.steps.length;
    const dialog = el("dialog", { class: "day-confirm", "aria-labelledby": "day-confirm-title" },
      el("h3", { id: "day-confirm-title", text: `Delete the ${what} of ${weekdayName(run.date)} ${run.date} at ${span.split(" ")[0]}?` }),
      el("p", { text: `It holds ${count} step${count === 1 ? "" : "s"}. You can put it back from this page until you close it.` }));
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.append(el("div", { class: "actions" },
      el("button", { "data-action": "cancel-delete", onclick: close, text: "Cancel" }),
      el("button", { class: "primary danger-fill", "data-action": "confirm-delete", onclick: () => { close(); this.remove(id); }, text: `Delete ${what}` })));
    dialog.addEventListener("cancel", () => dialog.remove());
    // Outside the day's root: a redraw from the live channel leaves the question open.
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("[data-action=cancel-delete]").focus();
  }

  remove(id) {
    return this.send("/api/run/delete", { run: id }, (answer) => {
      const d = answer.deleted;
      this.deleted.push(d);
      this.undos.push({
        text: `Deleted the ${d.kind} of ${d.date} at ${d.time} (${d.steps} step${d.steps === 1 ? "" : "s"}).`,
        body: { run: d.run }, path: "/api/run/restore", run: d.run, after: () => { this.deleted = this.deleted.filter((x) => x !== d); },
      });
    });
  }

  deletedList(gone) {
    return el("section", { class: "day-deleted", "aria-label": "Deleted from this page" },
      el("h3", { text: "Deleted from this page" }),
      el("ul", {}, gone.map((d) => el("li", { "data-run": d.run },
        el("span", { text: `The ${d.kind} at ${d.time}, ${d.steps} step${d.steps === 1 ? "" : "s"}` }),
        el("button", { "data-action": "restore-run", onclick: () => this.restore(d), text: "Put back" })))));
  }

  restore(d) {
    return this.send("/api/run/restore", { run: d.run }, () => {
      this.deleted = this.deleted.filter((x) => x !== d);
      this.undos = this.undos.filter((u) => u.run !== d.run);
    });
  }
}
