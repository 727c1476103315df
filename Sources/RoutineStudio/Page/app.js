// The studio's page: a header with the routine's name and the tabs, and four views (builder/,
// today/, run/, days/), each a module with the same small interface: `load(place)` when it is
// shown, `onHistoryChange(count)` when the history changed (from this page or a terminal, as
// the live channel announces), and `onKey(event)` for the keys pressed while it is shown (each
// of these optional: a view that has no keys of its own leaves `onKey` out). Every
// request goes through lib/api.js. The test hooks the browser tests and benchmarks read are
// all set here, on `window`.
import { api, get } from "./lib/api.js";
import { $, toast } from "./lib/dom.js";
import { Builder } from "./builder/builder.js";
import { Today } from "./today/today.js";
import { RunView } from "./run/run.js";
import { Days } from "./days/days.js";
import { DayView } from "./days/dayview.js";
import { setUpPairing } from "./pairing/desk.js";
import { setUpPhone, showUnreachable } from "./phone/phone.js";

class Studio {
  constructor() {
    api.listen((state) => this.show(state), (error, status) => this.refused(error, status));
    this.builder = new Builder();
    this.today = new Today($("today-view"));
    this.dayView = new DayView($("day-view"));
    this.runView = new RunView($("run-view"));
    this.days = new Days($("days-body"), this.dayView);
    this.views = { builder: this.builder, today: this.today, run: this.runView, days: this.days };
    this.view = "builder";
    for (const view of Object.keys(this.views)) $(`tab-${view}`).onclick = () => this.showView(view);
    document.addEventListener("keydown", (event) => this.tell("onKey", event));
  }

  /// Calls the shown view's `method` when it has one: a view's hooks are all optional.
  tell(method, argument) {
    const view = this.views[this.view];
    if (view && typeof view[method] === "function") view[method](argument);
  }

  async start() {
    // A paired phone's page (docs/phone.md): no builder, not the desk's path, Today first.
    const pairing = await get("/api/pair");
    // No answer, or the proxy's in front of a studio that does not answer (the page itself
    // then came from the phone's copy, sw.js).
    if (!pairing.reached || [502, 503, 504].includes(pairing.status)) return showUnreachable();
    this.phone = pairing.ok && pairing.answer.phone === true;
    if (this.phone) setUpPhone();
    await api.load();
    api.live((ms) => { window.studioLastRedraw = ms; }, (count) => {
      // "Your days" passes it on to the day open beside it.
      this.tell("onHistoryChange", count);
      this.showDevices();
    });
    this.showDevices();
    if (pairing.ok && pairing.answer.enabled) setUpPairing();
    // The installed page's worker, on a phone's HTTPS only (docs/phone.md): the desk's page,
    // on loopback, goes on without one.
    if (location.protocol === "https:" && "serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");
    window.addEventListener("studio-unauthorized", () =>
      toast("The studio was started again with a new token: this address no longer works. Open the address the studio printed.", "error", 0));
    // "#days/…" and the like: the first word names the view, the rest is the view's own.
    const view = location.hash.slice(1).split("/")[0];
    if (view !== "builder" && this.views[view]) this.showView(view, location.hash);
    else if (this.phone) this.showView("today");
  }

  /// Shows one view; the address keeps which (and the view's own place in it), so a reload
  /// stays there.
  showView(view, hash) {
    if (this.phone && view === "builder") view = "today";
    this.view = view;
    for (const name of Object.keys(this.views)) {
      $(`${name}-view`).hidden = name !== view;
      $(`tab-${name}`).setAttribute("aria-selected", String(name === view));
    }
    $("builder-actions").hidden = view !== "builder";
    if (view === "builder") history.replaceState(null, "", location.pathname);
    else if (!hash || !hash.startsWith(`#${view}`)) history.replaceState(null, "", `#${view}`);
    this.views[view].load(hash ? hash.slice(view.length + 2) : "");
  }

  /// The devices of the history's sync folder (docs/sync.md), read again at each change of
  /// the history, when other devices' events may have come in: "syncs as laptop with desk,
  /// trip", each device's last event in the title, and the events held for being dated ahead.
  async showDevices() {
    const { ok, answer } = await get("/api/sync");
    const line = $("devices");
    if (!ok || !answer.member) {
      line.hidden = true;
      return;
    }
    const others = answer.devices.filter((device) => !device.this).map((device) => device.name || "a device with no name");
    const unwritten = answer.unwritten > 0 ? ` · ${answer.unwritten} not written yet` : "";
    // Events dated more than a day ahead of this clock, held until it gets there: a notice.
    const held = (answer.held || []).map((sentence) => ` · ${sentence}`).join("");
    line.textContent = `syncs as ${answer.device.name} with ${others.length ? others.join(", ") : "no other device yet"}${unwritten}${held}`;
    line.title = [`folder ${answer.folder}`]
      .concat(answer.devices.map((device) => `${device.name}: last event ${device.lastEvent ? new Date(device.lastEvent).toLocaleString() : "none"}`))
      .join("\n");
    line.hidden = false;
  }

  show(state) {
    // Today, the run and your days read the routine too: a new version (an edit, a save in an
    // editor, errors fixed) reads them again, as a history change does.
    if (this.view !== "builder" && this.shownVersion !== undefined && state.version !== this.shownVersion) {
      this.tell("onHistoryChange", null);
    }
    $("status").textContent = this.news(state);
    this.shownVersion = state.version;
    $("routine-name").textContent = state.name || "(no name)";
    // A phone shows no path: it is one on another machine.
    $("routine-path").textContent = this.phone ? "" : state.path;
    $("routine-path").title = this.phone ? "" : state.path;
    document.title = this.phone ? state.name || "routine" : `${state.name || "routine"} — routine studio`;
    if (!this.phone) this.builder.show(state);
    document.body.dataset.version = state.version;
    // For Benchmarks/studio.sh: when this version was on screen, on the wall clock.
    window.studioRedrawn = { version: state.version, at: performance.timeOrigin + performance.now(), sinceLoad: performance.now() };
  }

  /// What the header says of a new version, in words: this page's edit saved (with what a
  /// delete took along), undone or redone, or the file changed elsewhere; nothing on opening.
  news(state) {
    if (this.shownVersion === undefined) return "";
    const edit = api.lastEdit && api.lastEdit.version === state.version ? api.lastEdit.op : null;
    if (edit === "undo") return "undone";
    if (edit === "redo") return "redone";
    if (edit) return state.message ? `saved: ${state.message}` : "saved";
    return "updated from the file";
  }

  refused(error, status) {
    if (status === 409) toast("The file changed in the meantime; the page shows it now. Try again.", "error");
    else toast(error.message + (error.notes && error.notes.length ? ` (${error.notes[0]})` : ""), "error");
  }
}

const studio = new Studio();
// For the browser tests: the views, to show a day or read the run held.
window.studio = studio;
studio.start().catch((error) => toast(`The studio cannot be reached: ${error.message}`, "error"));
