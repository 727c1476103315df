// "Pair a phone" on the desk's page: shown when the studio was started with --allow-host NAME
// --pair. Each click asks the studio for a new pairing address (a code good once, for five
// minutes) and shows it as text and as the QR code the studio drew from libqrencode's modules.
import { post } from "../lib/api.js";
import { $ } from "../lib/dom.js";

const SVG = "http://www.w3.org/2000/svg";

/// Called when GET /api/pair said this page may pair a phone.
export function setUpPairing() {
  const button = $("pair-phone");
  button.hidden = false;
  button.onclick = () => showPairing();
}

async function showPairing() {
  const dialog = $("pair-dialog");
  const body = $("pair-body");
  body.replaceChildren();
  const answer = await post("/api/pair");
  if (!answer.ok) {
    const message = document.createElement("p");
    message.className = "pair-error";
    message.textContent = answer.answer.error.message;
    body.append(message);
  } else {
    const { address, qr } = answer.answer;
    if (qr) {
      const svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("viewBox", `0 0 ${qr.size} ${qr.size}`);
      svg.setAttribute("class", "pair-qr");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "QR code of the pairing address");
      const light = document.createElementNS(SVG, "rect");
      light.setAttribute("width", String(qr.size));
      light.setAttribute("height", String(qr.size));
      light.setAttribute("fill", "#fff");
      const dark = document.createElementNS(SVG, "path");
      dark.setAttribute("d", qr.path);
      dark.setAttribute("fill", "#000");
      svg.append(light, dark);
      body.append(svg);
    }
    const text = document.createElement("p");
    text.className = "pair-address";
    text.id = "pair-address";
    text.textContent = address;
    const note = document.createElement("p");
    note.className = "pair-note";
    note.textContent = "Open it on the phone within five minutes; it works once.";
    body.append(text, note);
  }
  if (!dialog.open) dialog.showModal();
}
