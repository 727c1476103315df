// One habit's page in "Your days": its figures as `routine stats` gives them, its year of
// statuses, its values against the target, and the questions' answers.
import { el } from "../lib/dom.js";
import { hundredths, percent, rough } from "../lib/format.js";
import * as draw from "./draw.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function tile(label, value, note) {
  return el("div", { class: "tile" }, el("span", { class: "tile-label", text: label }), el("strong", { text: value }), note ? el("small", { text: note }) : null);
}

/// "86% of 120 known due days · 3 unknown": the whole window's rate with what it leaves out,
/// worded as `routine stats` words it.
export function knownDays(habit) {
  const due = habit.counts.done + habit.counts.skipped + habit.counts.missed;
  const known = habit.rateAll === null ? "no known due day" : `${percent(habit.rateAll)} of ${due} known due day${due === 1 ? "" : "s"}`;
  return `${known} · ${habit.counts.unknown} unknown`;
}

/// The page of habit `p.id` in year `p.year`.
export function habitPage(p, ctx) {
  const { stats } = ctx.data;
  const habit = ctx.data.habits.get(p.id);
  if (!habit) return el("div", { class: "days-body" }, el("p", { class: "muted", text: "The routine has no habit yet." }));
  const first = Date.UTC(p.year, 0, 1) / 86400000;
  const last = Date.UTC(p.year, 11, 31) / 86400000;
  const head = el("div", { class: "habit-head" }, el("h2", { text: habit.title || habit.id }), el("span", { class: "muted", text: habit.id }));
  const tiles = el("div", { class: "tiles" },
    tile("Current streak", plural(habit.currentStreak, "day")),
    tile("Best streak", plural(habit.bestStreak, "day")),
    tile("Last 7 days", percent(habit.rate7)),
    tile("Last 30 days", percent(habit.rate30)),
    tile("All", percent(habit.rateAll), knownDays(habit)),
    tile("Score", percent(habit.score)),
    tile("Last done", habit.lastDone || "never"));
  const counts = el("p", { class: "counts" }, ["done", "skipped", "missed", "not-due", "unknown"].map((s) =>
    el("span", { class: "count" }, el("i", { class: `swatch s-${s}` }), `${habit.counts[s]} ${draw.STATUS_TEXT[s]}`)));
  const span = el("p", { class: "muted window", text: stats.habits[0] && stats.habits[0].days.length
    ? `Figures over ${stats.from} to ${stats.until}, as routine stats gives them.` : "No runs recorded yet." });
  const grid = draw.habitGrid(first, last, { status: (n) => ctx.status(habit, n), off: ctx.off, today: ctx.today, onOpen: ctx.open });
  const parts = [head, tiles, counts, span, el("div", { class: "grid-scroll" }, grid), draw.statusLegend()];
  // The chart spans the year's days within the figures' window, so a short history is not a sliver.
  const lastDay = ctx.data.from + (habit.days.length ? habit.days.length - 1 : 0);
  if (habit.target !== undefined) parts.push(values(habit, Math.max(first, ctx.data.from), Math.min(last, Math.max(lastDay, ctx.data.from)), ctx));
  if (habit.plannedSeconds !== undefined) {
    parts.push(el("p", { class: "detail", text: `Time: planned ${rough(habit.plannedSeconds)} · ${habit.measuredSeconds === null ? "not measured yet" : `measured ${rough(habit.measuredSeconds)} on average`}` }));
  }
  if (stats.questions.length) parts.push(questions(stats.questions));
  return el("div", { class: "days-body" }, ...parts);
}

/// A numeric habit's values in the year, and the figures `stats` gives of them.
function values(habit, first, last, ctx) {
  const points = [];
  for (let n = first; n <= last; n++) {
    const day = habit.days[n - ctx.data.from];
    if (day && day.value !== null) points.push({ n, value: day.value });
  }
  const unit = habit.unit ? ` ${habit.unit}` : "";
  const summary = habit.valuesGiven
    ? `Values: last ${hundredths(habit.lastValue)}${unit} · average ${hundredths(habit.averageValue)}${unit} · target ${hundredths(habit.target)}${unit} met ${habit.targetMet} of ${habit.valuesGiven}`
    : `Values: none given · target ${hundredths(habit.target)}${unit}`;
  return el("section", { class: "values" }, el("h3", { text: "Values" }), el("p", { class: "detail", text: summary }),
    points.length ? draw.valueChart(points, first, last, habit.target, habit.unit) : el("p", { class: "muted", text: "No value given this year." }));
}

/// Each question's answers: days chosen and their share of the days answered, over the whole
/// window, the last 30 and the last 7 days.
function questions(list) {
  const share = (count, of) => (of ? `${count} · ${percent(count / of)}` : "–");
  return el("section", { class: "questions" }, el("h3", { text: "Questions" }), ...list.map((q) => el("div", { class: "question" },
    el("p", {}, el("strong", { text: q.prompt || q.id }), el("span", { class: "muted",
      text: q.mostChosen === null ? " · not answered yet" : ` · most chosen: ${q.mostChosenAll.length > 1 ? q.mostChosenAll.slice(0, -1).join(", ") + " and " + q.mostChosenAll.at(-1) : q.mostChosen}, ${percent(q.mostChosenShare)}${q.mostChosenAll.length > 1 ? " each" : ""} of ${plural(q.answered.all, "day")} answered` })),
    el("table", { class: "answers" },
      el("thead", {}, el("tr", {}, el("th", { text: "answer" }), el("th", { text: "all" }), el("th", { text: "30 days" }), el("th", { text: "7 days" }))),
      el("tbody", {}, ...q.options.map((o) => el("tr", {}, el("th", { scope: "row", text: o.text }),
        el("td", { text: share(o.chosen.all, q.answered.all) }), el("td", { text: share(o.chosen.last30, q.answered.last30) }),
        el("td", { text: share(o.chosen.last7, q.answered.last7) }))))))));
}
