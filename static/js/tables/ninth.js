// The Bottom of the 9th table: line-up picker, pitcher and fatigue, stare-down, dice, run race.
import { h } from "../dom.js";
import { pick, sideName, t, tn } from "../i18n.js";
import { ninthCard, ninthCardName, ninthCode, ninthPa, ninthResult, ninthTerm, term, withCodes } from "../catalogue.js";
import { actionBar, actionButton, count, countdown, diamond, die, gameOverText, outs, waitingLine } from "./common.js";

const RACE_ROLLS_SHOWN = 8;

/** A player card's name; its rule text on hover, focus or tap. */
function cardLine(cat, id, extra = "") {
  const card = ninthCard(cat, id);
  return h("span", { class: "b9-card term", tabindex: 0, "data-card": id },
    h("span", { class: "name" }, ninthCardName(cat, id)), extra,
    card ? h("span", { class: "tip", role: "tooltip" }, withCodes(pick(card.text))) : null);
}

function fatigueTrack(label, value, ceiling) {
  return h("div", { class: "fatigue", "aria-label": `${label}: ${value}` },
    h("span", { class: "label" }, label),
    [0, 1, 2, 3].map((i) => h("span", { class: `pip${i < value ? " on" : ""}${i === ceiling ? " ceiling" : ""}`, "aria-hidden": "true" }, i + 1)));
}

const SWING_RESULT = { ball: "B", strike: "S", foul: "F", contact: "X" };
export function swingWords(cat, result) {
  if (String(result ?? "").startsWith("CR:")) return ninthResult(cat, result);
  return result in SWING_RESULT ? ninthResult(cat, SWING_RESULT[result]) : String(result ?? "");
}

/** A pitch-die face's short words ("ball"), its full words on hover. */
function pitchWords(cat, face) {
  const words = pick(cat?.pitch_faces?.[face]) || String(face);
  return h("span", { title: words }, words.split(":")[0]);
}

function stareLabel(cat, a) { return `${ninthTerm(cat, a.direction)} · ${ninthTerm(cat, a.location)}`; }

function traits(card) {
  return (card?.abilities || []).filter((a) => a.when === "always").map((a) => a.kind);
}

/** One card of the set-up picker: its name, positions or use, traits and abilities, and a
 * button for every legal way to pick it. */
function pickCard(model, id, picks) {
  const cat = model.cat;
  const card = ninthCard(cat, id);
  const batter = card?.role === "batter";
  const facts = batter
    ? [t("b9.plays_at"), " ", ninthCode(cat, card.position, "positions"), traits(card).includes("speed") ? ` · ${ninthTerm(cat, "speed")}` : "",
      traits(card).includes("unopposed") ? ` · ${ninthTerm(cat, "unopposed")}` : "",
      ` · ${t("b9.race_needs", { n: traits(card).includes("speed") ? 4 : 5 })}`]
    : [t(`b9.usage.${card?.usage}`), card?.ace ? ` · ${t("b9.ace")}: ${ninthTerm(cat, card.ace.direction)} ${ninthTerm(cat, card.ace.location)}` : "",
      traits(card).includes("defense") ? ` · ${ninthTerm(cat, "defense")}` : ""];
  return h("li", { class: "pick-card", "data-pick": id, "data-key": `pick-${id}` },
    h("strong", { class: "name" }, ninthCardName(cat, id)),
    h("span", { class: "facts" }, facts),
    h("span", { class: "text" }, withCodes(pick(card?.text))),
    h("span", { class: "row" }, picks.map((a) => actionButton(model, a,
      a.type === "pick_batter" ? [t("act.pick_at"), " ", h("span", { translate: "no" }, a.position)] : t(`act.pick_as.${a.role}`), { extra: "small" }))));
}

function picker(model) {
  const of = (type) => model.legal.filter((a) => a.type === type);
  const picks = [...of("pick_batter"), ...of("pick_pitcher")];
  if (!picks.length) return null;
  const byCard = new Map();
  for (const a of picks) byCard.set(a.card, [...(byCard.get(a.card) || []), a]);
  const role = of("pick_batter").length ? t("b9.pick_batter", { n: (model.view.lineup?.length ?? 0) + 1 })
    : t(model.view.starter ? "b9.pick_reliever" : "b9.pick_starter");
  return h("section", { class: "picker", "aria-label": t("b9.setup"), "data-key": "picker" },
    h("h3", {}, role),
    h("ul", { class: "pick-cards" }, [...byCard].map(([id, list]) => pickCard(model, id, list))));
}

function legalOfPhase(model) {
  const { legal, cat } = model;
  const out = [];
  const of = (type) => legal.filter((a) => a.type === type);
  const stares = of("stare");
  if (stares.length || of("stare_random").length) {
    out.push(h("div", { class: "stare-grid", "data-key": "stare-grid" }, stares.map((a) => actionButton(model, a, stareLabel(cat, a), { extra: "stare" }))));
    for (const a of of("stare_random")) out.push(actionButton(model, a, t("act.stare_random"), { extra: "secondary" }));
  }
  for (const a of of("pitch_roll")) out.push(actionButton(model, a, t("act.pitch_roll"), { big: true }));
  for (const a of of("swing_roll")) out.push(actionButton(model, a, t("act.swing_roll"), { big: true }));
  for (const a of of("race_roll")) out.push(actionButton(model, a, t("act.race_roll"), { big: true, extra: "race" }));
  for (const a of of("close_race")) out.push(actionButton(model, a, t("act.close_race"), { extra: "secondary" }));
  for (const a of of("recover")) out.push(actionButton(model, a, t("act.recover", { direction: a.direction, location: a.location })));
  for (const a of of("bench")) out.push(actionButton(model, a, t("act.bench")));
  for (const a of of("setup_random")) out.push(actionButton(model, a, t("act.setup_random"), { extra: "secondary" }));
  return out;
}

function whoMustAct(view) {
  switch (view.phase) {
    case "pitch": case "cleanup": return "away";
    case "swing": return "home";
    default: return null;
  }
}

function promptLine(model) {
  const { view, legal } = model;
  const deadlines = model.header.deadlines || {};
  const of = (type) => legal.some((a) => a.type === type);
  let hint = "";
  if (of("stare")) hint = t(model.side === "home" ? "b9.stare_pick_home" : "b9.stare_pick_away");
  else if (of("recover") || of("bench")) hint = t("b9.relief");
  else if (of("pick_batter") || of("pick_pitcher")) hint = t("b9.setup");
  let pending = whoMustAct(view) ?? (legal.length ? model.side : null);
  if (!pending && view.phase === "stare") {
    const open = ["away", "home"].filter((s) => !view.stare?.[s]?.chosen);
    pending = open.length === 1 ? open[0] : null;
    if (!pending) return h("p", { class: "prompt-line" }, t("b9.both_choosing"));
  }
  if (!pending) return hint ? h("p", {}, hint) : null;
  return h("p", { class: "prompt-line" }, waitingLine(model, pending), " ", hint, " ", countdown(deadlines[pending]));
}

export function renderNinth(model) {
  const { view, cat } = model;
  const teams = model.teams || {};
  const reveal = view.last_reveal;
  const race = model.race;
  const mine = model.side && view.stare?.[model.side];
  const deadlines = model.header.deadlines || {};
  const challenge = view.options?.challenge ? cat?.challenges?.[view.options.challenge] : null;
  const teamCell = (side) => h("th", { scope: "row", translate: teams[`${side}_name`] ? "no" : undefined }, teams[`${side}_name`] || sideName(side));
  return h("div", { class: "table ninth" },
    challenge ? h("section", { class: "card challenge-card", "data-challenge": challenge.id, "data-key": "challenge" },
      h("h3", {}, `${t("b9.challenge_card")}: ${pick(challenge.name)}`), h("p", {}, withCodes(pick(challenge.text)))) : null,
    h("section", { class: "scoreboard", "aria-label": t("game.score"), "data-key": "scoreboard" },
      h("table", { class: "line-score", "data-testid": "line-score" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "9"), h("th", {}, term("R", t("game.runs_words"))), h("th", {}, t("game.outs")))),
        h("tbody", {},
          h("tr", { "data-side": "away" }, teamCell("away"), h("td", {}, "0"), h("td", { class: "total" }, "0"), h("td", {}, "")),
          h("tr", { "data-side": "home" }, teamCell("home"), h("td", {}, String(view.runs)), h("td", { class: "total" }, String(view.runs)), h("td", {}, String(view.outs))))),
      h("div", { class: "situation" }, count(view.balls, view.strikes), " ", outs(Math.min(view.outs, 3)),
        h("span", { class: "phase", "data-phase": view.phase }, ` · ${t(`b9.phase.${view.phase}`)}`))),
    picker(model),
    h("div", { class: "field-row", "data-key": "field" },
      diamond(view.bases),
      h("section", { class: "pitcher", "aria-label": t("b9.pitcher") },
        h("h3", {}, t("b9.pitcher")),
        view.pitcher ? cardLine(cat, view.pitcher) : "—",
        view.ace ? h("p", {}, `${t("b9.ace")}: ${ninthTerm(cat, view.ace[0])} · ${ninthTerm(cat, view.ace[1])}`) : null,
        h("p", { class: "fatigue-title" }, term(t("b9.fatigue"), t("b9.fatigue_tip"))),
        fatigueTrack(t("b9.fatigue_dir"), view.fatigue?.[0] ?? 0, view.fatigue_ceiling),
        fatigueTrack(t("b9.fatigue_loc"), view.fatigue?.[1] ?? 0, view.fatigue_ceiling),
        view.reliever ? h("p", { class: "hint" }, `${t("b9.reliever")}: `, cardLine(cat, view.reliever), view.benched ? ` (${t("b9.bench")})` : "") : null),
      h("section", { class: "dice", "aria-label": t("game.dice") },
        die(ninthTerm(cat, "control"), model.dice.control?.face, "", model.dice.control?.fresh, "control"),
        die(ninthTerm(cat, "pitch"), model.dice.pitch?.face, model.dice.pitch ? pitchWords(cat, model.dice.pitch.face) : "", model.dice.pitch?.fresh, "pitch"),
        die(ninthTerm(cat, "swing"), model.dice.swing?.face, swingWords(cat, model.dice.swing?.words), model.dice.swing?.fresh, "swing"),
        model.dice.crush ? die(ninthTerm(cat, "crush"), model.dice.crush.face, ninthResult(cat, model.dice.crush.words), model.dice.crush.fresh, "crush") : null)),
    view.lineup?.length ? h("section", { class: "lineup", "aria-label": t("b9.lineup"), "data-key": "lineup" },
      h("h3", {}, t("b9.lineup")),
      h("ol", {}, (view.lineup || []).map((id, i) => h("li", { class: i === view.batter_index && view.phase !== "setup" ? "up" : "", "aria-current": i === view.batter_index ? "true" : undefined },
        h("span", { class: "pos" }, view.positions?.[i] ? ninthCode(cat, view.positions[i], "positions") : ""), " ", cardLine(cat, id),
        i === view.batter_index && view.phase !== "setup" ? ` ◀ ${t("b9.batter_up")}` : "")))) : null,
    view.phase === "setup" ? null : h("section", { class: "stare", "aria-label": t("b9.stare"), "data-key": "stare" },
      h("h3", {}, term(t("b9.stare"), t("b9.stare_tip"))),
      h("p", {}, ["away", "home"].map((side) => h("span", { class: "stare-status", "data-stare": side },
        model.who(side), `: ${view.stare?.[side]?.chosen ? t("b9.chosen") : (view.phase === "stare" ? t("b9.not_chosen") : "—")} `,
        view.phase === "stare" ? countdown(deadlines[side]) : null, " "))),
      mine?.direction ? h("p", { class: "my-choice" }, `✔ ${ninthTerm(cat, mine.direction)} · ${ninthTerm(cat, mine.location)}`) : null,
      reveal ? h("p", { class: "reveal", "data-testid": "reveal" },
        `${t("b9.reveal")}: ${t("b9.pitch")} ${ninthTerm(cat, reveal.pitch.direction)} · ${ninthTerm(cat, reveal.pitch.location)} / ${t("b9.guess")} ${ninthTerm(cat, reveal.guess.direction)} · ${ninthTerm(cat, reveal.guess.location)} — `,
        `${ninthTerm(cat, reveal.guess.direction)} ${reveal.direction_read ? t("b9.read_yes") : t("b9.read_no")}, ${ninthTerm(cat, reveal.guess.location)} ${reveal.location_read ? t("b9.read_yes") : t("b9.read_no")}`,
        reveal.mvp ? [" · ", term("MVP", ninthTerm(cat, "mvp")), "!"] : "", reveal.ace ? ` · ${t("b9.ace")}!` : "") : null),
    view.active?.length ? h("section", { class: "abilities", "aria-live": "polite", "data-key": "abilities" }, h("h3", {}, t("b9.abilities")),
      h("ul", {}, view.active.map(([id, index]) => {
        const ability = ninthCard(cat, id)?.abilities?.[index];
        return h("li", {}, cardLine(cat, id), ability ? [" — ", withCodes(ninthTerm(cat, ability.when))] : "");
      }))) : null,
    view.phase === "race" && race ? h("section", { class: "race", "aria-label": t("b9.race"), "data-key": "race" },
      h("h3", {}, t("b9.race")),
      h("div", { class: "race-lanes" }, ["home", "away"].map((side) => h("div", { class: "lane", "data-lane": side },
        h("strong", {}, model.who(side)), " ", t("b9.needs", { n: side === "home" ? race.batter_needs : race.pitcher_needs }),
        view.race?.turn === side && view.options?.race === "turns" ? ` · ${t("b9.turn")}` : "",
        h("span", { class: "rolls" }, (race.rolls[side] || []).slice(-RACE_ROLLS_SHOWN).map((f) => h("span", { class: "mini-die" }, f))))))) : null,
    actionBar(model, promptLine(model), legalOfPhase(model)));
}

/** One event as a play-by-play line (nodes), with its subject first; null for silent ones. */
export function ninthEventText(event, cat, who) {
  const d = event.data ?? event;  // events arrive flat: {type, ...data}
  const word = (c) => ninthTerm(cat, c);
  switch (event.type) {
    case "play_ball": return [...tn("pbp.b9.lineup", { side: who("home") }), (d.lineup || []).map((c) => ninthCardName(cat, c)).join(", "),
      " / ", ...tn("pbp.b9.starter", { side: who("away"), card: ninthCardName(cat, d.starter) })];
    case "stare_chosen": return [...tn("pbp.b9.stared", { side: who(d.side) }), d.direction ? ` (${word(d.direction)} · ${word(d.location)})` : ""];
    case "reveal": return [`${t("b9.reveal")}: ${t("b9.pitch")} ${word(d.pitch.direction)} · ${word(d.pitch.location)}, ${t("b9.guess")} ${word(d.guess.direction)} · ${word(d.guess.location)}`,
      d.mvp ? [" · ", term("MVP", word("mvp"))] : "", d.ace ? ` · ${t("b9.ace")}` : ""];
    case "pitch_roll": return [...tn("pbp.b9.pitched", { side: who("away") }), ` ${word("control")} ${d.control}, ${word("pitch")} `,
      ninthCode(cat, d.pitch, "pitch_faces")];
    case "swing_roll": return d.crush
      ? [...tn("pbp.b9.swung", { side: who("home") }), ` ${d.swing} — ${t("b9.crush_bonus", { n: d.crush })}: `, d.result ? ninthResult(cat, d.result) : ""]
      : [...tn("pbp.b9.swung", { side: who("home") }), ` ${d.swing}: ${swingWords(cat, d.result)}`];
    case "race_start": return [`${t("b9.race")}: `, ...tn("pbp.b9.needs", { side: who("home"), n: d.batter_needs }), ", ", ...tn("pbp.b9.needs", { side: who("away"), n: d.pitcher_needs })];
    case "race_roll": return [...tn("pbp.b9.raced", { side: who(d.side) }), ` ${d.face}${d.decisive ? " ✔" : ""}`];
    case "race_end": return [`${t("b9.race")}: `, ...tn("pbp.b9.race_won", { side: who(d.winner) })];
    case "race_closed": return [`${t("b9.race")}: `, ...tn("pbp.b9.race_closed", { side: who("away") })];
    case "next_batter": return `${t("b9.batter_up")}: ${ninthCardName(cat, d.card)}`;
    case "bench": return tn("pbp.b9.bench", { side: who("away"), card: ninthCardName(cat, d.in) });
    case "relief": return tn("pbp.b9.relief", { side: who("away"), direction: d.direction, location: d.location });
    case "pick": return [...tn("pbp.b9.picked", { side: who(d.side), card: ninthCardName(cat, d.card) }),
      d.position ? [" (", h("span", { translate: "no" }, d.position), ")"] : d.role ? ` (${t(`b9.role.${d.role}`)})` : ""];
    case "pick_random": return tn("pbp.b9.picked_random", { side: who(d.side) });
    case "pitch": {
      const code = d.pa_result ?? d.result;
      return [`#${d.batter} ${ninthCardName(cat, d.batter_card)}: `, term(code, d.pa_result ? ninthPa(cat, code) : ninthResult(cat, code)), " ",
        d.pa_result ? ninthPa(cat, code) : ninthResult(cat, code),
        `${d.runs ? ` (+${d.runs})` : ""} — ${d.balls_after}-${d.strikes_after}, ${t("game.outs")} ${d.outs_after}`];
    }
    case "game_over": return [`${t("game.over")}: `, ...gameOverText(d, who, false)];
    default: return null;
  }
}
