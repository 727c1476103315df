// The Run view: today's run, step by step, with the engine of `routine run` on the server
// (docs/studio.md, "Run"). A step shows as done only once the server has answered, that is once
// it is recorded. Every text reaches the page as a text node.
import { call } from "../lib/api.js";
import { dayHeading } from "../lib/dates.js";
import { $, el } from "../lib/dom.js";
import { clockText, number } from "../lib/format.js";
import { Timer } from "../lib/timer.js";
import { RunPicture } from "./picture.js";

const KEPT = "routine-studio-run";
/// A walked step's mark in the trail: what became of it, at a glance.
const MARKS = { done: "✓", skipped: "–", "not-scheduled": "○", answered: "→" };

/// A recorded step in words: "Push-ups: done (12 reps)", "How do you feel?: Great".
function stepText(step) {
  let text = step.event === "answer" ? `${step.prompt}: ${step.option}` : `${step.title}: ${step.result.replace("-", " ")}`;
  if (typeof step.value === "number") text += ` (${number(step.value)}${step.unit ? " " + step.unit : ""})`;
  return text;
}

export class RunView {
  constructor(root) {
    this.root = root;
    this.run = null;      // the run as the server last described it
    this.offer = null;    // the day's unfinished run, offered
    this.message = null;  // a refusal or a note, shown under the card
    this.busy = false;
    this.date = "";       // the day of the run to start: empty for today
    this.timer = null;    // the countdown of the step in front, as Today's
    this.measured = null; // what a finished countdown measured, sent with a numeric habit's amount
    // Which run this page holds, kept over a reload of the tab (not shared with other tabs).
    this.kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    // The page is redrawn inside `page`; `said` stays, so a screen reader hears each new step
    // where the run is, once.
    this.page = el("div", { class: "run-page" });
    this.said = el("div", { id: "run-said", class: "sr-only", role: "status" });
    this.saidText = "";
    // The routine's picture beside the card (above it on a tablet, folded away on a phone).
    this.picture = new RunPicture();
    root.replaceChildren(el("div", { class: "run-layout" }, this.page, this.picture.root), this.said);
    window.addEventListener("resize", () => { if (!root.hidden) this.drawPicture(); });
  }

  /// The picture marked where the run is: the steps walked, and the step in front.
  drawPicture() {
    const run = this.run;
    const current = run && !run.result && run.prompt ? run.prompt.node || null : null;
    this.picture.show(run ? run.steps.map((step) => step.node) : [], current);
  }

  /// Whether this page holds the run shown: the holder id it got, and no take-over since.
  get holding() {
    const run = this.run, kept = this.kept;
    return !!(run && kept && kept.run === run.run && kept.claim === run.claim && run.held && !run.result);
  }

  keep(run) {
    if (run && run.holder) this.kept = { run: run.run, holder: run.holder, claim: run.claim };
    sessionStorage.setItem(KEPT, JSON.stringify(this.kept));
  }

  /// Shown: the run this tab holds, else the day's unfinished run, else the start button.
  async load() {
    if (this.kept) {
      const { status, answer } = await call("GET", `/api/run/${this.kept.run}`);
      if (status === 200 && !answer.result) { this.run = answer; this.offer = null; return this.render(); }
    }
    this.run = null;
    await this.lookForUnfinished();
  }

  async lookForUnfinished() {
    const { status, answer } = await call("GET", "/api/run" + (this.date ? "?date=" + encodeURIComponent(this.date) : ""));
    this.offer = status === 200 ? answer.offer : null;
    if (status !== 200) this.message = { error: answer.error };
    this.render();
  }

  /// The history changed (an answer here or on another page, a terminal's run): the run
  /// shown is read again, so a page that watches follows the one that holds it.
  async onHistoryChange() {
    // The routine may have changed too: its picture is drawn again.
    this.drawPicture();
    if (this.busy) return;
    if (!this.run) return this.lookForUnfinished();
    const { status, answer } = await call("GET", `/api/run/${this.run.run}`);
    if (status !== 200 || this.busy) return;
    if (JSON.stringify(answer.steps) === JSON.stringify(this.run.steps) && answer.claim === this.run.claim && answer.result === this.run.result) return;
    this.run = answer;
    this.render();
  }

  async start(body) {
    const date = this.date && !body.date ? { date: this.date } : {};
    await this.send("POST", "/api/run/start", { ...date, ...body, ...(this.kept ? { holder: this.kept.holder } : {}) });
  }

  async take() { await this.send("POST", "/api/run/take", { run: (this.run || this.offer).run }); }

  /// `seconds`: what the countdown measured for the step, recorded as its time.
  async answer(text, seconds) {
    if (!this.holding || this.busy) return;
    const timed = seconds ? { seconds } : {};
    await this.send("POST", "/api/run/answer", { run: this.run.run, holder: this.kept.holder, answer: text, ...timed });
  }

  /// One request; the page redraws from what the server answered, after it committed.
  async send(method, path, body) {
    this.busy = true;
    this.setBusy(true);
    try {
      const { status, answer } = await call(method, path, body);
      if (answer.offer !== undefined && !answer.run) {
        this.offer = answer.offer;
        this.run = null;
        this.message = null;
      } else if (answer.run) {
        const node = answer.prompt && answer.prompt.node;
        if (!this.run || !this.run.prompt || this.run.prompt.node !== node || this.run.prompt.step !== answer.prompt.step) this.stopTimer();
        this.run = answer;
        this.offer = null;
        this.keep(answer);
        this.message = answer.error ? { error: answer.error } : (answer.notes && answer.notes.length ? { notes: answer.notes } : null);
      } else {
        this.message = { error: answer.error || { message: `the studio answered ${status}` } };
        if (status === 409 && this.run) await this.onHistoryChange();
      }
    } catch (error) {
      this.message = { error: { message: `the studio cannot be reached: ${error.message}` } };
    } finally {
      this.busy = false;
      this.root.setAttribute("aria-busy", "false");
    }
    this.render();
  }

  setBusy(busy) {
    for (const button of this.root.querySelectorAll("button, input")) button.disabled = busy;
    this.root.setAttribute("aria-busy", String(busy));
  }

  render() {
    const run = this.run;
    const parts = [el("h2", { class: "run-heading", text: run ? `${run.routine} · ${dayHeading(run.date)}` : "Run" })];
    if (!run) parts.push(this.offer ? this.offerCard(this.offer) : this.startCard());
    else if (run.result) parts.push(this.summaryCard(run));
    else parts.push(this.stepCard(run));
    parts.push(this.messageBox());
    if (run && (run.steps.length || !run.result)) parts.push(this.trail(run));
    this.page.dataset.state = this.state();
    this.page.replaceChildren(...parts.filter(Boolean));
    this.drawPicture();
    this.say(run);
    const focus = this.root.querySelector("input.run-value") || this.root.querySelector(".timer") || this.root.querySelector("[data-focus]");
    if (focus) { focus.focus(); if (focus.select) focus.select(); }
  }

  /// What the page shows, for tests: start, offer, held, step, end, summary.
  state() {
    const run = this.run;
    if (!run) return this.offer ? (this.offer.held ? "held" : "offer") : "start";
    if (run.result) return "summary";
    if (!this.holding) return "held";
    return run.prompt && run.prompt.event === "confirm-end" ? "end" : "step";
  }

  /// The day the run is of: today by default, or another (yesterday filled in, a weekday's
  /// branch tried), as `run --date`.
  dayPicker() {
    const picker = el("input", { type: "date", id: "run-date", value: this.date, "aria-label": "The day of the run" });
    picker.onchange = () => { this.date = picker.value; this.message = null; this.lookForUnfinished(); };
    return el("label", { class: "run-date" }, "Day ", picker);
  }

  dayWords() { return this.date ? `the run of ${dayHeading(this.date)}` : "today's run"; }

  startCard() {
    const words = this.dayWords();
    return el("section", { class: "run-card calm", "aria-label": "Start" },
      el("p", { text: "Walk through the routine step by step. Every answer is recorded as you give it, as in routine run." }),
      this.dayPicker(),
      el("button", { class: "primary big", "data-action": "start", "data-focus": true, onclick: () => this.start({}), text: "Start " + words }));
  }

  offerCard(offer) {
    if (offer.held) {
      return el("section", { class: "run-card calm", role: "region", "aria-label": "A run held by another page" },
        el("p", { class: "lead", text: `Another page holds ${this.dayWords()}${offer.prompt ? ` (at step ${offer.prompt.step})` : ""}.` }),
        el("div", { class: "run-actions" },
          el("button", { class: "primary", "data-action": "take", "data-focus": true, onclick: () => this.take(), text: "Take over here" }),
          el("button", { "data-action": "fresh", onclick: () => this.start({ fresh: true }), text: "Start a new run" })));
    }
    const when = offer.startedAt ? offer.startedAt.slice(11, 16) : "";
    return el("section", { class: "run-card calm", role: "region", "aria-label": "Resume" },
      el("p", { class: "lead", text: `${this.dayWords().replace(/^./, (c) => c.toUpperCase())} stopped ${offer.position} (${offer.result}, begun at ${when}).` }),
      offer.note ? el("p", { class: "note", text: offer.note }) : null,
      this.dayPicker(),
      el("div", { class: "run-actions" },
        el("button", { class: "primary", "data-action": "resume", "data-focus": true, onclick: () => this.start({ resume: true }), text: "Resume" }),
        el("button", { "data-action": "fresh", onclick: () => this.start({ fresh: true }), text: "Start a new run (the old one is kept)" })));
  }

  stepCard(run) {
    const prompt = run.prompt || {};
    const holding = this.holding;
    const banner = holding ? null : el("div", { class: "run-held", role: "status" },
      el("span", { text: run.held ? "Another page holds this run: its answers show here as they are given."
        : "No page holds this run now (the studio restarted, or a terminal left it): resume it here to go on." }),
      el("button", { class: "primary", "data-action": "take", "data-focus": true, onclick: () => this.take(), text: run.held ? "Take over" : "Resume here" }));
    if (prompt.event === "confirm-end") {
      return el("section", { class: "run-card", "aria-label": "The end" }, banner,
        el("div", { class: "run-progress", text: `Step ${prompt.step} · the end` }),
        el("h3", { class: "run-title", text: `That's the end of '${run.routine}'.` }),
        el("p", { class: "muted", text: "Finish to record the run as completed, or go back to change the last answer." }),
        el("div", { class: "run-actions" },
          this.button("Finish", "finish", "", "Enter", true, holding, "primary"),
          this.button("Back", "back", "b", "b", false, holding)));
    }
    const details = [];
    if (prompt.duration) details.push(prompt.duration);
    if (typeof prompt.target === "number") details.push(prompt.targetText);
    if (prompt.perWeek) details.push(`${prompt.doneThisWeek} of ${prompt.perWeek} this week`);
    const left = prompt.left ? prompt.left.text : "";
    return el("section", { class: "run-card", "aria-label": `Step ${prompt.step}: ${prompt.title}`, "data-node": prompt.node }, banner,
      el("div", { class: "run-progress", text: `Step ${prompt.step} · ${left}` }),
      el("h3", { class: "run-title", text: prompt.title }),
      details.length ? el("div", { class: "run-details", text: details.join(" · ") }) : null,
      prompt.note ? el("p", { class: "run-note", text: prompt.note }) : null,
      prompt.kind === "question" ? this.options(prompt, holding)
        : this.timer && this.timer.node === prompt.node ? this.timerBox(prompt) : this.habitAnswer(prompt, holding),
      el("div", { class: "run-actions secondary" },
        this.button("Back", "back", "b", "b", false, holding && run.canGoBack),
        this.button("Quit", "quit", "q", "q", false, holding)));
  }

  button(label, action, answer, key, focus, enabled, kind) {
    return el("button", {
      class: kind || "", "data-action": action, "aria-keyshortcuts": key, title: `${label} (${key})`, disabled: !enabled,
      "data-focus": focus && enabled ? true : null, onclick: () => this.answer(answer), text: label,
    });
  }

  /// The answers, the first with the focus.
  options(prompt, holding) {
    return el("ol", { class: "run-options", "aria-label": "Answers" }, prompt.options.map((option, k) =>
      el("li", {}, el("button", {
        "data-option": option.index, "data-focus": holding && k === 0 ? true : null, "aria-keyshortcuts": option.index <= 9 ? String(option.index) : null, disabled: !holding,
        "aria-label": `Answer ${option.index}: ${option.text}`, onclick: () => this.answer(String(option.index)),
      }, el("span", { class: "key", text: String(option.index) }), el("span", { text: option.text })))));
  }

  habitAnswer(prompt, holding) {
    const timer = prompt.seconds && !this.measured ? el("button", {
      class: "start-timer", "data-action": "timer", "aria-keyshortcuts": "t", title: `Start a ${clockText(prompt.seconds)} timer (t)`,
      disabled: !holding, onclick: () => this.startTimer(prompt), text: "Timer " + clockText(prompt.seconds),
    }) : null;
    if (typeof prompt.target !== "number") {
      return el("div", { class: "run-actions" },
        this.button("Done", "done", "d", "d", true, holding, "primary big"), timer,
        this.button("Skip", "skip", "s", "s", false, holding));
    }
    const input = el("input", {
      class: "run-value", type: "number", min: 0, step: "any", value: number(prompt.target), disabled: !holding,
      "aria-label": `Amount done of ${prompt.title}${prompt.unit ? " in " + prompt.unit : ""}`,
    });
    const form = el("form", { class: "run-actions" }, input, prompt.unit ? el("span", { class: "unit", text: prompt.unit }) : null,
      el("button", { class: "primary", type: "submit", "data-action": "record", disabled: !holding, text: "Record" }), timer,
      this.button("Skip", "skip", "s", "s", false, holding));
    form.onsubmit = (event) => { event.preventDefault(); this.answer(input.value.trim(), this.measured); };
    return form;
  }

  startTimer(prompt) {
    this.stopTimer();
    this.timer = new Timer(prompt.node, prompt.seconds, this.root);
    this.render();
  }

  stopTimer() {
    if (this.timer) this.timer.stop();
    this.timer = null;
    this.measured = null;
  }

  /// The countdown in place of the step's buttons: Space pauses, Enter finishes (early or at
  /// zero) and records the time it ran; a numeric habit then asks for its amount.
  timerBox(prompt) {
    return this.timer.box(prompt.title, {
      pause: () => { this.timer.pause(); this.render(); },
      finish: () => {
        const seconds = this.timer.seconds();
        this.timer.stop();
        this.timer = null;
        if (typeof prompt.target === "number") { this.measured = seconds; this.render(); }
        else this.answer("d", seconds);
      },
      stop: () => { this.stopTimer(); this.render(); },
    });
  }

  summaryCard(run) {
    const summary = run.summary || { lines: [] };
    const [heading, ...lines] = summary.lines;
    const resumable = run.result !== "completed" && run.recorded;
    return el("section", { class: "run-card summary", "aria-label": "Summary" },
      el("h3", { class: "run-title", text: heading || run.result }),
      // The last line is the whole run's time ("planned 20m · took 23m", or "took 3m" with no
      // timed habit): named as such here, where no indentation sets it apart as the terminal's does.
      el("ul", { class: "run-summary" }, lines.map((line, k) => k === lines.length - 1 && /^(planned |took |time not measured)/.test(line)
        ? el("li", { class: "run-total", text: `The whole run: ${line}` }) : el("li", { text: line }))),
      el("div", { class: "run-actions" },
        resumable ? el("button", { class: "primary", "data-action": "resume", "data-focus": true, onclick: () => this.start({ resume: true, date: run.date }), text: "Resume" }) : null,
        el("button", { "data-action": "again", "data-focus": resumable ? null : true, onclick: () => { this.run = null; this.lookForUnfinished(); }, text: "Back to the start" })));
  }

  messageBox() {
    const message = this.message;
    if (!message) return el("div", { id: "run-message", hidden: true });
    if (message.notes) return el("div", { id: "run-message", class: "run-message note", role: "status" }, message.notes.map((n) => el("div", { text: n })));
    return el("div", { id: "run-message", class: "run-message", role: "alert" },
      el("span", { class: "text", text: message.error.message }),
      ...(message.error.notes || []).map((note) => el("div", { class: "note", text: note })));
  }

  /// Where the run is: the steps walked so far, then the step in front (`aria-current`), or
  /// the end to confirm.
  trail(run) {
    const count = run.steps.length;
    const items = run.steps.map((step) => el("li", { class: "walked " + (step.result || "answered"), "data-node": step.node },
      el("span", { class: "mark", "aria-hidden": "true", text: MARKS[step.result || "answered"] || "·" }),
      el("span", { text: stepText(step) })));
    const prompt = run.result ? null : run.prompt;
    if (prompt) {
      const here = prompt.event === "confirm-end" ? "the end" : prompt.title;
      items.push(el("li", { class: "current", "aria-current": "step", "data-node": prompt.node || null },
        el("span", { class: "mark", "aria-hidden": "true", text: "▸" }), el("span", { text: here }),
        el("span", { class: "now", text: "now" })));
    }
    const heading = count ? `${count} ${count === 1 ? "step" : "steps"} recorded` : "No step recorded yet";
    return el("section", { class: "run-trail", "aria-labelledby": "run-trail-title" },
      el("h3", { id: "run-trail-title", text: heading }), el("ol", {}, items));
  }

  /// Says each new step once in the live region: its number and title, and the step before.
  say(run) {
    let words = "";
    const prompt = run && !run.result ? run.prompt : null;
    if (prompt) {
      const last = run.steps[run.steps.length - 1];
      const here = prompt.event === "confirm-end" ? `Step ${prompt.step}: the end of the run` : `Step ${prompt.step}: ${prompt.title}`;
      words = here + (last ? `, after ${stepText(last)}` : "");
    } else if (run && run.result) {
      words = `The run ended: ${run.result}`;
    }
    if (words === this.saidText) return;
    this.saidText = words;
    this.said.textContent = words;
  }

  /// d, s, b, q, 1-9 and Enter, while the Run view is shown and this page holds the run.
  /// The shell passes on the keys pressed while the view is shown.
  onKey(event) {
    if ( event.ctrlKey || event.metaKey || event.altKey || $("dialog").open) return;
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName);
    // The countdown takes its own keys (Space, Enter, Escape).
    if (typing || !this.holding || this.busy || event.target.closest(".timer")) return;
    const prompt = this.run.prompt || {};
    if ((event.key === "t" || event.key === "T") && prompt.seconds && prompt.kind !== "question" && !this.timer && !this.measured) {
      event.preventDefault();
      this.startTimer(prompt);
      return;
    }
    const question = prompt.kind === "question";
    let answer = null;
    if (prompt.event === "confirm-end") answer = { Enter: "", b: "b", q: "" }[event.key];
    else if (/^[1-9]$/.test(event.key) && question) answer = event.key;
    else if (event.key === "d" && !question && typeof prompt.target !== "number") answer = "d";
    else if (event.key === "s" && !question) answer = "s";
    else if (event.key === "b" || event.key === "q") answer = event.key;
    else if (event.key === "Enter" && !question && event.target.tagName !== "BUTTON" && typeof prompt.target !== "number") answer = "d";
    if (answer === null || answer === undefined) return;
    event.preventDefault();
    this.answer(answer);
  }
}
