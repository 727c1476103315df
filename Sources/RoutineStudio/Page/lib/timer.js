// The timer of a timed habit in the Today view, as `routine run`'s countdown: it counts the
// duration down; Space pauses and resumes, Enter marks the habit done (early, or at zero),
// Escape stops it. Its own time, pauses left out, on the page's monotonic clock, is the time
// the habit took.
import { el } from "./dom.js";
import { clockText } from "./format.js";

export class Timer {
  /// A timer of `duration` seconds for habit `node`, running from now; it redraws its clock
  /// inside `root` (the view) a few times a second.
  constructor(node, duration, root) {
    this.node = node;
    this.duration = duration;
    this.root = root;
    this.elapsed = 0;
    this.since = performance.now();
    this.ticking = setInterval(() => this.tick(), 200);
  }

  stop() { clearInterval(this.ticking); }

  get paused() { return this.since === null; }

  /// Milliseconds run so far, pauses left out.
  run() { return this.elapsed + (this.paused ? 0 : performance.now() - this.since); }

  /// The time taken, in seconds to the millisecond, within what a log takes (a day).
  seconds() { return Math.min(86400, Math.max(0.001, Math.round(this.run()) / 1000)); }

  left() { return this.duration - this.run() / 1000; }

  pause() {
    if (this.paused) this.since = performance.now();
    else { this.elapsed += performance.now() - this.since; this.since = null; }
  }

  tick() {
    const box = this.root.querySelector(".timer");
    if (!box) return;
    const left = this.left();
    box.querySelector(".clock").textContent = clockText(Math.max(0, Math.ceil(left)));
    if (left <= 0 && !box.classList.contains("over")) {
      box.classList.add("over");
      chime();
      box.querySelector(".said").textContent = "Time is up: Enter marks it done.";
      box.querySelector("[data-action=timer-done]").textContent = "Done";
    }
  }

  /// The timer as a card shows it, with its buttons and keys; `actions` has pause, finish, stop.
  box(title, actions) {
    const left = this.left();
    const paused = this.paused;
    const box = el("div", {
      class: "timer" + (paused ? " paused" : "") + (left <= 0 ? " over" : ""), tabindex: 0, role: "group",
      "aria-label": `Timer for ${title}: Space pauses, Enter marks it done, Escape stops`, "aria-keyshortcuts": "Space Enter Escape",
    },
    el("span", { class: "clock", role: "timer", "aria-live": "off", text: clockText(Math.max(0, Math.ceil(left))) }),
    el("button", { "data-action": "timer-pause", "aria-pressed": String(paused), onclick: actions.pause, text: paused ? "Resume" : "Pause" }),
    el("button", { class: "primary", "data-action": "timer-done", onclick: actions.finish, text: left <= 0 ? "Done" : "Finish early" }),
    el("button", { "data-action": "timer-stop", onclick: actions.stop, text: "Stop" }),
    el("span", { class: "said", role: "status", text: paused ? "Paused." : left <= 0 ? "Time is up: Enter marks it done." : "" }));
    box.addEventListener("keydown", (event) => {
      if (event.target !== box) return;
      const action = { " ": actions.pause, Enter: actions.finish, Escape: actions.stop }[event.key];
      if (action) { event.preventDefault(); action(); }
    });
    return box;
  }
}

/// A short tone at zero, as the terminal's countdown rings the bell (silent where the browser
/// allows no sound).
function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
    tone.onended = () => audio.close();
  } catch (error) { /* no audio: the card still says time is up */ }
}
