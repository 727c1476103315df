// The play panel: the routine answered in the page with the server's run engine
// (POST /api/play), recording nothing, on today or a chosen day (as `run --date`). After every
// edit the answers given so far are played again, and the panel stops where they no longer apply.
// The canvas marks the cards walked so far and the one asked now; a play may start at a card.
import { post } from "../lib/api.js";
import { el } from "../lib/dom.js";

export class Play {
  /// `hooks.highlight(walked, current)` marks the cards; `hooks.selected()` is the card selected.
  constructor(body, hooks = {}) {
    this.body = body;
    this.hooks = hooks;
    this.answers = [];
    this.open = false;
    this.date = "";
    this.from = null;
  }

  async refresh() {
    if (!this.open) {
      this.hooks.highlight?.([], null);
      return;
    }
    const body = { answers: this.answers, ...(this.date ? { date: this.date } : {}), ...(this.from ? { from: this.from.id } : {}) };
    const { ok, answer: result } = await post("/api/play", body);
    if (!ok && this.from) {
      // The card it started from is gone: the play starts at the routine's start again.
      this.from = null;
      return this.refresh();
    }
    if (!ok) {
      this.hooks.highlight?.([], null);
      this.body.replaceChildren(el("p", { class: "play-note", text: result && result.error ? result.error.message : "the routine cannot be played now" }));
      return;
    }
    // Answers that no longer apply after an edit are dropped.
    this.answers = this.answers.slice(0, result.used);
    this.show(result);
  }

  /// A day for the play: weekday branches can be tried without waiting for the day.
  dayPicker(result) {
    const picker = el("input", { type: "date", id: "play-date", value: this.date || result.date, "aria-label": "Play as on this day" });
    picker.onchange = () => { this.date = picker.value; this.answers = []; this.refresh(); };
    return el("label", { class: "play-date" }, `As on ${result.weekday} `, picker);
  }

  answer(text) { this.answers.push(text); this.refresh(); }

  show(result) {
    const steps = result.steps.map((s) => el("div", { class: "play-step done", text: `${s.title} — ${s.outcome}` }));
    this.hooks.highlight?.(result.steps.map((s) => s.id), result.prompt ? result.prompt.id : null);
    const parts = [this.dayPicker(result)];
    if (this.from) parts.push(el("div", { class: "play-note", text: `From ${this.from.title}` }));
    parts.push(...steps);
    if (result.prompt) {
      const p = result.prompt;
      parts.push(el("div", { class: "play-prompt", text: p.title }));
      if (p.note) parts.push(el("div", { class: "play-note", text: p.note }));
      const choices = el("div", { class: "play-choices" });
      if (typeof p.target === "number") {
        // A numeric habit asks for the amount done, the target offered, as a run asks.
        const amount = el("input", { type: "number", id: "play-amount", min: 0, step: "any", value: String(p.target), "aria-label": `Amount done of ${p.title}${p.unit ? " in " + p.unit : ""}` });
        const form = el("form", { class: "play-amount" }, amount, p.unit ? el("span", { text: p.unit }) : null,
          el("button", { type: "submit", "data-answer": "amount" }, "Done"));
        form.onsubmit = (event) => { event.preventDefault(); if (amount.value.trim() !== "") this.answer("v" + amount.value.trim()); };
        choices.append(form, el("button", { "data-answer": "s", onclick: () => this.answer("s") }, "Skip"));
      } else {
        for (const choice of p.choices) {
          choices.append(el("button", { "data-answer": choice.answer, onclick: () => this.answer(choice.answer) }, choice.label));
        }
      }
      parts.push(choices);
    } else {
      parts.push(el("div", { class: "play-prompt", text: result.finished ? "The routine is complete." : "Nothing to run." }));
    }
    const restart = el("button", { onclick: () => { this.answers = []; this.from = null; this.refresh(); } }, "Start again");
    const selected = this.hooks.selected?.();
    const fromHere = selected && el("button", { id: "play-from", onclick: () => { this.answers = []; this.from = { id: selected.id, title: selected.title }; this.refresh(); } }, `Play from ${selected.title}`);
    const back = el("button", { disabled: !this.answers.length, onclick: () => { this.answers.pop(); this.refresh(); } }, "Back");
    parts.push(el("div", { class: "buttons" }, back, restart, fromHere || null));
    this.body.replaceChildren(...parts);
  }
}
