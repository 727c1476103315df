// The play panel: the routine answered in the page with the server's run engine
// (POST /api/play), recording nothing. After every edit the answers given so far are played
// again, and the panel stops where they no longer apply.
import { el } from "./dom.js";

export class Play {
  constructor(body, api) {
    this.body = body;
    this.api = api;
    this.answers = [];
    this.open = false;
  }

  async refresh() {
    if (!this.open) return;
    const response = await fetch("/api/play", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ answers: this.answers }) });
    const result = await response.json().catch(() => null);
    if (!response.ok || !result) {
      this.body.replaceChildren(el("p", { class: "play-note", text: result && result.error ? result.error.message : "the routine cannot be played now" }));
      return;
    }
    // Answers that no longer apply after an edit are dropped.
    this.answers = this.answers.slice(0, result.used);
    this.show(result);
  }

  show(result) {
    const steps = result.steps.map((s) => el("div", { class: "play-step done", text: `${s.title} — ${s.outcome}` }));
    const parts = [...steps];
    if (result.prompt) {
      const p = result.prompt;
      parts.push(el("div", { class: "play-prompt", text: p.title }));
      if (p.note) parts.push(el("div", { class: "play-note", text: p.note }));
      const choices = el("div", { class: "play-choices" });
      for (const choice of p.choices) {
        choices.append(el("button", { "data-answer": choice.answer, onclick: () => { this.answers.push(choice.answer); this.refresh(); } }, choice.label));
      }
      parts.push(choices);
    } else {
      parts.push(el("div", { class: "play-prompt", text: result.finished ? "The routine is complete." : "Nothing to run." }));
    }
    const restart = el("button", { onclick: () => { this.answers = []; this.refresh(); } }, "Start again");
    const back = el("button", { disabled: !this.answers.length, onclick: () => { this.answers.pop(); this.refresh(); } }, "Back");
    parts.push(el("div", { class: "buttons" }, back, restart));
    this.body.replaceChildren(...parts);
  }
}
