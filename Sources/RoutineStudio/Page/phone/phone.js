// A paired phone's page (docs/phone.md): the builder and the desk's file path hidden (editing
// stays on the desk, and the path is one on another machine), the routine's name no button,
// and a calm line saying whether the browser keeps the page's data. When the desk's studio does
// not answer, the page says so in words instead of showing anything it cannot vouch for.
import { $, el } from "../lib/dom.js";

export function setUpPhone() {
  document.body.classList.add("phone");
  const name = $("routine-name");
  name.disabled = true;
  name.removeAttribute("title");
  name.removeAttribute("aria-label");
  keepStorage();
}

/// Asks the browser to keep this site's data (`navigator.storage.persist()`), and says whether
/// it did. A browser may clear a site's data when space runs short, and Safari after seven days
/// without use; once the phone keeps entries for the desk, that is what is at stake.
async function keepStorage() {
  const note = $("storage-note");
  let kept = null;
  if (navigator.storage && navigator.storage.persist) {
    kept = (await navigator.storage.persisted().catch(() => false)) || (await navigator.storage.persist().catch(() => false));
  }
  note.dataset.persisted = kept === null ? "unknown" : String(kept);
  note.textContent = kept
    ? "This browser keeps this page's data on the phone until you remove it."
    : kept === false
      ? "This browser may clear this page's data when space runs short, or after a week without use: open it now and then."
      : "This browser does not say whether it keeps this page's data.";
  // The outbox's notice of entries that have not reached the desk for three days comes here,
  // beside this line (issue 59).
  $("phone-notices").hidden = false;
}

/// The page in place of the views when the studio cannot be reached: what happened and what
/// to do, and nothing of the routine or the history (no copy of them would be current).
export function showUnreachable() {
  document.body.dataset.unreachable = "true";
  for (const id of ["builder-actions", "pair-phone", "phone-notices"]) $(id).hidden = true;
  document.querySelector(".tabs").hidden = true;
  $("routine-name").textContent = "routine";
  $("routine-name").disabled = true;
  const views = $("views");
  views.replaceChildren(
    el("section", { id: "unreachable", class: "unreachable", "aria-labelledby": "unreachable-title" },
      el("h2", { id: "unreachable-title", text: "The desk cannot be reached" }),
      el("p", { text: "This page comes from the studio on your desk, which is not answering now: the desk may be asleep, or off this network, or the studio stopped." }),
      el("p", { text: "Nothing is shown until it answers, so that nothing shown is out of date. Start the studio on the desk (routine studio FILE --allow-host NAME), then try again." }),
      el("button", { id: "unreachable-retry", class: "primary", type: "button", text: "Try again", onclick: () => location.reload() })));
  document.title = "The desk cannot be reached · routine";
}
