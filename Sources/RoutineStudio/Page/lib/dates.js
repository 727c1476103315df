// Dates for every view. A day is a day number (days since 1970-01-01, UTC) or its ISO text,
// so that nothing depends on the computer's time zone; "today" is the computer's own day.

export const DAY = 86400000;
export const dayNumber = (text) => Date.UTC(+text.slice(0, 4), +text.slice(5, 7) - 1, +text.slice(8, 10)) / DAY;
export const isoDate = (n) => new Date(n * DAY).toISOString().slice(0, 10);
/// 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday).
export const weekday = (n) => (((n + 3) % 7) + 7) % 7;
export const monday = (n) => n - weekday(n);
export const todayNumber = () => {
  const now = new Date();
  return Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / DAY;
};

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
export const WEEKDAYS = WEEKDAY_NAMES.map((name) => name.slice(0, 3));
export const monthName = (m) => MONTHS[m];
/// "Tue 3 Mar 2026".
export const longDate = (n) => {
  const d = new Date(n * DAY);
  return `${WEEKDAYS[weekday(n)]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()].slice(0, 3)} ${d.getUTCFullYear()}`;
};
/// "Tuesday" for "2026-03-03".
export const weekdayName = (date) => WEEKDAY_NAMES[weekday(dayNumber(date))];
/// "Tue" for "2026-03-03".
export const weekdayShort = (date) => WEEKDAYS[weekday(dayNumber(date))];

/// "Monday 23 November 2026", and "(today)" or "(yesterday)" when it is one of those on this
/// computer; "Today" for anything that is not a date.
export function dayHeading(date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date || "")) return "Today";
  const n = dayNumber(date), d = new Date(n * DAY);
  const today = todayNumber();
  const near = n === today ? " (today)" : n === today - 1 ? " (yesterday)" : "";
  return `${weekdayName(date)} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}${near}`;
}

/// HH:MM of a recorded UTC time in the offset it was recorded in ("+01:00").
export function clockAt(utc, offset) {
  const m = /^([+-])(\d\d):(\d\d)$/.exec(offset || "+00:00");
  const shift = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date(Date.parse(utc) + shift * 60000);
  return String(local.getUTCHours()).padStart(2, "0") + ":" + String(local.getUTCMinutes()).padStart(2, "0");
}
