// The builder's keys: every action has one (the help dialog lists them).
import { $ } from "../lib/dom.js";

/// One key pressed while the builder is shown.
export function builderKey(builder, e) {
  const dialogOpen = $("dialog").open;
  const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.key === "z" || e.key === "Z") && !typing && !dialogOpen) {
    e.preventDefault();
    builder.edit({ op: e.shiftKey ? "redo" : "undo" });
    return;
  }
  if (mod && e.key === "y" && !typing && !dialogOpen) { e.preventDefault(); builder.edit({ op: "redo" }); return; }
  const card = e.target.closest ? e.target.closest(".card") : null;
  // Alt and an arrow move the focused card by hand; Shift makes the step larger.
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (e.altKey && !mod && !typing && !dialogOpen && card && step) {
    e.preventDefault();
    const size = e.shiftKey ? 60 : 12;
    builder.nudge(card.dataset.node, step[0] * size, step[1] * size);
    return;
  }
  if (dialogOpen || typing || mod || e.altKey) return;
  // Enter, Delete and the arrows act on the card that has focus, or the one selected when
  // focus is on no control: Enter on a toolbar button presses that button.
  const control = !card && e.target.closest && e.target.closest("button, a, summary, [role=button]");
  const id = card ? card.dataset.node : control ? null : builder.canvas.selected;
  switch (e.key) {
    case "Enter":
      if (id && builder.connecting && card) { e.preventDefault(); builder.finishConnect(id); } else if (id) { e.preventDefault(); builder.open(id); }
      break;
    case "c": case "C": if (card) { e.preventDefault(); builder.connectKey(id); } break;
    case "t": case "T": e.preventDefault(); builder.tidy(); break;
    case "Delete": case "Backspace": if (id) { e.preventDefault(); builder.remove(id); } break;
    case "ArrowDown": case "ArrowRight": if (id) { e.preventDefault(); builder.follow(id, 1); } break;
    case "ArrowUp": case "ArrowLeft": if (id) { e.preventDefault(); builder.follow(id, -1); } break;
    case "h": case "H": e.preventDefault(); builder.add("habit"); break;
    case "q": case "Q": e.preventDefault(); builder.add("question"); break;
    case "f": case "F": builder.canvas.fit(); break;
    case "+": case "=": builder.canvas.zoomBy(1.2); break;
    case "-": case "_": builder.canvas.zoomBy(1 / 1.2); break;
    case "p": case "P": builder.togglePlay(); break;
    case "s": case "S": builder.canvas.stats.toggle(); break;
    case "?": builder.help(); break;
    case "Escape": if (!builder.cancelConnect()) builder.canvas.select(null); break;
    default: return;
  }
}

/// A card that gets focus is selected.
export function focusFollowsCards(builder) {
  document.addEventListener("focusin", (e) => {
    const card = e.target.closest && e.target.closest(".card");
    if (card) builder.canvas.select(card.dataset.node, false);
  });
}
