// The cases of the page's pure helpers: each is [name, function, arguments, expected]. The
// results are listed on the page and left in `window.suiteResults` for test_page.py.
import * as dates from "../../Sources/RoutineStudio/Page/lib/dates.js";
import * as format from "../../Sources/RoutineStudio/Page/lib/format.js";
import * as layout from "../../Sources/RoutineStudio/Page/lib/layout.js";

const local = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const now = new Date();
const today = local(now);
const yesterday = local(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
const edge = { points: [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]] };

const cases = [
  ["number: a whole number", format.number, [2], "2"],
  ["number: a half", format.number, [2.5], "2.5"],
  ["number: to three decimals", format.number, [1 / 3], "0.333"],
  ["human: hours, minutes, seconds", format.human, [3723], "1h 2m 3s"],
  ["human: nothing is 0s", format.human, [0], "0s"],
  ["human: rounded to the second", format.human, [59.6], "1m"],
  ["human: no zero parts", format.human, [3600 + 5], "1h 5s"],
  ["rough: an hour and minutes", format.rough, [3900], "1h 5m"],
  ["rough: minutes", format.rough, [720], "12m"],
  ["rough: seconds", format.rough, [40], "40s"],
  ["clockText: m:ss", format.clockText, [65], "1:05"],
  ["clockText: h:mm:ss", format.clockText, [3725], "1:02:05"],
  ["clockText: zero", format.clockText, [0], "0:00"],
  ["percent: none", format.percent, [null], "–"],
  ["percent: halves round up", format.percent, [0.125], "13%"],
  ["percent: all", format.percent, [1], "100%"],
  ["hundredths: two decimals", format.hundredths, [10 / 3], "3.33"],
  ["hundredths: whole", format.hundredths, [4], "4"],
  ["dayNumber: the epoch", dates.dayNumber, ["1970-01-01"], 0],
  ["dayNumber: a leap day", dates.dayNumber, ["2024-02-29"], 19782],
  ["isoDate: back from a day number", dates.isoDate, [19782], "2024-02-29"],
  ["weekday: 1970-01-01 was a Thursday", dates.weekday, [0], 3],
  ["weekday: before the epoch", dates.weekday, [-4], 6],
  ["monday: of a Sunday", (d) => dates.isoDate(dates.monday(dates.dayNumber(d))), ["2026-11-29"], "2026-11-23"],
  ["monday: of a Monday", (d) => dates.isoDate(dates.monday(dates.dayNumber(d))), ["2026-11-23"], "2026-11-23"],
  ["longDate", (d) => dates.longDate(dates.dayNumber(d)), ["2026-03-03"], "Tue 3 Mar 2026"],
  ["weekdayName", dates.weekdayName, ["2026-11-26"], "Thursday"],
  ["weekdayShort", dates.weekdayShort, ["2026-11-29"], "Sun"],
  ["monthName", dates.monthName, [11], "December"],
  ["dayHeading: a day long ago", dates.dayHeading, ["2020-02-29"], "Saturday 29 February 2020"],
  ["dayHeading: not a date", dates.dayHeading, [""], "Today"],
  ["dayHeading: today", (d) => dates.dayHeading(d).endsWith(" (today)"), [today], true],
  ["dayHeading: yesterday", (d) => dates.dayHeading(d).endsWith(" (yesterday)"), [yesterday], true],
  ["clockAt: in the offset recorded", dates.clockAt, ["2026-11-26T23:30:00Z", "+01:00"], "00:30"],
  ["clockAt: a negative offset", dates.clockAt, ["2026-11-26T01:15:00Z", "-05:30"], "19:45"],
  ["clockAt: no offset is UTC", dates.clockAt, ["2026-11-26T07:05:00Z", null], "07:05"],
  ["fitView: a small drawing is not blown up", layout.fitView, [100, 50, 560, 360], { k: 1.4, x: 210, y: 145 }],
  ["fitView: a large drawing shrinks to the window", layout.fitView, [1000, 200, 560, 360], { k: 0.5, x: 30, y: 130 }],
  ["fitView: never smaller than 0.15", (w) => layout.fitView(w, 10, 560, 360).k, [100000], 0.15],
  ["zoomView: about a point that stays put", layout.zoomView, [{ x: 0, y: 0, k: 1 }, 2, 100, 100], { k: 2, x: -100, y: -100 }],
  ["zoomView: no closer than 3", (f) => layout.zoomView({ x: 0, y: 0, k: 2.5 }, f, 0, 0).k, [2], 3],
  ["zoomView: no further than 0.1", (f) => layout.zoomView({ x: 0, y: 0, k: 0.2 }, f, 0, 0).k, [0.1], 0.1],
  ["edgePath: Béziers by threes", layout.edgePath, [edge], "M0,0 C1,1 2,2 3,3 C4,4 5,5 6,6"],
  ["labelBox: left of a line that leans right", layout.labelBox, [{ points: [[100, 50], [110, 60], [150, 90], [160, 100]] }], { x: 64, y: 55, width: 30, height: 15 }],
  ["labelBox: right of a line that leans left", layout.labelBox, [{ points: [[100, 50], [90, 60], [50, 90], [40, 100]] }], { x: 106, y: 55, width: 30, height: 15 }],
  ["labelBox: straight down, away from where it ends", layout.labelBox, [{ points: [[100, 50], [100, 60], [100, 90], [100, 100]], tip: [60, 200] }], { x: 106, y: 55, width: 30, height: 15 }],
  ["edgePath: to the arrow's tip", layout.edgePath, [{ ...edge, tip: [7, 8] }], "M0,0 C1,1 2,2 3,3 C4,4 5,5 6,6 L7,8"],
];

const results = cases.map(([name, run, args, expected]) => {
  let got;
  try { got = run(...args); } catch (error) { got = `threw ${error}`; }
  const passed = JSON.stringify(got) === JSON.stringify(expected);
  return { name, passed, expected: JSON.stringify(expected), got: JSON.stringify(got) };
});
const failed = results.filter((r) => !r.passed);
const list = document.getElementById("results");
for (const r of [...failed, ...results.filter((r) => r.passed)]) {
  const li = document.createElement("li");
  li.textContent = r.passed ? `ok: ${r.name}` : `FAILED: ${r.name}: expected ${r.expected}, got ${r.got}`;
  list.append(li);
}
document.getElementById("summary").textContent = `${results.length - failed.length} of ${results.length} passed`;
window.suiteResults = { total: results.length, failed };
