// The Bottom of the 9th table: line-up, pitcher and fatigue, stare-down, dice, run race.
import { h } from "../dom.js";
import { pick, sideName, t } from "../i18n.js";
import { ninthCard, ninthCardName, ninthPa, ninthResult, ninthTerm } from "../catalogue.js";
import { actionButton, count, countdown, diamond, die, outs, waitingLine } from "./common.js";

function cardLine(cat, id, extra = "") {
  const card = ninthCard(cat, id);
  return h("span", { class: "b9-card", tabindex: 0, title: card ? pick(card.text) : "", "data-card": id },
    h("span", { class: "name" }, ninthCardName(cat, id)), extra,
    card ? h("span", { class: "card-text", role: "tooltip" }, pick(card.text)) : null);
}

function fatigueTrack(cat, label, value, ceiling) {
  return h("div", { class: "fatigue", "aria-label": `${label}: ${value}` },
    h("span", { class: "label" }, label),
    [0, 1, 2, 3].map((i) => h("span", { class: `pip${i < value ? " on" : ""}${i === ceiling ? " ceiling" : ""}`, "aria-hidden": "true" }, i + 1)));
}

const SWING_RESULT = { ball: "B", strike: "S", foul: "F", contact: "X" };
export function swingWords(cat, result) { return result in SWING_RESULT ? ninthResult(cat, SWING_RESULT[result]) : String(result ?? ""); }

function stareLabel(cat, a) { return `${ninthTerm(cat, a.direction)} · ${ninthTerm(cat, a.location)}`; }

function legalOfPhase(model) {
  const { legal, cat } = model;
  const out = [];
  const of = (type) => legal.filter((a) => a.type === type);
  const stares = of("stare");
  if (stares.length || of("stare_random").length) {
    const role = model.side === "home" ? t("b9.guess") : t("b9.pitch");
    out.push(h("p", {}, t("b9.stare_pick", { what: role })));
    out.push(h("div", { class: "stare-grid" }, stares.map((a) => actionButton(model, a, stareLabel(cat, a), { extra: "stare" }))));
    for (const a of of("stare_random")) out.push(actionButton(model, a, t("act.stare_random"), { extra: "secondary" }));
  }
  for (const a of of("pitch_roll")) out.push(actionButton(model, a, t("act.pitch_roll"), { big: true }));
  for (const a of of("swing_roll")) out.push(actionButton(model, a, t("act.swing_roll"), { big: true }));
  for (const a of of("race_roll")) out.push(actionButton(model, a, t("act.race_roll"), { big: true, extra: "race" }));
  for (const a of of("close_race")) out.push(actionButton(model, a, t("act.close_race"), { extra: "secondary" }));
  const recovers = of("recover");
  if (recovers.length || of("bench").length) out.push(h("p", {}, t("b9.relief")));
  for (const a of recovers) out.push(actionButton(model, a, t("act.recover", { direction: a.direction, location: a.location })));
  for (const a of of("bench")) out.push(actionButton(model, a, t("act.bench")));
  const picksB = of("pick_batter"), picksP = of("pick_pitcher");
  if (picksB.length || picksP.length) out.push(h("p", {}, t("b9.setup")));
  if (picksB.length || picksP.length) {
    out.push(h("div", { class: "picks" },
      picksB.map((a) => actionButton(model, a, t("act.pick_batter", { card: ninthCardName(cat, a.card), position: a.position }), { title: pick(ninthCard(cat, a.card)?.text) })),
      picksP.map((a) => actionButton(model, a, t("act.pick_pitcher", { card: ninthCardName(cat, a.card), role: a.role === "starter" ? t("b9.pitcher") : t("b9.reliever") }), { title: pick(ninthCard(cat, a.card)?.text) }))));
  }
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

export function renderNinth(model) {
  const { view, cat } = model;
  const teams = model.teams || {};
  const reveal = view.last_reveal;
  const race = model.race;
  const pending = whoMustAct(view);
  const mine = model.side && view.stare?.[model.side];
  const deadlines = model.header.deadlines || {};
  const challenge = view.options?.challenge ? cat?.challenges?.[view.options.challenge] : null;
  return h("div", { class: "table ninth" },
    challenge ? h("section", { class: "card challenge-card", "data-challenge": challenge.id },
      h("h3", {}, `${t("b9.challenge_card")}: ${pick(challenge.name)}`), h("p", {}, pick(challenge.text))) : null,
    h("section", { class: "scoreboard", "aria-label": t("game.score") },
      h("table", { class: "line-score", "data-testid": "line-score" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "9"), h("th", {}, t("game.runs")), h("th", {}, t("game.outs")))),
        h("tbody", {},
          h("tr", { "data-side": "away" }, h("th", { scope: "row" }, teams.away_name || sideName("away")), h("td", {}, "0"), h("td", { class: "total" }, "0"), h("td", {}, "")),
          h("tr", { "data-side": "home" }, h("th", { scope: "row" }, teams.home_name || sideName("home")), h("td", {}, String(view.runs)), h("td", { class: "total" }, String(view.runs)), h("td", {}, String(view.outs))))),
      h("div", { class: "situation" }, count(view.balls, view.strikes), " ", outs(Math.min(view.outs, 3)),
        h("span", { class: "phase", "data-phase": view.phase }, ` · ${t(`b9.phase.${view.phase}`)}`))),
    h("div", { class: "field-row" },
      diamond(view.bases),
      h("section", { class: "pitcher", "aria-label": t("b9.pitcher") },
        h("h3", {}, t("b9.pitcher")),
        view.pitcher ? cardLine(cat, view.pitcher) : "—",
        view.ace ? h("p", {}, `${t("b9.ace")}: ${ninthTerm(cat, view.ace[0])} · ${ninthTerm(cat, view.ace[1])}`) : null,
        fatigueTrack(cat, t("b9.fatigue_dir"), view.fatigue?.[0] ?? 0, view.fatigue_ceiling),
        fatigueTrack(cat, t("b9.fatigue_loc"), view.fatigue?.[1] ?? 0, view.fatigue_ceiling),
        view.reliever ? h("p", { class: "hint" }, `${t("b9.reliever")}: `, cardLine(cat, view.reliever), view.benched ? ` (${t("b9.bench")})` : "") : null),
      h("section", { class: "dice", "aria-label": t("game.dice") },
        die(ninthTerm(cat, "control"), model.dice.control?.face, "", model.dice.control?.fresh, "control"),
        die(ninthTerm(cat, "pitch"), model.dice.pitch?.face, model.dice.pitch ? ninthResult(cat, model.dice.pitch.face) : "", model.dice.pitch?.fresh, "pitch"),
        die(ninthTerm(cat, "swing"), model.dice.swing?.face, swingWords(cat, model.dice.swing?.words), model.dice.swing?.fresh, "swing"))),
    h("section", { class: "lineup", "aria-label": t("b9.lineup") },
      h("h3", {}, t("b9.lineup")),
      h("ol", {}, (view.lineup || []).map((id, i) => h("li", { class: i === view.batter_index ? "up" : "", "aria-current": i === view.batter_index ? "true" : undefined },
        h("span", { class: "pos" }, view.positions?.[i] || ""), " ", cardLine(cat, id), i === view.batter_index ? ` ◀ ${t("b9.batter_up")}` : "")))),
    h("section", { class: "stare", "aria-label": t("b9.stare") },
      h("h3", {}, t("b9.stare")),
      h("p", {}, ["away", "home"].map((side) => h("span", { class: "stare-status", "data-stare": side },
        `${sideName(side)}: ${view.stare?.[side]?.chosen ? t("b9.chosen") : (view.phase === "stare" ? t("b9.not_chosen") : "—")} `,
        view.phase === "stare" ? countdown(deadlines[side]) : null, " "))),
      mine?.direction ? h("p", { class: "my-choice" }, `✔ ${ninthTerm(cat, mine.direction)} · ${ninthTerm(cat, mine.location)}`) : null,
      reveal ? h("p", { class: "reveal", "data-testid": "reveal" },
        `${t("b9.reveal")}: ${t("b9.pitch")} ${ninthTerm(cat, reveal.pitch.direction)} · ${ninthTerm(cat, reveal.pitch.location)} / ${t("b9.guess")} ${ninthTerm(cat, reveal.guess.direction)} · ${ninthTerm(cat, reveal.guess.location)} — `,
        `${ninthTerm(cat, reveal.guess.direction)} ${reveal.direction_read ? t("b9.read_yes") : t("b9.read_no")}, ${ninthTerm(cat, reveal.guess.location)} ${reveal.location_read ? t("b9.read_yes") : t("b9.read_no")}`,
        reveal.mvp ? ` · ${t("b9.mvp")}!` : "", reveal.ace ? ` · ${t("b9.ace")}!` : "") : null),
    view.active?.length ? h("section", { class: "abilities", "aria-live": "polite" }, h("h3", {}, t("b9.abilities")),
      h("ul", {}, view.active.map(([id, index]) => {
        const ability = ninthCard(cat, id)?.abilities?.[index];
        return h("li", {}, cardLine(cat, id), ability ? ` — ${ninthTerm(cat, ability.when)}` : "");
      }))) : null,
    view.phase === "race" && race ? h("section", { class: "race", "aria-label": t("b9.race") },
      h("h3", {}, t("b9.race")),
      h("div", { class: "race-lanes" }, ["home", "away"].map((side) => h("div", { class: "lane", "data-lane": side },
        h("strong", {}, sideName(side)), " ", t("b9.needs", { n: side === "home" ? race.batter_needs : race.pitcher_needs }),
        view.race?.turn === side && view.options?.race === "turns" ? ` · ${t("b9.turn")}` : "",
        h("span", { class: "rolls" }, (race.rolls[side] || []).map((f) => h("span", { class: "mini-die" }, f))))))) : null,
    h("section", { class: "prompt", "aria-live": "polite", "data-testid": "prompt" },
      pending ? h("p", {}, waitingLine(model, pending), " ", countdown(deadlines[pending])) : null,
      h("div", { class: "actions" }, legalOfPhase(model))));
}

export function ninthEventText(event, cat, teams = {}) {
  const d = event.data ?? event;  // events arrive flat: {type, ...data}
  const who = (side) => teams[`${side}_name`] || sideName(side);
  const term = (c) => ninthTerm(cat, c);
  switch (event.type) {
    case "play_ball": return `${(d.lineup || []).map((c) => ninthCardName(cat, c)).join(", ")} / ${t("b9.pitcher")} ${ninthCardName(cat, d.starter)}`;
    case "stare_chosen": return `${who(d.side)}: ${t("b9.chosen")}${event.private_choice ? "" : ""}${d.direction ? ` (${term(d.direction)} · ${term(d.location)})` : ""}`;
    case "reveal": return `${t("b9.reveal")}: ${t("b9.pitch")} ${term(d.pitch.direction)} · ${term(d.pitch.location)}, ${t("b9.guess")} ${term(d.guess.direction)} · ${term(d.guess.location)}${d.mvp ? ` · ${t("b9.mvp")}` : ""}${d.ace ? ` · ${t("b9.ace")}` : ""}`;
    case "pitch_roll": return `${t("pbp.rolls")}: ${term("control")} ${d.control}, ${term("pitch")} ${d.pitch}`;
    case "swing_roll": return `${t("pbp.rolls")}: ${term("swing")} ${d.swing}: ${swingWords(cat, d.result)}`;
    case "race_start": return `${t("b9.race")}: ${sideName("home")} ${t("b9.needs", { n: d.batter_needs })}, ${sideName("away")} ${t("b9.needs", { n: d.pitcher_needs })}`;
    case "race_roll": return `${who(d.side)} ${t("pbp.rolls")} ${d.face}${d.decisive ? " ✔" : ""}`;
    case "race_end": return `${t("b9.race")}: ${who(d.winner)} ✔`;
    case "next_batter": return `${t("b9.batter_up")}: ${ninthCardName(cat, d.card)}`;
    case "bench": return `${t("act.bench")}: ${ninthCardName(cat, d.in)}`;
    case "relief": return `${term("relief")}: ${d.direction}/${d.location}`;
    case "pick": return `${t("b9.setup")}: ${ninthCardName(cat, d.card)}${d.position ? ` (${d.position})` : ""}`;
    case "pick_random": return `${t("b9.setup")}: ${t("act.setup_random")}`;
    case "pitch": {
      const code = d.pa_result ?? d.result;
      return `#${d.batter} ${ninthCardName(cat, d.batter_card)}: ${code} · ${d.pa_result ? ninthPa(cat, code) : ninthResult(cat, code)}${d.runs ? ` (+${d.runs})` : ""} — ${d.balls_after}-${d.strikes_after}, ${t("game.outs")} ${d.outs_after}`;
    }
    case "game_over": return `${t("game.over")}: ${t("game.winner", { side: who(d.winner) })} (${d.reason})`;
    default: return null;
  }
}
