// The builder's geometry: fitting and zooming the view of the drawing, an arrow's path, and where
// a gather's "then" label goes. A view is `{ x, y, k }`: the drawing's origin on screen and its
// scale.

/// The view that shows a `width` × `height` drawing whole in a `w` × `h` window, centred,
/// with a margin, and neither tiny nor blown up.
export function fitView(width, height, w, h) {
  const gw = Math.max(width, 1), gh = Math.max(height, 1);
  const k = Math.min(1.4, Math.max(0.15, Math.min((w - 60) / gw, (h - 60) / gh)));
  return { k, x: (w - gw * k) / 2, y: Math.max(20, (h - gh * k) / 2) };
}

/// `view` zoomed by `factor` (within 0.1 and 3) about the window point (cx, cy), which stays put.
export function zoomView(view, factor, cx, cy) {
  const k = Math.min(3, Math.max(0.1, view.k * factor));
  const f = k / view.k;
  return { k, x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f };
}

/// An SVG path along an edge's spline (Graphviz's points: a start, then Béziers by threes),
/// ending at its arrow's tip when it has one.
export function edgePath(edge) {
  const p = edge.points;
  let d = `M${p[0][0]},${p[0][1]}`;
  for (let i = 1; i + 2 < p.length; i += 3) d += ` C${p[i][0]},${p[i][1]} ${p[i + 1][0]},${p[i + 1][1]} ${p[i + 2][0]},${p[i + 2][1]}`;
  if (edge.tip) d += ` L${edge.tip[0]},${edge.tip[1]}`;
  return d;
}

/// The "then" label's box, in the drawing's points: it fits the word at the label's size.
export const LABEL = { width: 30, height: 15 };

/// Where a gather's "then" goes: just below the arrow's start, where it leaves its card (so on
/// no card: the next rank is further down), on the side away from where the arrow heads (so
/// off its own line), a little apart from it.
export function labelBox(edge) {
  const p = edge.points, [x, y] = p[0];
  const end = edge.tip || p[p.length - 1];
  // Within the first few points the line is still near its start: it leaves straight down
  // when the arrow bends later, else it leans toward its end.
  const lean = p.length > 1 ? p[1][0] - x : 0;
  const left = lean > 2 || (Math.abs(lean) <= 2 && end[0] > x);
  return { x: left ? x - 6 - LABEL.width : x + 6, y: y + 5, width: LABEL.width, height: LABEL.height };
}
