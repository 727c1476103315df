// Keys: every action has one (the help dialog lists them).
export function installKeys(studio) {
  document.addEventListener("keydown", (e) => {
    // The builder's keys act on the builder only.
    if (studio.view !== "builder") return;
    const dialogOpen = document.getElementById("dialog").open;
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === "z" || e.key === "Z") && !typing && !dialogOpen) {
      e.preventDefault();
      studio.edit({ op: e.shiftKey ? "redo" : "undo" });
      return;
    }
    if (mod && e.key === "y" && !typing && !dialogOpen) { e.preventDefault(); studio.edit({ op: "redo" }); return; }
    if (dialogOpen || typing || mod || e.altKey) return;
    const card = e.target.closest ? e.target.closest(".card") : null;
    const id = card ? card.dataset.node : studio.canvas.selected;
    switch (e.key) {
      case "Enter": if (id) { e.preventDefault(); studio.open(id); } break;
      case "Delete": case "Backspace": if (id) { e.preventDefault(); studio.remove(id); } break;
      case "ArrowDown": case "ArrowRight": if (id) { e.preventDefault(); studio.follow(id, 1); } break;
      case "ArrowUp": case "ArrowLeft": if (id) { e.preventDefault(); studio.follow(id, -1); } break;
      case "h": case "H": e.preventDefault(); studio.add("habit"); break;
      case "q": case "Q": e.preventDefault(); studio.add("question"); break;
      case "f": case "F": studio.canvas.fit(); break;
      case "+": case "=": studio.canvas.zoomBy(1.2); break;
      case "-": case "_": studio.canvas.zoomBy(1 / 1.2); break;
      case "p": case "P": studio.togglePlay(); break;
      case "s": case "S": studio.canvas.stats.toggle(); break;
      case "?": studio.help(); break;
      case "Escape": studio.canvas.select(null); break;
      default: return;
    }
  });
  document.addEventListener("focusin", (e) => {
    const card = e.target.closest && e.target.closest(".card");
    if (card) studio.canvas.select(card.dataset.node, false);
  });
}
