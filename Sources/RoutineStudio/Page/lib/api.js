// The studio's API (docs/studio.md), the one way the page reaches the server: `call` (and
// `get`, `post`) for every JSON request a view makes, and `api`, the routine's state, its
// edits and the live channel.
import { $ } from "./dom.js";

/// What a JSON request came to: `reached` is false when the studio did not answer at all (it
/// stopped, or is restarting); otherwise `status`, `ok` and the decoded `answer`, which for a
/// refusal without an error member holds `{ error: { message } }` with the status text.
export async function call(method, path, body) {
  const options = { method, cache: "no-store" };
  if (body !== undefined) {
    options.headers = { "Content-Type": "application/json" };
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options).catch(() => null);
  if (!response) return { reached: false, ok: false, status: 0, answer: { error: { message: "the studio cannot be reached" } } };
  let answer = await response.json().catch(() => null);
  if (!response.ok && !(answer && answer.error)) answer = { ...answer, error: { message: response.statusText } };
  return { reached: true, ok: response.ok, status: response.status, answer };
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);

/// Calls `away` whenever the live channel is lost (the studio stopped or restarting): what a
/// view shows may then be out of date until the channel is back and the view reads it again.
export function onLiveLost(view, away) {
  const source = api.source;
  if (!source || view.watching === source) return;
  view.watching = source;
  source.addEventListener("error", away);
}

class Api {
  constructor() {
    this.state = null;
    this.onState = () => {};
    this.onError = () => {};
    this.busy = Promise.resolve();
  }

  /// `onState` hears each new state; `onError(error, status)` each refused edit.
  listen(onState, onError) {
    this.onState = onState;
    this.onError = onError;
  }

  async load() {
    // When each step of bringing a new state ended, on the page's clock: Benchmarks/studio.py
    // reads them to tell the network, the parsing and the drawing apart.
    const timing = { asked: performance.now() };
    const response = await fetch("/api/routine", { cache: "no-store" });
    if (!response.ok) throw new Error(await response.text());
    const text = await response.text();
    timing.fetched = performance.now();
    const state = JSON.parse(text);
    timing.parsed = performance.now();
    this.show(state);
    timing.drawn = performance.now();
    window.studioLoadTiming = { version: state.version, ...timing };
  }

  show(state) {
    // The same version again (the live channel opening) would only redraw what is there.
    if (this.state && state.version <= this.state.version) return;
    this.state = state;
    this.onState(state);
  }

  /// Sends one op; edits go one after another, each on the version the last one left.
  /// `refused`, when given, hears a refusal instead of the page's toast (a dialog shows it).
  edit(op, refused) {
    this.editing = (this.editing || 0) + 1;
    const run = async () => {
      const { ok, status, answer } = await post("/api/edit", { version: this.state.version, ...op });
      if (ok) {
        // Which op brought this version, so the header can say "saved" or "undone".
        this.lastEdit = { version: answer.version, op: op.op };
        this.show(answer);
        return answer;
      }
      if (status === 409 && answer.state) this.show(answer.state);
      const error = answer.error || { message: "the edit was refused" };
      if (refused && status !== 409) refused(error);
      else this.onError(error, status);
      return null;
    };
    const next = this.busy.then(run, run).finally(() => {
      this.editing -= 1;
      // A version announced meanwhile that the edit's answer did not bring.
      if (!this.editing && this.announced > this.state.version) this.load().catch(() => {});
    });
    this.busy = next.catch(() => null);
    return next;
  }

  /// Listens for new versions; reloads the state on each, and after a lost connection.
  /// `onHistory` hears of changes to the history (a log, or a run or log in a terminal).
  live(onTiming, onHistory) {
    const source = new EventSource("/api/live");
    source.onmessage = async (event) => {
      const { version, history } = JSON.parse(event.data);
      if (history !== undefined) {
        if (onHistory) onHistory(history);
        window.dispatchEvent(new CustomEvent("studio-history", { detail: history }));
        return;
      }
      this.announced = version;
      // An edit under way answers with its own state: asking for it too would only fetch and
      // parse the same state twice. What comes after is loaded when the edits are done.
      if (this.editing) return;
      if (!this.state || version !== this.state.version) {
        const started = performance.now();
        await this.load();
        if (onTiming) onTiming(performance.now() - started);
      }
    };
    source.onerror = () => {
      $("status").textContent = "reconnecting…";
      // EventSource retries by itself, but gives up for good on an answer that is not a
      // stream: a studio restarted with another token answers 401. Ask why, and say so, or
      // listen again a little later.
      if (source.readyState !== EventSource.CLOSED) return;
      setTimeout(async () => {
        const answer = await fetch("/api/routine", { cache: "no-store" }).catch(() => null);
        if (answer && answer.status === 401) {
          $("status").textContent = "token changed";
          document.body.dataset.unauthorized = "true";
          window.dispatchEvent(new CustomEvent("studio-unauthorized"));
          return;
        }
        this.live(onTiming, onHistory);
      }, 1000);
    };
    source.onopen = () => {
      if ($("status").textContent === "reconnecting…") $("status").textContent = "connected again";
      this.load().catch(() => {});
      if (onHistory) onHistory(null);
    };
    this.source = source;
  }
}

/// The page's one connection to the studio.
export const api = new Api();
