// The builder's stats toggle: habits' cards filled by their completion rate and answers
// labelled with on how many days each was the day's answer, over the recorded history: what
// `routine graph --stats` draws (GET /api/graph-stats). While shown, it follows the history:
// a run or a log, in a terminal or a page, redraws it. A question card selected meanwhile
// adds its habits table, asked for then (GET /api/stats?question=ID). The legend and the table
// sit in the side panel, where they hide no card.
import { get } from "../lib/api.js";
import { $, el } from "../lib/dom.js";
import { percent } from "../lib/format.js";

/// The rows of a question's table the legend lists, as `routine stats --json` bounds them.
const QUESTION_ROWS = 50;

export class GraphStats {
  constructor(canvas) {
    this.canvas = canvas;
    this.shown = false;
    this.data = null;
    this.button = $("toggle-stats");
    if (this.button) this.button.onclick = () => this.toggle();
    this.legend = el("div", { id: "stats-legend", class: "stats-legend", role: "note", "aria-label": "What the colours and counts mean" });
    this.panel = $("stats-panel");
    this.questionBox = $("stats-question");
    this.panel.insertBefore(this.legend, this.questionBox);
    // The live channel's {"history": N}, passed on by the API client.
    window.addEventListener("studio-history", () => {
      if (!this.shown) return;
      this.load();
      if (this.question) this.loadQuestion(this.question.id);
    });
    // A question card selected by click or by key (both focus it) while the figures are shown.
    canvas.world.addEventListener("focusin", (e) => {
      const card = e.target.closest && e.target.closest(".card.question");
      if (this.shown && card && card.dataset.node !== (this.question && this.question.id)) this.loadQuestion(card.dataset.node);
    });
  }

  async toggle(shown = !this.shown) {
    this.shown = shown;
    if (this.button) this.button.setAttribute("aria-pressed", String(shown));
    this.question = null;
    if (shown) await this.load();
    else this.decorate();
  }

  /// The habits table of question `id`: only now asked for, as it can be megabytes on a
  /// routine of thousands of nodes.
  async loadQuestion(id) {
    const asked = (this.askedQuestion || 0) + 1;
    this.askedQuestion = asked;
    if (!this.question || this.question.id !== id) this.question = { id, data: null };
    const { ok, answer } = await get("/api/stats?question=" + encodeURIComponent(id));
    if (asked !== this.askedQuestion || !this.shown) return;
    this.question = { id, data: ok ? answer : { error: answer.error.message } };
    this.showQuestion(this.shown ? this.data : null);
  }

  async load() {
    const asked = (this.asked || 0) + 1;
    this.asked = asked;
    const { ok, answer } = await get("/api/graph-stats");
    const data = ok ? answer : { error: answer.error.message };
    // An older answer arriving after a newer one is not shown.
    if (asked !== this.asked) return;
    this.data = data;
    this.decorate();
  }

  /// Puts the figures on the cards drawn now (the canvas calls it after every redraw), or
  /// takes them off when the toggle is off.
  decorate() {
    const world = this.canvas.world;
    for (const old of world.querySelectorAll(".stat")) old.remove();
    for (const card of world.querySelectorAll(".card.stat-rated, .card.stat-unreached")) {
      card.classList.remove("stat-rated", "stat-unreached");
      card.style.removeProperty("--stat-fill");
    }
    const data = this.shown ? this.data : null;
    world.classList.toggle("with-stats", !!(data && !data.error));
    this.showLegend(data);
    if (!data || data.error) return;
    for (const node of data.nodes) {
      const card = this.canvas.cardOf(node.id);
      if (!card) continue;
      if (!node.reached) card.classList.add("stat-unreached");
      if (node.color) {
        card.classList.add("stat-rated");
        card.style.setProperty("--stat-fill", node.color);
      }
      if (node.percent !== undefined && node.percent !== null) {
        card.append(el("span", { class: "stat rate", title: `done on ${node.percent}% of its due days`, text: `${node.percent}%` }));
      }
      (node.chosen || []).forEach((count, option) => {
        const port = card.querySelector(`.port[data-option="${option}"]`);
        if (port) port.append(el("span", { class: "stat chosen", title: `the day's answer on ${count} day${count === 1 ? "" : "s"}`, text: ` · ${count}×` }));
      });
    }
  }

  showLegend(data) {
    this.panel.hidden = !data;
    this.showQuestion(data);
    if (!data) return;
    if (data.error) {
      this.legend.replaceChildren(el("strong", { text: "No stats: " }), data.error);
      return;
    }
    const runs = `${data.runs} run${data.runs === 1 ? "" : "s"}`;
    this.legend.replaceChildren(
      el("div", { class: "stats-title", text: `Completion rate, ${data.first} to ${data.until}, ${runs}` }),
      el("div", { class: "stats-bands" }, ...data.bands.map((band) => {
        const swatch = el("span", { class: "swatch", text: band.label });
        swatch.style.background = band.color;
        return swatch;
      })),
      el("div", { class: "stats-note", text: `${data.countNote} · faded: never reached` }));
  }

  /// The selected question's table, under the legend while the figures are shown.
  showQuestion(data) {
    this.questionBox.hidden = !data || !!data.error;
    if (this.questionBox.hidden) return;
    this.questionBox.replaceChildren(this.questionTable());
  }

  /// The selected question's habits table, or how to get one.
  questionTable() {
    const question = this.question && this.question.data;
    if (!question) return el("div", { class: "stats-note", text: this.question ? "Reading the question's figures…" : "Select a question for the habits after it" });
    if (question.error) return el("div", { class: "stats-question" }, el("strong", { text: "No figures: " }), question.error);
    const title = el("div", { class: "stats-title", text: `After “${question.prompt || question.id}”: each habit on the days of each answer, against the other days` });
    // The cards show titles; the figures name habits by id.
    const titles = new Map(((this.canvas.state && this.canvas.state.nodes) || []).map((n) => [n.id, n.title]));
    if (!question.habits.length) return el("section", { class: "stats-question" }, title, el("div", { class: "stats-note", text: "No habit comes after it." }));
    const side = (t) => `${percent(t.rate)} (${t.done} of ${t.due})`;
    const rows = question.habits.slice(0, QUESTION_ROWS).map((habit) => el("tr", {}, el("th", { scope: "row", text: titles.get(habit.id) || habit.id, title: habit.id }),
      ...habit.byAnswer.map((b) => el("td", { text: `${side(b.with)} · others ${side(b.others)}` }))));
    const more = question.habits.length - rows.length;
    return el("section", { class: "stats-question", "aria-label": `Habits after ${question.id}` }, title,
      el("div", { class: "stats-table-scroll" }, el("table", { class: "stats-habits" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "habit" }), ...question.options.map((o) => el("th", { scope: "col", text: `after “${o.text}”` })))),
        el("tbody", {}, ...rows))),
      more > 0 ? el("div", { class: "stats-note", text: `and ${more} more: routine stats --question ${question.id} lists them all` }) : null);
  }
}
