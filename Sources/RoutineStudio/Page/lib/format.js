// Numbers and durations as the terminal writes them, in one place for every view.

/// A number as the terminal writes it: whole, or to three decimals.
export function number(value) { return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000); }

/// Seconds as `log` writes them: "1h 2m 3s", "0s".
export function human(seconds) {
  const s = Math.round(seconds);
  const parts = [[Math.floor(s / 3600), "h"], [Math.floor(s % 3600 / 60), "m"], [s % 60, "s"]].filter(([n]) => n > 0);
  return parts.length ? parts.map(([n, u]) => n + u).join(" ") : "0s";
}

/// Seconds to the nearest minute, as a habit's page sums them up: "1h 5m", "12m", "40s".
export function rough(s) {
  return s >= 3600 ? `${Math.floor(s / 3600)}h ${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.round(s / 60)}m` : `${Math.round(s)}s`;
}

/// Seconds as a countdown shows them: m:ss, or h:mm:ss.
export function clockText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
}

/// A share from 0 to 1 as a whole percentage, "–" when there is none.
export const percent = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);

/// A value to two decimals, as `stats` gives averages: "2.5", "3.33".
export const hundredths = (v) => (Math.round(v * 100) / 100).toString();
