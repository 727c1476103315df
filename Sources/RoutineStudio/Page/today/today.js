// The Today view: the day of the routine as `routine today` sees it, and logs as `routine done`
// records them (docs/studio.md). Every text reaches the page as a text node.
import { api, get, onLiveLost, post } from "../lib/api.js";
import { dayHeading, dayNumber, isoDate, weekdayName, weekdayShort } from "../lib/dates.js";
import { el, svg } from "../lib/dom.js";
import { clockText, number } from "../lib/format.js";
import { Timer } from "../lib/timer.js";

const FORCEABLE = new Set(["E501", "E502", "E503"]);
const REASONS = {
  "not-scheduled": "not scheduled on this day",
  "quota-met": "this week's quota is met",
  "passed-over": "the day's run passed over it",
  "not-reached": "the day's run did not lead there",
  "ruled-out": "ruled out by the day's answers",
  "tracked-only": "tracked only: no way from the start leads there",
  "day-off": "day off",
};

/// A card's status in words, where its section's heading does not say it already: a habit due
/// and not done yet is "to do" under "Due"; under "Done", "Maybe" and "Not due" the card says
/// nothing more, and a skipped one says "skipped" under "Done or skipped".
const STATUS_WORDS = { due: "to do", done: "", maybe: "", "not-due": "" };

/// A note of `routine done`'s refusals in the page's words: its flags are this page's buttons.
function pageWords(note) {
  return note.replace("--undo takes back", "Undo takes back").replace("--force records it again", "“Record anyway” records it again")
    .replace("--force records it anyway", "“Record anyway” records it all the same");
}

/// The seven days up to `date` of a habit's days from `stats --json`; a day before the
/// history began is unknown.
function lastSeven(days, date) {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const end = dayNumber(date);
  const out = [];
  for (let k = 6; k >= 0; k--) {
    const day = isoDate(end - k);
    out.push(byDate.get(day) || { date: day, status: "unknown" });
  }
  return out;
}

export class Today {
  constructor(root) {
    this.root = root;
    this.day = null;
    this.date = "";
    this.editing = null;
    this.message = null;
  }

  /// A change to the history, from this page or elsewhere: the day is read again.
  onHistoryChange() { this.load(); }

  /// Keys pressed while Today is shown: its cards take theirs (T starts a timer) where they
  /// have the focus; Escape closes a value being typed. Nothing else is Today's.
  onKey(event) {
    if (event.key === "Escape" && this.editing && !event.defaultPrevented) {
      event.preventDefault();
      this.editing = null;
      this.focusNext = true;
      this.render();
    }
  }

  async load() {
    onLiveLost(this, () => this.away());
    const query = this.date ? "?date=" + encodeURIComponent(this.date) : "";
    const { reached, ok, answer } = await get("/api/today" + query);
    if (!reached) { this.away(); return; }
    if (ok) {
      const glance = await this.loadGlance(answer.date);
      const cleared = this.message && !this.message.retry;
      if (cleared) this.message = null;
      // The page's own log announced again by the live channel: nothing to redraw.
      if (!cleared && this.day && JSON.stringify(answer) === JSON.stringify(this.day) && JSON.stringify(glance) === JSON.stringify(this.glance)) return;
      this.day = answer;
      this.glance = glance;
    } else {
      this.message = { error: answer.error };
    }
    this.render();
  }

  /// Per habit, what `routine stats` says up to the day shown: the current streak, the score,
  /// and the last seven days; null without a history to read.
  async loadGlance(date) {
    const { ok, answer: stats } = await get("/api/stats?until=" + encodeURIComponent(date));
    if (!ok) return null;
    const glance = {};
    for (const habit of stats.habits) {
      glance[habit.id] = { streak: habit.currentStreak, score: habit.score, days: lastSeven(habit.days, date) };
    }
    return glance;
  }

  /// One click on a day's mark: done becomes skipped, anything else done (a numeric habit
  /// with its target), through the corrections the day view makes.
  async correct(habit, day) {
    const body = { date: day.date, habit: habit.node, result: day.status === "done" ? "skipped" : "done" };
    if (body.result === "done" && typeof habit.target === "number") body.value = habit.target;
    const { reached, ok, answer } = await post("/api/correct", body);
    if (!reached) {
      this.message = { error: { message: "the studio cannot be reached: nothing was recorded" } };
      return this.render();
    }
    if (!ok) {
      this.message = { error: answer.error };
      return this.render();
    }
    this.message = null;
    await this.load();
  }

  /// The studio is away (stopped, or restarting): no mark stays on screen that may be stale;
  /// the day is read again when the live channel is back.
  away() {
    this.day = null;
    this.message = { error: { message: "the studio cannot be reached: the day shows again when it is back" } };
    this.render();
  }

  /// One log: done, a value, a skip or an undo. The page shows it only once the server has
  /// committed it and answered with the new day.
  async log(body) {
    const payload = { ...body };
    if (this.date) payload.date = this.date;
    const { reached, ok, answer } = await post("/api/log", payload);
    if (!reached) {
      this.message = { error: { message: "the studio cannot be reached: nothing was recorded" } };
      this.render();
      return;
    }
    if (ok) {
      // The glance too, so that the live channel's news of this log finds nothing to redraw.
      this.glance = await this.loadGlance(answer.date);
      this.day = answer;
      this.editing = null;
      this.measured = null;
      this.stopTimer();
      this.message = null;
      // The card logged is gone from "Due": the focus goes on to the next thing to do.
      this.focusNext = true;
    } else {
      if (answer.state) this.day = answer.state;
      this.message = { error: answer.error, retry: payload };
    }
    this.render();
  }

  habits() { return (this.day && this.day.routines[0] && this.day.routines[0].habits) || []; }

  /// The routine's day off on the day shown (`{reason, text}`), or null.
  dayOff() { return (this.day && this.day.routines[0] && this.day.routines[0].dayOff) || null; }

  /// Makes the day an ordinary day again (or a day off), as `routine off` does; the page shows
  /// it once the server has recorded it and answered with the new day.
  async setDayOff(body) {
    const payload = { date: this.day ? this.day.date : this.date, ...body };
    const { reached, ok, answer } = await post("/api/day-off", payload);
    if (!reached) {
      this.message = { error: { message: "the studio cannot be reached: nothing was recorded" } };
    } else if (ok) {
      this.day = answer;
      this.glance = await this.loadGlance(answer.date);
      this.message = null;
      this.focusNext = true;
    } else {
      this.message = { error: answer.error };
    }
    this.render();
  }

  /// The day off and the way to undo it, in place of the due habits.
  dayOffBox(off) {
    return el("section", { class: "today-section today-off", "aria-label": "Day off" },
      el("h3", { text: off.text.charAt(0).toUpperCase() + off.text.slice(1) }),
      el("p", { class: "muted", text: "Nothing is due on a day off. What was recorded still counts." }),
      el("button", { "data-action": "undo-day-off", onclick: () => this.setDayOff({ undo: true }), text: "Undo the day off" }));
  }

  render() {
    const day = this.day;
    const children = [this.header(day), this.messageBox()];
    if (day) {
      const habits = this.habits();
      const settled = (h) => h.status === "done" || h.status === "skipped";
      const due = habits.filter((h) => h.status === "due");
      const done = habits.filter(settled);
      const maybe = habits.filter((h) => h.status === "maybe");
      const off = this.dayOff();
      const notDue = habits.filter((h) => h.status === "not-due" && !(off && h.reason === "day-off"));
      if (off) children.push(this.dayOffBox(off));
      else children.push(this.section("Due", due, done.length ? "Nothing left to do on this day." : "Nothing is due on this day."));
      if (done.length) children.push(this.section(done.some((h) => h.status === "skipped") ? "Done or skipped" : "Done", done));
      if (maybe.length) children.push(this.section("Maybe (behind a question not answered yet)", maybe));
      if (notDue.length) children.push(this.section("Not due", notDue));
      const resting = off ? habits.filter((h) => h.reason === "day-off") : [];
      if (resting.length) children.push(this.section("Not due: day off", resting));
    }
    // A value being typed survives a redraw that the live channel brings.
    const typing = this.root.querySelector("input.value");
    const typed = typing && typing.closest("[data-node]").dataset.node === this.editing ? typing.value : null;
    this.root.replaceChildren(...children);
    const input = this.root.querySelector("input.value");
    if (input && typed !== null) input.value = typed;
    if (input) { input.focus(); if (typed === null) input.select(); }
    const timer = this.root.querySelector(".timer");
    if (timer && !input) timer.focus();
    if (this.focusNext && !input && !timer) this.focusNextStep();
    this.focusNext = false;
  }

  /// After a log the card that had the focus is gone: the next Done takes it, else the day
  /// off's Undo, else the day's heading; never the page's body.
  focusNextStep() {
    const next = this.root.querySelector("[data-action=done], [data-action=undo-day-off]") || this.root.querySelector("#today-heading");
    if (next) next.focus();
  }

  header(day) {
    const picker = el("input", { type: "date", id: "today-date", value: day ? day.date : this.date, "aria-label": "Day" });
    picker.onchange = () => { this.date = picker.value; this.message = null; this.load(); };
    const off = this.dayOff();
    const counts = day
      ? `${day.done} of ${day.due} done` + (day.skipped ? `, ${day.skipped} skipped` : "") + (day.maybe ? `, ${day.maybe} maybe` : "")
      : "";
    const summary = off ? off.text + (day.due ? " · " + counts : "") : counts;
    return el("div", { class: "today-head" },
      el("h2", { id: "today-heading", tabindex: "-1", text: dayHeading(day ? day.date : this.date) }), picker,
      el("span", { id: "today-summary", class: "summary", text: summary }),
      this.meter(day ? day.percentage : 0));
  }

  meter(percentage) {
    const fill = el("div", { class: "fill" });
    // Through the style object: the page's policy refuses style attributes.
    fill.style.width = percentage + "%";
    return el("div", { class: "meter", role: "progressbar", "aria-label": "Done of the day's due habits", "aria-valuenow": percentage, "aria-valuemin": 0, "aria-valuemax": 100 }, fill);
  }

  messageBox() {
    const message = this.message;
    if (!message) return el("div", { id: "today-message", hidden: true });
    const error = message.error;
    const retry = message.retry && FORCEABLE.has(error.code)
      ? el("button", { "data-action": "force", onclick: () => this.log({ ...message.retry, force: true }), text: "Record anyway" })
      : null;
    return el("div", { id: "today-message", class: "today-message", role: "alert" },
      el("strong", { text: error.code ? `${error.code}: ` : "" }), el("span", { class: "text", text: error.message }),
      ...(error.notes || []).map((note) => el("div", { class: "note", text: pageWords(note) })),
      el("div", { class: "actions" }, retry,
        el("button", { onclick: () => { this.message = null; this.render(); }, text: "Dismiss" })));
  }

  section(title, habits, empty) {
    return el("section", { class: "today-section", "aria-label": title },
      el("h3", { text: title }),
      habits.length ? el("ul", { class: "today-cards" }, habits.map((h) => this.card(h))) : el("p", { class: "muted", text: empty || "" }));
  }

  card(habit) {
    const numeric = typeof habit.target === "number";
    const settled = habit.status === "done" || habit.status === "skipped";
    const details = [];
    // The texts are the library's ("at most 2 cups", "3 · over the limit of 2 cups"): one wording everywhere.
    if (habit.status === "done" && typeof habit.value === "number") {
      details.push(habit.valueText || number(habit.value) + (habit.unit ? " " + habit.unit : ""));
    } else if (numeric) {
      details.push(habit.targetText);
    }
    if (settled) details.push(`by ${habit.by === "log" ? "a log" : "a run"} at ${habit.at}`);
    if (habit.reason) details.push(this.reasonText(habit));
    const actions = [];
    const duration = this.duration(habit.node);
    if (this.editing === habit.node) {
      actions.push(this.valueForm(habit));
    } else if (this.timer && this.timer.node === habit.node) {
      actions.push(this.timerBox(habit));
    } else if (habit.status === "not-due") {
      // Not due: the reason is said above, and a log is a deliberate, quiet choice.
      actions.push(el("button", {
        class: "quiet", "data-action": "force", title: "Record it although it is not due on this day",
        onclick: () => numeric ? this.edit(habit.node) : this.log({ habit: habit.node, force: true }),
        text: numeric ? "Record anyway…" : "Record anyway",
      }));
    } else if (!settled) {
      actions.push(el("button", {
        class: "primary done", "data-action": "done",
        onclick: () => numeric ? this.edit(habit.node) : this.log({ habit: habit.node }),
        text: numeric ? "Done…" : "Done",
      }));
      if (duration) {
        actions.push(el("button", {
          class: "start-timer", "data-action": "timer", "aria-keyshortcuts": "t", title: `Start a ${clockText(duration)} timer (T)`,
          onclick: () => this.startTimer(habit.node, duration), text: "Timer " + clockText(duration),
        }));
      }
      actions.push(el("button", { class: "skip", "data-action": "skip", onclick: () => this.log({ habit: habit.node, skip: true }), text: "Skip" }));
    }
    if (settled && habit.by === "log") {
      actions.push(el("button", { class: "undo", "data-action": "undo", onclick: () => this.log({ habit: habit.node, undo: true }), text: "Undo" }));
    }
    const onkeydown = (event) => {
      if ((event.key === "t" || event.key === "T") && duration && !settled && !this.timer && event.target.tagName !== "INPUT") {
        event.preventDefault();
        this.startTimer(habit.node, duration);
      }
    };
    const over = habit.overLimit ? " over-limit" : "";
    return el("li", { class: "today-card " + habit.status + over, "data-node": habit.node, "data-status": habit.status, onkeydown },
      el("div", { class: "title", text: habit.title }),
      this.glanceRow(habit),
      STATUS_WORDS[habit.status] === "" ? null : el("div", { class: "status", text: STATUS_WORDS[habit.status] || habit.status }),
      el("div", { class: "details", text: details.join(" · ") }),
      el("div", { class: "actions" }, actions));
  }

  /// Why a habit is not due, with its days when the day is not one of them.
  reasonText(habit) {
    const state = api.state;
    const node = state && state.nodes.find((n) => n.id === habit.node);
    if (habit.reason === "not-scheduled" && node && node.days && this.day) {
      return `not scheduled on ${weekdayName(this.day.date)}s: only on ${node.days.join(", ")}`;
    }
    if (habit.reason === "quota-met" && node && node.perWeek) return `this week's quota of ${node.perWeek} is met`;
    return REASONS[habit.reason] || habit.reason;
  }

  /// The streak, a small score ring and the last seven days, as Loop shows them at a glance.
  glanceRow(habit) {
    const glance = this.glance && this.glance[habit.node];
    if (!glance) return null;
    const score = typeof glance.score === "number" ? Math.round(glance.score * 100) : null;
    const ring = svg("svg", { class: "score-ring", viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true" });
    const circumference = 2 * Math.PI * 8;
    ring.append(svg("circle", { cx: 10, cy: 10, r: 8, class: "ring-track" }),
      svg("circle", { cx: 10, cy: 10, r: 8, class: "ring-fill", "stroke-dasharray": `${circumference * (score ?? 0) / 100} ${circumference}`, transform: "rotate(-90 10 10)" }));
    const marks = el("ol", { class: "week-marks", "aria-label": `The last seven days of ${habit.title}` }, glance.days.map((day) => {
      const words = `${weekdayShort(day.date)} ${day.date.slice(8).replace(/^0/, "")}: ${day.status.replace("-", " ")}`;
      const correctable = day.status !== "not-due" && day.status !== "off";
      const next = day.status === "done" ? "skipped" : "done";
      return el("li", {}, el("button", {
        class: "mark " + day.status, "data-date": day.date, "data-status": day.status, disabled: !correctable,
        title: correctable ? `${words}; click to mark it ${next}` : words,
        "aria-label": correctable ? `${words}. Mark it ${next}` : words,
        onclick: () => this.correct(habit, day),
      }, el("span", { class: "letter", text: weekdayShort(day.date).slice(0, 1) })));
    }));
    return el("div", { class: "glance" },
      el("span", { class: "streak", title: "Days in a row, as routine stats counts them", text: `streak ${glance.streak}` }),
      el("span", { class: "score", title: "Strength score, as routine stats gives it" }, ring,
        el("span", { text: score === null ? "no score" : `${score}%` })),
      marks);
  }

  edit(node) { this.editing = node; this.message = null; this.render(); }

  valueForm(habit) {
    const input = el("input", {
      class: "value", type: "number", min: 0, step: "any", value: number(habit.target), "aria-label": `Value for ${habit.title}`,
    });
    const form = el("form", { class: "value-form" }, input, habit.unit ? el("span", { text: habit.unit }) : null,
      el("button", { class: "primary", type: "submit", text: "Record" }),
      el("button", { type: "button", onclick: () => { this.editing = null; this.render(); }, text: "Cancel" }));
    form.onsubmit = (event) => {
      event.preventDefault();
      const value = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(value)) {
        this.message = { error: { message: "give a number" } };
        this.render();
        return;
      }
      const force = habit.status === "not-due" ? { force: true } : {};
      this.log({ habit: habit.node, value, ...force, ...(this.measured ? { seconds: this.measured } : {}) });
    };
    return form;
  }

  /// A habit's duration in seconds, from the routine's state (GET /api/routine); 0 when untimed.
  duration(node) {
    const state = api.state;
    const found = state && state.nodes.find((n) => n.id === node);
    return (found && found.duration) || 0;
  }

  startTimer(node, duration) {
    this.stopTimer();
    this.measured = null;
    this.timer = new Timer(node, duration, this.root);
    this.render();
  }

  stopTimer() {
    if (this.timer) this.timer.stop();
    this.timer = null;
  }

  finishTimer(habit) {
    const seconds = this.timer.seconds();
    this.stopTimer();
    if (typeof habit.target === "number") {
      // A numeric habit still needs its value: the time measured goes with it.
      this.measured = seconds;
      this.edit(habit.node);
    } else {
      this.log({ habit: habit.node, seconds });
    }
  }

  timerBox(habit) {
    return this.timer.box(habit.title, {
      pause: () => { this.timer.pause(); this.render(); },
      finish: () => this.finishTimer(habit),
      stop: () => { this.stopTimer(); this.render(); },
    });
  }
}
