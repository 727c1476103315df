/// The element with id `id`: the page's fixed parts are named in index.html, and found by id.
export const $ = (id) => document.getElementById(id);

// Builds elements from data. Texts from the routine only ever become text nodes: nothing here
// parses a string as HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

let toastTimer = null;

/// A short message at the bottom of the window; `lasts` 0 keeps it until the next one.
export function toast(message, kind = "info", lasts = kind === "error" ? 7000 : 3500) {
  const box = $("toast");
  box.textContent = message;
  box.className = "toast " + kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  if (lasts) toastTimer = setTimeout(() => { box.hidden = true; }, lasts);
}
