// Drawing for "Your days": a habit's year of statuses as weeks in columns, the routine's days
// shaded by the share of due habits done, a numeric habit's values, and the legends.
// Dates are day numbers (lib/dates.js).
import { el, svg } from "../lib/dom.js";
import { hundredths, percent } from "../lib/format.js";
import { DAY, WEEKDAYS, isoDate, longDate, monday, monthName } from "../lib/dates.js";

/// Status words as `routine stats` writes them, and how a person reads them.
export const STATUS_TEXT = { done: "done", skipped: "skipped", missed: "missed", "not-due": "not due", unknown: "unknown" };

/// The calendar's level of a share, as `routine stats` shades its calendar (HeatMap.level):
/// null when nothing was due, 0 when none was done, 4 when all were.
export function level(share) {
  if (share === null || share === undefined) return null;
  if (share >= 1) return 4;
  if (share <= 0) return 0;
  return share < 1 / 3 ? 1 : share < 2 / 3 ? 2 : 3;
}

/// A day that opens the day view on click or Enter. A calendar is one Tab stop: its days take
/// focus from the arrow keys, and Days gives one of them the Tab stop (`tabindex` 0).
function dayCell(n, attributes, onOpen, ...children) {
  const cell = el("div", { role: "button", tabindex: -1, "data-date": isoDate(n), ...attributes }, ...children);
  cell.addEventListener("click", () => onOpen(isoDate(n)));
  cell.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen(isoDate(n));
    }
  });
  return cell;
}

/// One habit's days from `first` to `last` (day numbers) as weeks in columns, Monday on top.
/// `status(n)` is the stats status or null outside the statistics' window; `off(n)` a day off.
export function habitGrid(first, last, { status, off, today, onOpen }) {
  const start = monday(first);
  const weeks = Math.floor((monday(last) - start) / 7) + 1;
  const months = el("div", { class: "grid-months", "aria-hidden": "true" });
  const cells = [];
  for (let w = 0; w < weeks; w++) {
    const firstOfMonth = [...Array(7).keys()].map((k) => start + 7 * w + k).find((n) => n >= first && n <= last && new Date(n * DAY).getUTCDate() === 1);
    const label = w === 0 ? new Date(Math.max(first, start) * DAY).getUTCMonth() : firstOfMonth !== undefined ? new Date(firstOfMonth * DAY).getUTCMonth() : null;
    months.append(el("span", { text: label === null ? "" : monthName(label).slice(0, 3) }));
    for (let k = 0; k < 7; k++) {
      const n = start + 7 * w + k;
      if (n < first || n > last) {
        cells.push(el("div", { class: "pad", "aria-hidden": "true" }));
        continue;
      }
      const word = status(n);
      const isOff = off(n);
      const said = word ? STATUS_TEXT[word] : n > today ? "to come" : "no record";
      const classes = ["cell", word ? `s-${word}` : "s-none", isOff ? "off" : "", n === today ? "is-today" : ""].join(" ").trim();
      cells.push(dayCell(n, {
        class: classes, "data-status": word || "none", "data-off": isOff ? "true" : null,
        "aria-label": `${longDate(n)}: ${isOff ? `day off, ${said}` : said}`, title: `${isoDate(n)} · ${isOff ? "day off · " : ""}${said}`,
      }, onOpen));
    }
  }
  const labels = el("div", { class: "grid-weekdays", "aria-hidden": "true" }, ...WEEKDAYS.map((d, k) => el("span", { text: k % 2 === 0 ? d : "" })));
  return el("div", { class: "habit-grid" }, months, el("div", { class: "grid-body" }, labels,
    el("div", { class: "grid-cells", role: "group", "aria-label": "Calendar of the habit, one column a week" }, ...cells)));
}

/// The statuses' legend: the same meanings and colours as `routine stats`' calendar.
export function statusLegend() {
  const items = ["done", "skipped", "missed", "unknown", "not-due"].map((s) => el("span", { class: "key" }, el("i", { class: `swatch s-${s}` }), STATUS_TEXT[s]));
  items.push(el("span", { class: "key" }, el("i", { class: "swatch s-not-due off" }), "day off"));
  items.push(el("span", { class: "key" }, el("i", { class: "swatch s-none" }), "no record"));
  return el("div", { class: "legend", role: "group", "aria-label": "Legend" }, ...items);
}

/// The shares' legend: no due habits, then none to all of them done.
export function shareLegend() {
  const steps = [["l-none", "nothing due"], ["l0", "none done"], ["l1", "under a third"], ["l2", "under two thirds"], ["l3", "most"], ["l4", "all done"]];
  return el("div", { class: "legend", role: "group", "aria-label": "Legend" },
    ...steps.map(([c, text]) => el("span", { class: "key" }, el("i", { class: `swatch ${c}` }), text)));
}

/// A routine day shaded by its share: `tally` is stats' `{done, due, share}` or undefined
/// outside the window. `big` shows the figures inside the cell.
export function shareCell(n, tally, { today, onOpen, off, label }) {
  const share = tally ? tally.share : null;
  const lv = level(share);
  const said = !tally ? (n > today ? "to come" : "no record") : share === null ? "nothing due" : `${tally.done} of ${tally.due} due habits done (${percent(share)})`;
  const classes = ["day", lv === null ? "l-none" : `l${lv}`, n === today ? "is-today" : "", off ? "off" : ""].join(" ").trim();
  return dayCell(n, {
    class: classes, "data-share": share === null ? "" : String(share),
    "aria-label": `${longDate(n)}: ${off ? "day off, " : ""}${said}`, title: `${isoDate(n)} · ${said}`,
  }, onOpen, ...(label ? label(said) : []));
}

/// One month as a calendar: weekday columns, a row per week.
export function monthGrid(year, month, cellOf, { small } = {}) {
  const first = Date.UTC(year, month, 1) / DAY;
  const last = Date.UTC(year, month + 1, 0) / DAY;
  const cells = WEEKDAYS.map((d) => el("div", { class: "weekday", "aria-hidden": "true", text: small ? d[0] : d }));
  for (let n = monday(first); n <= last; n++) cells.push(n < first ? el("div", { class: "pad", "aria-hidden": "true" }) : cellOf(n));
  return el("div", { class: `month-grid${small ? " small" : ""}`, role: "group", "aria-label": `${monthName(month)} ${year}` }, ...cells);
}

/// A numeric habit's values from `first` to `last` as points joined by a line, with the target
/// as a dashed line; the scale runs from 0 to the larger of the highest value and the target.
export function valueChart(points, first, last, target, unit) {
  const width = 720, height = 140, left = 40, right = 8, top = 10, bottom = 22;
  const top_ = Math.max(target || 0, ...points.map((p) => p.value), 1) * 1.1;
  const x = (n) => left + ((n - first) / Math.max(1, last - first)) * (width - left - right);
  const y = (v) => top + (1 - v / top_) * (height - top - bottom);
  const chart = svg("svg", { class: "value-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `Values from ${isoDate(first)} to ${isoDate(last)}: ${points.length} given, target ${target}${unit ? ` ${unit}` : ""}` });
  const line = (x1, y1, x2, y2, cls) => chart.append(svg("line", { x1, y1, x2, y2, class: cls }));
  const text = (tx, ty, words, anchor) => {
    const t = svg("text", { x: tx, y: ty, "text-anchor": anchor });
    t.textContent = words;
    chart.append(t);
  };
  line(left, height - bottom, width - right, height - bottom, "axis");
  text(left - 4, y(0) + 4, "0", "end");
  text(left - 4, y(top_ / 1.1) + 4, hundredths(top_ / 1.1), "end");
  text(left, height - 6, isoDate(first), "start");
  text(width - right, height - 6, isoDate(last), "end");
  if (points.length) {
    chart.append(svg("polyline", { class: "values", points: points.map((p) => `${x(p.n).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ") }));
    if (points.length <= 120) for (const p of points) chart.append(svg("circle", { cx: x(p.n).toFixed(1), cy: y(p.value).toFixed(1), r: 2.5, class: p.value >= target ? "met" : "short" }));
  }
  line(left, y(target), width - right, y(target), "target");
  text(width - right, y(target) - 4, `target ${hundredths(target)}${unit ? ` ${unit}` : ""}`, "end");
  return chart;
}

