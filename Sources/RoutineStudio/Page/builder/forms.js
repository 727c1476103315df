// Dialogs: a card's fields, a new habit or question, and a delete with the arrows that go.
import { $, el } from "../lib/dom.js";

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const dialog = () => $("dialog");

function show(title, body, buttons) {
  const d = dialog();
  d.replaceChildren(el("h3", { id: "dialog-title", text: title }), ...body, el("div", { class: "buttons" }, ...buttons));
  if (!d.open) d.showModal();
  const first = d.querySelector("input, select, button.primary");
  if (first) first.focus();
}

export function close() { if (dialog().open) dialog().close(); }

function field(label, input) { return [el("label", { for: input.id, text: label }), input]; }

function input(id, value, attributes = {}) { return el("input", { id, value: value ?? "", autocomplete: "off", ...attributes }); }

/// Whether a target is a goal to reach or a limit not to pass ("at most 2 cups").
function boundSelect(atMost) {
  return el("select", { id: "f-bound", "aria-label": "Target kind" },
    el("option", { value: "goal", text: "at least", selected: !atMost }), el("option", { value: "limit", text: "at most", selected: !!atMost }));
}

function form(submit) {
  return (e) => { e.preventDefault(); submit(); };
}

/// The fields of a card, sent as the ops that changed.
export function editNode(node, state, api) {
  const id = input("f-id", node.id, { "aria-label": "ID", pattern: "[A-Za-z_][A-Za-z0-9_\\-]*" });
  const title = input("f-title", node.title, { "aria-label": node.kind === "habit" ? "Title" : "Question" });
  const note = input("f-note", node.note, { "aria-label": "Note" });
  const body = [...field("ID", id), ...field(node.kind === "habit" ? "Title" : "Question", title)];
  let duration, target, unit, perWeek, days, bound;
  if (node.kind === "habit") {
    duration = input("f-duration", node.durationText, { placeholder: "10m, 1h30m", "aria-label": "Duration" });
    target = input("f-target", node.target, { inputmode: "decimal", placeholder: "8", "aria-label": "Target" });
    unit = input("f-unit", node.unit, { placeholder: "glasses", "aria-label": "Unit" });
    bound = boundSelect(node.atMost);
    perWeek = input("f-per-week", node.perWeek, { type: "number", min: 1, max: 7, placeholder: "—", "aria-label": "Times per week" });
    days = DAYS.map((d) => el("input", { type: "checkbox", id: `f-day-${d}`, value: d, checked: !node.days || expand(node.days).includes(d) }));
    body.push(el("div", { class: "row" }, el("div", {}, ...field("Duration", duration)), el("div", {}, el("label", { for: "f-target", text: "Target" }), el("div", { class: "bound" }, bound, target)), el("div", {}, ...field("Unit", unit))));
    body.push(el("label", { text: "Days" }), el("div", { class: "days", role: "group", "aria-label": "Days" }, ...days.map((box) => el("label", {}, box, box.value))));
    body.push(...field("Times per week (a quota)", perWeek));
  }
  body.push(...field("Note", note));
  if (node.kind === "question") body.push(answersEditor(node, api));
  body.push(arrowsEditor(node, state, api));
  const problem = el("p", { class: "problem", role: "alert", hidden: true });
  body.push(problem);
  // One Save is one edit: the server writes all of it or none, and one Undo takes it back.
  const save = async () => {
    const ops = [];
    if (id.value !== node.id) ops.push({ op: "rename", id: node.id, newId: id.value });
    const current = id.value;
    if (title.value !== node.title) ops.push({ op: "setTitle", id: current, title: title.value });
    const changes = {};
    const text = (box, old) => { const v = box.value.trim(); return v === (old ?? "") ? undefined : (v === "" ? null : v); };
    if (node.kind === "habit") {
      const d = text(duration, node.durationText); if (d !== undefined) changes.duration = d;
      const t = text(target, node.target === null ? "" : String(node.target)); if (t !== undefined) changes.target = t;
      const u = text(unit, node.unit); if (u !== undefined) changes.unit = u;
      if ((bound.value === "limit") !== !!node.atMost && target.value.trim() !== "") changes.atMost = bound.value === "limit";
      const p = text(perWeek, node.perWeek === null ? "" : String(node.perWeek)); if (p !== undefined) changes.perWeek = p === null ? null : Number(p);
      const chosen = days.filter((b) => b.checked).map((b) => b.value);
      const before = node.days ? expand(node.days) : DAYS;
      if (chosen.join() !== before.join()) changes.days = chosen.length === 7 || chosen.length === 0 ? null : chosen;
    }
    const n = text(note, node.note); if (n !== undefined) changes.note = n;
    if (Object.keys(changes).length) ops.push({ op: "setAttributes", id: current, ...changes });
    if (!ops.length) { close(); return; }
    problem.hidden = true;
    const sent = ops.length === 1 ? ops[0] : { op: "together", ops };
    const refused = (error) => { problem.textContent = "Not saved: " + error.message; problem.hidden = false; };
    if (await api.edit(sent, refused)) { close(); if (api.saved) api.saved(current); }
  };
  show(node.kind === "habit" ? "Habit" : "Question", [el("form", { id: "node-form", onsubmit: form(save) }, ...body)],
    [el("button", { class: "danger", onclick: () => { close(); confirmDelete(node, state, api); }, text: "Delete…" }),
     el("button", { onclick: close, text: "Cancel" }),
     el("button", { class: "primary", type: "submit", form: "node-form", text: "Save" })]);
}

function expand(days) {
  const out = new Set();
  for (const d of days) {
    if (d === "weekdays") ["mon", "tue", "wed", "thu", "fri"].forEach((x) => out.add(x));
    else if (d === "weekends") ["sat", "sun"].forEach((x) => out.add(x));
    else out.add(d);
  }
  return DAYS.filter((d) => out.has(d));
}

function answersEditor(node, api) {
  const list = el("ul", { class: "list", "aria-label": "Answers" });
  node.options.forEach((option, k) => {
    list.append(el("li", {},
      el("span", { text: option.text }),
      el("button", { type: "button", title: "Move up", "aria-label": `Move ${option.text} up`, disabled: k === 0, onclick: () => api.edit({ op: "moveOption", id: node.id, option: k, to: k - 1 }).then(close) }, "↑"),
      el("button", { type: "button", title: "Move down", "aria-label": `Move ${option.text} down`, disabled: k === node.options.length - 1, onclick: () => api.edit({ op: "moveOption", id: node.id, option: k, to: k + 1 }).then(close) }, "↓"),
      el("button", { type: "button", class: "danger", title: "Remove", "aria-label": `Remove ${option.text}`, disabled: node.options.length === 1, onclick: () => api.edit({ op: "removeOption", id: node.id, option: k }).then(close) }, "×")));
  });
  const added = input("f-new-answer", "", { placeholder: "A new answer", "aria-label": "New answer" });
  const add = el("button", { type: "button", onclick: () => added.value.trim() && api.edit({ op: "addOption", id: node.id, text: added.value.trim() }).then(close) }, "Add");
  return el("div", {}, el("label", { text: "Answers" }), list, el("div", { class: "row" }, added, el("div", { class: "grow-0" }, add)));
}

/// Every arrow from the card, each removable, and a way to add one without a mouse.
function arrowsEditor(node, state, api) {
  const list = el("ul", { class: "list", "aria-label": "Arrows" });
  const sources = node.kind === "habit" ? [[null, "then"]] : [...node.options.map((o) => [o.index, `"${o.text}"`]), [null, "then (after any answer)"]];
  // A gather is drawn once from each place a branch ends; it is one arrow of the question.
  const own = state.edges.filter((e) => e.from === node.id);
  for (const edge of own.filter((e, k) => own.findIndex((o) => o.kind === e.kind && o.option === e.option && o.to === e.to) === k)) {
    const label = edge.option === null ? (node.kind === "habit" ? "→" : "then →") : `"${node.options[edge.option].text}" →`;
    list.append(el("li", {}, el("span", { text: `${label} ${edge.to}` }),
      el("button", { type: "button", class: "danger", "aria-label": `Remove the arrow ${label} ${edge.to}`, onclick: () => api.edit({ op: "disconnect", from: node.id, option: edge.option, to: edge.to }).then(close) }, "×")));
  }
  const from = el("select", { id: "f-from", "aria-label": "From" }, ...sources.map(([k, text]) => el("option", { value: k === null ? "" : k, text })));
  const to = el("select", { id: "f-to", "aria-label": "To" }, ...state.nodes.filter((n) => n.id !== node.id).map((n) => el("option", { value: n.id, text: `${n.id} — ${n.title}` })), el("option", { value: "end", text: "end (finish the routine)" }));
  const connect = el("button", { type: "button", onclick: () => api.edit({ op: "connect", from: node.id, option: from.value === "" ? null : Number(from.value), to: to.value }).then((ok) => ok && close()) }, "Connect");
  return el("div", {}, el("label", { text: "Arrows" }), list, el("div", { class: "row" }, from, to, connect));
}

/// A new habit or question, after the selected card when there is one, with every attribute
/// the card's own dialog has; a question's answers one field each, so an answer may hold a comma.
export function addNode(kind, after, api) {
  const habit = kind === "habit";
  const title = input("f-title", "", { required: true, "aria-label": habit ? "Title" : "Question", placeholder: habit ? "Drink a glass of water" : "How are you feeling?" });
  const id = input("f-id", "", { placeholder: "made from the title", "aria-label": "ID (optional)" });
  const note = input("f-note", "", { "aria-label": "Note" });
  const body = [...field(habit ? "Title" : "Question", title), ...field("ID (optional)", id)];
  let duration, target, unit, perWeek, days, answers, bound;
  if (habit) {
    duration = input("f-duration", "", { placeholder: "10m, 1h30m", "aria-label": "Duration" });
    target = input("f-target", "", { inputmode: "decimal", placeholder: "8", "aria-label": "Target" });
    unit = input("f-unit", "", { placeholder: "glasses", "aria-label": "Unit" });
    bound = boundSelect(false);
    perWeek = input("f-per-week", "", { type: "number", min: 1, max: 7, placeholder: "—", "aria-label": "Times per week" });
    days = DAYS.map((d) => el("input", { type: "checkbox", id: `f-day-${d}`, value: d, checked: true }));
    body.push(el("div", { class: "row" }, el("div", {}, ...field("Duration", duration)), el("div", {}, el("label", { for: "f-target", text: "Target" }), el("div", { class: "bound" }, bound, target)), el("div", {}, ...field("Unit", unit))));
    body.push(el("label", { text: "Days" }), el("div", { class: "days", role: "group", "aria-label": "Days" }, ...days.map((box) => el("label", {}, box, box.value))));
    body.push(...field("Times per week (a quota)", perWeek));
  } else {
    answers = el("ol", { class: "answer-fields", "aria-label": "Answers" });
    const addAnswer = (value) => {
      const k = answers.children.length + 1;
      const box = input(`f-answer-${k}`, value, { class: "answer", placeholder: `Answer ${k}`, "aria-label": `Answer ${k}` });
      answers.append(el("li", {}, box));
      return box;
    };
    addAnswer("Yes");
    addAnswer("No");
    body.push(el("label", { text: "Answers (one each)" }), answers,
      el("button", { type: "button", "data-action": "add-answer", onclick: () => addAnswer("").focus(), text: "Another answer" }));
  }
  body.push(...field("Note", note));
  if (after) body.push(el("p", { class: "hint", text: `Declared after '${after}' in the file.` }));
  const problem = el("p", { class: "problem", role: "alert", hidden: true });
  body.push(problem);
  const save = async () => {
    if (!title.value.trim()) return;
    const op = habit
      ? { op: "addHabit", title: title.value.trim(), id: id.value.trim() || null, after }
      : { op: "addQuestion", text: title.value.trim(), id: id.value.trim() || null, after,
          options: [...answers.querySelectorAll("input.answer")].map((box) => box.value.trim()).filter(Boolean) };
    if (!habit && !op.options.length) op.options = ["Yes", "No"];
    const given = (box) => box.value.trim() || undefined;
    if (habit) {
      op.duration = given(duration);
      op.target = given(target);
      op.unit = given(unit);
      if (op.target !== undefined && bound.value === "limit") op.atMost = true;
      if (given(perWeek)) op.perWeek = Number(perWeek.value);
      const chosen = days.filter((b) => b.checked).map((b) => b.value);
      if (chosen.length && chosen.length < 7) op.days = chosen;
    }
    op.note = given(note);
    problem.hidden = true;
    const refused = (error) => { problem.textContent = "Not added: " + error.message; problem.hidden = false; };
    const answer = await api.edit(op, refused);
    if (!answer) return;
    close();
    if (api.added) api.added(answer);
  };
  show(habit ? "New habit" : "New question", [el("form", { id: "add-form", onsubmit: form(save) }, ...body)],
    [el("button", { onclick: close, text: "Cancel" }), el("button", { class: "primary", type: "submit", form: "add-form", text: "Add" })]);
}

/// The routine's name, as its `routine` line says it.
export function renameRoutine(state, api) {
  const name = input("f-name", state.name || "", { required: true, "aria-label": "The routine's name" });
  const save = async () => {
    if (!name.value.trim()) return;
    if (await api.edit({ op: "setName", name: name.value.trim() })) close();
  };
  show("Routine", [el("form", { id: "name-form", onsubmit: form(save) }, ...field("Name", name))],
    [el("button", { onclick: close, text: "Cancel" }), el("button", { class: "primary", type: "submit", form: "name-form", text: "Save" })]);
}

/// Asks before a delete, listing the arrows that go with the card.
export function confirmDelete(node, state, api) {
  const into = state.edges.filter((e) => e.to === node.id);
  const going = into.filter((e, k) => into.findIndex((o) => o.kind === e.kind && o.from === e.from && o.option === e.option) === k).map((e) => {
    if (e.kind === "start") return "start → " + node.id;
    const from = state.nodes.find((n) => n.id === e.from);
    if (e.kind === "gather") return `${e.from} then → ${node.id}`;
    return e.option === null ? `${e.from} → ${node.id}` : `${e.from} "${from.options[e.option].text}" → ${node.id}`;
  });
  const body = [el("p", { text: `Delete '${node.id}' (${node.title})?` })];
  if (going.length) body.push(el("p", { class: "hint", text: "These arrows go too:" }), el("ul", { class: "list" }, ...going.map((g) => el("li", { text: g }))));
  show("Delete", body, [el("button", { onclick: close, text: "Cancel" }),
    el("button", {
      class: "primary", text: "Delete",
      // `deleted` runs once the dialog is closed, so that the focus it moves stays moved.
      onclick: async () => { const answer = await api.edit({ op: "delete", id: node.id }); close(); if (answer && api.deleted) api.deleted(); },
    })]);
}

export function showHelp() {
  const keys = [["Tab / Shift+Tab", "next / previous card, in reading order"], ["↓ →", "follow an arrow out of the card"], ["↑ ←", "go back along an arrow into the card"],
    ["Enter", "edit the card (its fields, answers and arrows)"], ["Delete, Backspace", "delete the card"], ["H / Q", "add a habit / a question"],
    ["C, then Enter", "connect: C on a card (again for its next answer, and after the last for 'then'), then Enter on the card it leads to"], ["Alt+arrows", "move the card by hand (Shift: further)"],
    ["T", "tidy: lay every card out afresh"],
    ["Ctrl+Z / Ctrl+Shift+Z", "undo / redo"], ["F, +, −", "fit, zoom in, zoom out"], ["P", "the play panel"], ["S", "stats: completion rates and answers chosen"], ["Esc", "close a dialog"]];
  show("Keys", [el("table", { class: "keys" }, ...keys.map(([k, v]) => el("tr", {}, el("td", {}, el("kbd", { text: k })), el("td", { text: v }))))],
    [el("button", { class: "primary", onclick: close, text: "Close" })]);
}
