// The "Your days" view: per habit the calendar, streaks, rates and values; the whole routine
// by week, month and year (docs/studio.md, "Your days"). Every figure is `GET /api/stats`'s,
// the JSON of `routine stats --json`, fetched once per history change: switching habit, year
// or month redraws from it. Every text is a text node.
import { get } from "../lib/api.js";
import * as dates from "../lib/dates.js";
import { el } from "../lib/dom.js";
import * as draw from "./draw.js";
import { habitPage } from "./habit.js";

const MODES = [["habit", "Habit"], ["week", "Week"], ["month", "Month"], ["year", "Year"]];

async function getJSON(url) {
  const { ok, answer } = await get(url);
  if (!ok) throw new Error(answer.error ? answer.error.message : "no answer");
  return answer;
}

export class Days {
  /// `dayView` shows one day when a day is chosen: `dayView.show(date)`.
  constructor(root, dayView) {
    this.root = root;
    this.dayView = dayView;
    this.data = null;
    this.place = null;
    this.fetching = null;
    // The day that has the calendar's one Tab stop, kept over a redraw.
    this.focusedDate = null;
    root.addEventListener("focusin", (event) => {
      if (event.target.dataset && event.target.dataset.date) this.rove(event.target);
    });
  }

  /// Gives `cell` (else the first day shown) the calendar's one Tab stop.
  rove(cell) {
    const target = cell || this.root.querySelector("[data-date]");
    if (!target) return;
    for (const old of this.root.querySelectorAll('[data-date][tabindex="0"]')) if (old !== target) old.tabIndex = -1;
    target.tabIndex = 0;
    this.focusedDate = target.dataset.date;
  }

  /// Arrow keys move between days: in a habit's calendar a column is a week, elsewhere a row is.
  onKey(event) {
    const cell = this.root.contains(event.target) && event.target.closest ? event.target.closest("[data-date]") : null;
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const down = cell.closest(".grid-cells") ? 1 : 7;
    const across = down === 1 ? 7 : 1;
    const step = { ArrowUp: -down, ArrowDown: down, ArrowLeft: -across, ArrowRight: across }[event.key];
    if (!step) return;
    const target = this.root.querySelector(`[data-date="${dates.isoDate(dates.dayNumber(cell.dataset.date) + step)}"]`);
    if (target) {
      event.preventDefault();
      target.focus();
    }
  }

  /// Shown: `place` is what follows "#days/" in the address. What was fetched before is drawn
  /// at once, then the figures are read again (the history may have changed while hidden).
  async load(place) {
    if (place) this.place = this.parse(place);
    if (this.data) this.draw();
    await this.refresh();
  }

  /// A change to the history: the figures are read again, then the same place is redrawn.
  async onHistoryChange() {
    if (this.dayView.onHistoryChange) this.dayView.onHistoryChange();
    await this.refresh();
  }

  /// Reads the figures and redraws; asking while a read is under way makes one more read after it.
  refresh() {
    if (this.fetching) {
      this.again = true;
      return this.fetching;
    }
    this.fetching = (async () => {
      try {
        do {
          this.again = false;
          await this.fetch();
        } while (this.again);
        this.draw();
      } catch (error) {
        this.data = null;
        this.root.replaceChildren(el("p", { class: "days-error", role: "alert", text: `Your days cannot be shown: ${error.message}` }));
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }

  async fetch() {
    const started = performance.now();
    const [stats, off] = await Promise.all([getJSON("/api/stats"), getJSON("/api/days-off")]);
    this.data = {
      stats, from: dates.dayNumber(stats.from), until: dates.dayNumber(stats.until),
      habits: new Map(stats.habits.map((h) => [h.id, h])),
      off: new Set(off.daysOff.map((d) => dates.dayNumber(d.date))),
      fetchedIn: performance.now() - started,
    };
  }

  /// An address's place: habit/ID/YEAR, week/YYYY-MM-DD, month/YYYY-MM, year/YYYY.
  parse(text) {
    const [mode, a, b] = text.split("/").map(decodeURIComponent);
    const year = (y) => (/^\d{4}$/.test(y || "") ? +y : null);
    if (mode === "habit") return { mode, id: a || null, year: year(b) };
    if (mode === "week" && /^\d{4}-\d\d-\d\d$/.test(a || "")) return { mode, start: dates.monday(dates.dayNumber(a)) };
    if (mode === "month" && /^\d{4}-\d\d$/.test(a || "")) return { mode, year: +a.slice(0, 4), month: Math.min(11, Math.max(0, +a.slice(5) - 1)) };
    if (mode === "year") return { mode, year: year(a) };
    return null;
  }

  /// The place with every blank filled: the first habit, this year, this week or month.
  complete(place) {
    const today = dates.todayNumber();
    const now = new Date(today * 86400000);
    const p = { ...(place || { mode: "habit" }) };
    if (p.mode === "habit" && !this.data.habits.has(p.id)) p.id = this.data.stats.habits.length ? this.data.stats.habits[0].id : null;
    if (p.mode === "week" && p.start === undefined) p.start = dates.monday(today);
    if (p.mode === "month" && p.month === undefined) p.month = now.getUTCMonth();
    if (!p.year) p.year = now.getUTCFullYear();
    return p;
  }

  placeText(p) {
    if (p.mode === "habit") return `habit/${encodeURIComponent(p.id || "")}/${p.year}`;
    if (p.mode === "week") return `week/${dates.isoDate(p.start)}`;
    if (p.mode === "month") return `month/${p.year}-${String(p.month + 1).padStart(2, "0")}`;
    return `year/${p.year}`;
  }

  /// Goes to a place: the address keeps it, and the view redraws from the figures it has.
  go(place) {
    this.place = place;
    this.draw();
  }

  /// Moves the shown span by `step` (-1 or 1): a year, a week or a month.
  step(step) {
    const p = { ...this.place };
    if (p.mode === "week") p.start += 7 * step;
    else if (p.mode === "month") {
      const m = p.year * 12 + p.month + step;
      p.year = Math.floor(m / 12);
      p.month = m - p.year * 12;
    } else p.year += step;
    this.go(p);
  }

  draw() {
    const started = performance.now();
    const p = this.complete(this.place);
    this.place = p;
    const text = this.placeText(p);
    if (location.hash !== `#days/${text}`) history.replaceState(null, "", `#days/${text}`);
    const ctx = {
      data: this.data, today: dates.todayNumber(), open: (date) => this.dayView.show(date),
      tally: (n) => this.data.stats.days[n - this.data.from],
      status: (habit, n) => { const d = habit.days[n - this.data.from]; return d ? d.status : null; },
      off: (n) => this.data.off.has(n),
    };
    let body;
    if (p.mode === "habit") body = habitPage(p, ctx);
    else if (p.mode === "week") body = this.week(p, ctx);
    else if (p.mode === "month") body = this.month(p, ctx);
    else body = this.year(p, ctx);
    const scroll = this.root.parentElement ? this.root.parentElement.scrollTop : 0;
    const calendar = this.root.querySelector(".grid-scroll");
    const across = calendar && this.drawnPlace === text ? calendar.scrollLeft : null;
    this.root.replaceChildren(this.toolbar(p), body);
    if (this.root.parentElement) this.root.parentElement.scrollTop = scroll;
    this.rove(this.root.querySelector(`[data-date="${this.focusedDate}"]`) || this.root.querySelector("[data-date].is-today"));
    this.scrollCalendar(across);
    this.drawnPlace = text;
    // For Benchmarks/studio_days.py: what is on screen and how long drawing it took.
    window.studioDaysDrawn = { place: text, ms: performance.now() - started, sinceLoad: performance.now(), fetchMs: this.data.fetchedIn };
  }

  /// A habit's calendar wider than the window scrolls inside itself: a redraw of the same
  /// place keeps where it was (`across`), a new place shows the day with the Tab stop (today).
  scrollCalendar(across) {
    const calendar = this.root.querySelector(".grid-scroll");
    if (!calendar || calendar.scrollWidth <= calendar.clientWidth) return;
    if (across !== null) { calendar.scrollLeft = across; return; }
    const day = calendar.querySelector('[data-date][tabindex="0"]');
    if (!day) return;
    const box = calendar.getBoundingClientRect(), cell = day.getBoundingClientRect();
    calendar.scrollLeft += cell.left - box.left - (box.width - cell.width) / 2;
  }

  toolbar(p) {
    const modes = el("div", { class: "modes", role: "group", "aria-label": "What to show" }, ...MODES.map(([mode, label]) =>
      el("button", { "aria-pressed": String(p.mode === mode), "data-mode": mode, text: label, onclick: () => this.go({ mode, year: p.year, id: p.id }) })));
    const bar = el("div", { class: "days-toolbar" }, modes);
    if (p.mode === "habit") {
      const picker = el("select", { id: "days-habit", "aria-label": "Habit",
        onchange: (e) => this.go({ ...p, id: e.target.value }) },
      ...this.data.stats.habits.map((h) => el("option", { value: h.id, text: h.title && h.title !== h.id ? `${h.title} (${h.id})` : h.id })));
      picker.value = p.id || "";
      bar.append(picker);
    }
    const label = p.mode === "week" ? `${dates.isoDate(p.start)} – ${dates.isoDate(p.start + 6)}`
      : p.mode === "month" ? `${dates.monthName(p.month)} ${p.year}` : String(p.year);
    const unit = p.mode === "week" ? "week" : p.mode === "month" ? "month" : "year";
    bar.append(el("div", { class: "nav" },
      el("button", { id: "days-prev", "aria-label": `Previous ${unit}`, text: "‹", onclick: () => this.step(-1) }),
      el("span", { id: "days-label", class: "span-label", "aria-live": "polite", text: label }),
      el("button", { id: "days-next", "aria-label": `Next ${unit}`, text: "›", onclick: () => this.step(1) }),
      el("button", { id: "days-today", text: "Today", onclick: () => this.go({ mode: p.mode, id: p.id }) })));
    return bar;
  }

  /// A week: a tile per day with its share, and each habit's status on each day.
  week(p, ctx) {
    const days = [...Array(7).keys()].map((k) => p.start + k);
    const tiles = days.map((n) => draw.shareCell(n, ctx.tally(n), {
      today: ctx.today, onOpen: ctx.open, off: ctx.off(n),
      label: (said) => [el("strong", { text: `${dates.WEEKDAYS[dates.weekday(n)]} ${new Date(n * dates.DAY).getUTCDate()}` }), el("span", { text: said })],
    }));
    const head = el("tr", {}, el("th", { text: "Habit" }), ...days.map((n) => el("th", { text: dates.WEEKDAYS[dates.weekday(n)] })));
    const rows = this.data.stats.habits.map((h) => el("tr", {}, el("th", { scope: "row", text: h.title, title: h.id }), ...days.map((n) => {
      const s = ctx.status(h, n);
      return el("td", {}, el("i", { class: `dot s-${s || "none"}`, title: s ? draw.STATUS_TEXT[s] : "no record", role: "img", "aria-label": `${h.title}: ${s ? draw.STATUS_TEXT[s] : "no record"}` }));
    })));
    return el("div", { class: "days-body" },
      el("div", { class: "week-tiles", role: "group", "aria-label": "The week, day by day" }, ...tiles), draw.shareLegend(),
      el("div", { class: "table-scroll" }, el("table", { class: "week-habits" }, el("thead", {}, head), el("tbody", {}, ...rows))),
      draw.statusLegend());
  }

  month(p, ctx) {
    const cell = (n) => draw.shareCell(n, ctx.tally(n), {
      today: ctx.today, onOpen: ctx.open, off: ctx.off(n),
      label: () => {
        const t = ctx.tally(n);
        return [el("span", { class: "num", text: new Date(n * dates.DAY).getUTCDate() }),
          el("span", { class: "pct", text: t && t.share !== null ? `${t.done}/${t.due}` : "" })];
      },
    });
    return el("div", { class: "days-body" }, draw.monthGrid(p.year, p.month, cell), draw.shareLegend());
  }

  year(p, ctx) {
    const months = [...Array(12).keys()].map((m) => el("section", { class: "year-month" },
      el("h3", { text: dates.monthName(m) }),
      draw.monthGrid(p.year, m, (n) => draw.shareCell(n, ctx.tally(n), { today: ctx.today, onOpen: ctx.open, off: ctx.off(n) }), { small: true })));
    return el("div", { class: "days-body" }, el("div", { class: "year-months" }, ...months), draw.shareLegend());
  }
}
