// The interactive tutorial, /tutorial/<game>: a first game against the computer, step by step.
// Nothing is played on the server: static/tutorials/<game>.json holds real engine states,
// recorded by scripts/build_tutorials.py (the view and legal actions of the learner's side at
// each moment, the events since its last move, the move to make and the words that explain it),
// drawn with the same table renderers as a real room. Only the expected move goes on.
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { pick, sideName, t, tn } from "../i18n.js";
import { bobTerm, loadCatalogue, ninthCode } from "../catalogue.js";
import { GAMES, gameName } from "../games.js";
import { bobEventText, renderBob } from "../tables/bob.js";
import { ninthEventText, renderNinth } from "../tables/ninth.js";

const tutorials = new Map();

function loadTutorial(game) {
  if (!tutorials.has(game)) {
    tutorials.set(game, fetch(`/static/tutorials/${game}.json`).then((response) => {
      if (!response.ok) throw new Error(`tutorial ${game}: ${response.status}`);
      return response.json();
    }));
  }
  return tutorials.get(game);
}

/** The same action, whatever the order of its keys. */
function sameAction(a, b) {
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** The side an event was made by, as far as the event tells (as the room reads it). */
function actorOf(kind, event) {
  if (event.side === "home" || event.side === "away") return event.side;
  if (kind === "bottom-of-the-9th") {
    if (["pitch_roll", "relief", "bench"].includes(event.type)) return "away";
    if (event.type === "swing_roll") return "home";
  }
  return null;
}

/** The dice and the run race the table shows after ``events`` (the room keeps them alike). */
function noteEvent(kind, shown, event, fresh) {
  if (kind === "base-on-board") {
    if (event.type === "roll" && event.die === "pitch") { delete shown.dice.bat; delete shown.dice.hit; }
    if (event.type === "roll") shown.dice[event.die] = { face: event.face, fresh };
    return;
  }
  if (event.type === "pitch_roll") shown.dice = { control: { face: event.control, fresh }, pitch: { face: event.pitch, fresh } };
  if (event.type === "swing_roll") {
    shown.dice.swing = { face: event.swing, fresh, words: event.crush ? "" : event.result ?? "" };
    if (event.crush) shown.dice.crush = { face: event.crush, fresh, words: event.result ?? "" };
  }
  if (event.type === "race_start") shown.race = { ...event, rolls: { home: [], away: [] } };
  if (event.type === "race_roll" && shown.race) shown.race.rolls[event.side] = [...(shown.race.rolls[event.side] || []), event.face];
}

export function tutorialIndexPage(app) {
  app.append(h("h1", {}, t("tut.index_title")),
    h("ul", { class: "rules-list", id: "tutorial-list" }, GAMES.map((game) => h("li", { class: "card", "data-game": game },
      h("h2", {}, h("a", { href: `/tutorial/${game}`, "data-link": true }, t("tut.title", { game: gameName(game) }))),
      h("p", {}, t(`rules.blurb.${game}`))))));
  return null;
}

export function tutorialPage(app, game) {
  if (!GAMES.includes(game)) { app.append(h("p", {}, t("err.not_found"))); return null; }
  let lesson = null;
  let cat = null;
  let at = 0;          // the step shown
  let reached = 0;     // the furthest step the learner has come to
  let note = null;
  let focusNext = false;

  const title = h("h1", { id: "tutorial-title" });
  const role = h("p", { class: "role", id: "tutorial-role" });
  const tableBox = h("div", { id: "table", class: "tutorial", "aria-busy": "true" }, t("common.loading"));
  const happened = h("section", { class: "card pbp-box", "aria-labelledby": "tut-happened-title" },
    h("h2", { id: "tut-happened-title" }, t("tut.happened")), h("ol", { class: "pbp", id: "tutorial-pbp" }));
  app.append(title, role, h("div", { class: "room-layout" }, h("div", {}, tableBox), happened));

  const who = (s) => sideName(s);
  const kind = () => lesson?.kind ?? game;

  function eventText(event) {
    return kind() === "base-on-board" ? bobEventText(event, cat, who) : ninthEventText(event, cat, who);
  }

  /** A value put into an explanation: a code with its words, else the plain value. */
  function sayValue(name, value) {
    if (kind() === "base-on-board") {
      if (name === "card") return h("span", { class: "tut-code" }, bobTerm(cat, value, "card", { named: true }));
      if (name === "face") return h("span", { class: "tut-code" }, bobTerm(cat, value, "pitch"));
    } else if (name === "pitch") {
      // The face and its short words ("C corner"): a particle after it follows the words, as
      // read, not the tip's hidden rule text.
      const words = pick(cat?.pitch_faces?.[value]).split(":")[0];
      return h("span", { class: "tut-code named" }, ninthCode(cat, value, "pitch_faces"), words ? ` ${words}` : "");
    }
    return String(value);
  }

  function sayBox(step, last) {
    const vars = Object.fromEntries(Object.entries(step.vars || {}).map(([k, v]) => [k, sayValue(k, v)]));
    const lines = step.say.map((key, i) => h("p", { "data-say": key, class: i === step.say.length - 1 && !last ? "tut-do" : undefined }, tn(key, vars)));
    const controls = h("div", { class: "row tut-controls", "data-key": "tut-controls" },
      h("button", { type: "button", class: "small secondary", id: "tut-back", disabled: at === 0 || undefined, onclick: () => go(at - 1) }, `← ${t("tut.back")}`),
      h("button", { type: "button", class: "small secondary", id: "tut-next", disabled: at >= reached || undefined,
        title: at >= reached ? t("tut.do_it") : undefined, onclick: () => go(at + 1) }, `${t("tut.next")} →`),
      h("button", { type: "button", class: "small secondary", id: "tut-restart", onclick: () => { reached = 0; go(0); } }, t("tut.restart")));
    const done = last ? h("div", { class: "tut-done", "data-testid": "tutorial-done" },
      h("h2", {}, t("tut.done")),
      h("p", {}, t("tut.what_next")),
      h("div", { class: "row" },
        h("a", { class: "button", href: "/", "data-link": true, id: "tut-play" }, t("tut.play_computer")),
        h("a", { class: "button secondary", href: `/rules/${game}`, "data-link": true, id: "tut-rules" }, t("tut.read_rules")))) : null;
    return h("div", { class: "tut-say", id: "tutorial-say", "data-step": at, tabindex: "-1" },
      h("p", { class: "tut-progress hint", id: "tutorial-progress" }, t("tut.step", { n: at + 1, total: lesson.steps.length })),
      h("div", { class: "tut-words", "aria-live": "polite" }, lines),
      done,
      at < reached && !last ? h("p", { class: "hint" }, t("tut.reviewing")) : null,
      controls);
  }

  function draw() {
    if (!lesson || !cat) return;
    const step = lesson.steps[at];
    const last = at === lesson.steps.length - 1;
    title.textContent = t("tut.title", { game: gameName(game) });
    role.textContent = t("tut.you_are", { side: sideName(lesson.side) });
    document.title = `${title.textContent} · ${t("brand")}`;
    // The dice and the race as they stand at this step: every event so far, this step's fresh.
    const shown = { dice: {}, race: null };
    lesson.steps.slice(0, at + 1).forEach((s, i) => s.events.forEach((e) => noteEvent(kind(), shown, e, i === at)));
    const theirs = step.events.filter((e) => { const by = actorOf(kind(), e); return by && by !== lesson.side; })
      .map((e) => eventText(e)).filter((text) => text !== null);
    const model = {
      view: step.view, legal: step.legal, header: { deadlines: {} }, seq: at,
      side: lesson.side, cat, busy: false, teams: {}, dice: shown.dice, race: shown.race, who,
      lastOther: theirs.length ? { seq: at, text: theirs[theirs.length - 1] } : null,
    };
    const drawn = kind() === "base-on-board" ? renderBob(model) : renderNinth(model);
    const expected = [...drawn.querySelectorAll("button[data-act]")];
    for (const button of expected) {
      if (sameAction(JSON.parse(button.dataset.act), step.expect)) {
        button.classList.add("expected");
        button.dataset.expected = "true";
        button.append(h("span", { class: "sr-only" }, ` ${t("tut.this_one")}`));
      } else {
        button.setAttribute("aria-disabled", "true");
      }
    }
    const bar = drawn.querySelector(".prompt");
    bar.prepend(sayBox(step, last));
    if (note) bar.querySelector("[data-toast-sink]")?.append(h("span", { class: "note info" }, note));
    tableBox.setAttribute("aria-busy", "false");
    clear(tableBox, drawn);
    const list = happened.querySelector("ol");
    clear(list, step.events.map((e) => eventText(e)).filter((text) => text !== null).reverse().map((text) => h("li", {}, text)));
    happened.hidden = !list.childElementCount;
    watchBar();
    const target = tableBox.querySelector("button.expected") ?? tableBox.querySelector("#tut-play");
    target?.scrollIntoView({ block: "nearest" });
    if (focusNext) { focusNext = false; (target ?? tableBox.querySelector("#tutorial-say"))?.focus({ preventScroll: true }); }
  }

  function go(index) {
    if (!lesson) return;
    at = Math.max(0, Math.min(index, lesson.steps.length - 1));
    reached = Math.max(reached, at);
    note = null;
    draw();
  }

  tableBox.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-act]");
    if (!button || !tableBox.contains(button) || !lesson) return;
    const step = lesson.steps[at];
    if (sameAction(JSON.parse(button.dataset.act), step.expect)) {
      focusNext = true;
      go(at + 1);
    } else {
      note = t("tut.not_this");
      draw();
    }
  });

  // Room under the table for the fixed action bar (phone widths), as the room page leaves.
  const barSize = new ResizeObserver(() => {
    const bar = tableBox.querySelector(".prompt");
    const fixed = bar && getComputedStyle(bar).position === "fixed";
    document.body.style.setProperty("--bar-space", fixed ? `${bar.offsetHeight + 16}px` : "0px");
  });
  let watched = null;
  function watchBar() {
    const bar = tableBox.querySelector(".prompt");
    if (bar === watched) return;
    if (watched) barSize.unobserve(watched);
    watched = bar;
    if (bar) barSize.observe(bar);
  }

  Promise.all([loadTutorial(game), loadCatalogue(game)])
    .then(([data, words]) => { lesson = data; cat = words; draw(); })
    .catch((error) => { tableBox.setAttribute("aria-busy", "false"); clear(tableBox, h("p", { class: "form-error" }, describe(error))); });

  return {
    stop() { barSize.disconnect(); document.body.style.removeProperty("--bar-space"); },
    relabel() { draw(); },
  };
}
