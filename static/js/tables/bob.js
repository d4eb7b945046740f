// The Base on Board table: field, count, outs, line score, three dice, hands, prompts.
import { h } from "../dom.js";
import { lang, pick, sideName, t } from "../i18n.js";
import { bobText, bobWords } from "../catalogue.js";
import { actionButton, count, countdown, diamond, die, outs, waitingLine } from "./common.js";

const DICE = [["pitch", "pitch"], ["bat", "bat"], ["hit", "hit"]];
const DIE_LABEL = { pitch: { en: "Pitch die", ko: "투구 주사위" }, bat: { en: "Bat die", ko: "타격 주사위" }, hit: { en: "Hit die", ko: "안타 주사위" } };
const ROLL_LABEL = { pitch: "act.roll.pitch", swing: "act.roll.swing", hit: "act.roll.hit" };

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

export function halfName(inning, half) {
  return lang() === "ko"
    ? `${inning}회${half === "top" ? "초" : "말"}`
    : `${half === "top" ? "Top" : "Bottom"} ${ordinal(inning)}`;
}

export function lineScore(view, teams = {}) {
  const innings = Math.max(view.options?.innings ?? 9, view.line.away.length, view.line.home.length);
  const cols = Array.from({ length: innings }, (_, i) => i + 1);
  const row = (side) => h("tr", { "data-side": side },
    h("th", { scope: "row" }, teams[`${side}_name`] || sideName(side)),
    cols.map((i) => h("td", {}, view.line[side][i - 1] ?? "")),
    h("td", { class: "total" }, view.score[side]));
  return h("table", { class: "line-score", "data-testid": "line-score" },
    h("caption", { class: "sr-only" }, t("record.line")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), cols.map((i) => h("th", { scope: "col" }, i)), h("th", { scope: "col" }, t("game.runs")))),
    h("tbody", {}, row("away"), row("home")));
}

function cardView(model, code, plays) {
  const cat = model.cat;
  const name = bobWords(cat, code, "card");
  const text = bobText(cat, code, "card");
  const enabled = plays.length > 0 && !model.busy;
  const tipId = `tip-${code}-${Math.random().toString(36).slice(2, 7)}`;
  const buttons = plays.map((action) => {
    const extra = action.runner ? ` → ${action.runner}` : Object.entries(action)
      .filter(([k]) => !["side", "type", "card"].includes(k)).map(([, v]) => ` ${v}`).join("");
    return actionButton(model, action, `${t("act.play", { card: code })}${extra}`, { extra: "play" });
  });
  return h("li", { class: `playing-card${enabled ? " playable" : " dimmed"}`, tabindex: 0, "data-card": code,
    "aria-describedby": tipId, "aria-disabled": enabled ? "false" : "true" },
    h("span", { class: "code" }, code), h("span", { class: "name" }, name),
    h("span", { class: "card-text", id: tipId, role: "tooltip" }, text),
    buttons.length ? h("span", { class: "plays" }, buttons) : null);
}

export function renderBob(model) {
  const { view, legal } = model;
  const cat = model.cat;
  const waiting = view.waiting;
  const byType = (type) => legal.filter((a) => a.type === type);
  const prompt = [];
  if (waiting) {
    prompt.push(h("p", { class: "prompt-line" }, waitingLine(model, waiting.side), " ",
      waiting.side === model.side ? t(`prompt.window.${waiting.kind}`) : "",
      " ", countdown(model.header.deadlines?.[waiting.side])));
  }
  const buttons = [];
  for (const a of byType("roll")) buttons.push(actionButton(model, a, t(ROLL_LABEL[waiting?.kind] ?? "act.roll"), { big: true }));
  for (const a of byType("choose")) buttons.push(actionButton(model, a, t("act.choose", { runner: a.runner })));
  for (const a of byType("challenge")) buttons.push(actionButton(model, a, t("act.challenge")));
  for (const a of byType("ifl")) buttons.push(actionButton(model, a, t("act.ifl")));
  for (const a of byType("pass")) buttons.push(actionButton(model, a, t("act.pass"), { extra: "secondary" }));
  const plays = byType("play");

  const dice = DICE.map(([key, kind]) => {
    const face = model.dice[key];
    return die(pick(DIE_LABEL[key]), face?.face, face ? bobWords(cat, face.face, kind) : "", face?.fresh, key);
  });

  const hand = view.hand
    ? h("section", { class: "hand", "aria-label": t("game.hand") }, h("h3", {}, t("game.hand")),
      h("ul", { class: "cards" }, view.hand.map((code) => cardView(model, code, plays.filter((p) => p.card === code)))))
    : null;

  const chain = view.chain?.length
    ? h("p", { class: "chain" }, `${t("game.chain")}: `, view.chain.map((c) => `${sideName(c.side)} ${c.code} · ${bobWords(cat, c.code, "card")}`).join(" → "))
    : null;

  const half = halfName(view.inning, view.half);
  return h("div", { class: "table bob" },
    h("section", { class: "scoreboard", "aria-label": t("game.score") },
      lineScore(view, model.teams),
      h("div", { class: "situation" },
        h("span", { class: "inning", "data-inning": `${view.inning}-${view.half}` }, half), " ",
        count(view.balls, view.strikes), " ", outs(Math.min(view.outs, 3)),
        h("span", { class: "batting" }, ` · ${sideName(view.offense)} ${t("b9.batter_up")} #${view.batters?.[view.offense] ?? 0}`))),
    h("div", { class: "field-row" },
      diamond(view.bases),
      h("section", { class: "dice", "aria-label": t("game.dice") }, dice)),
    h("section", { class: "prompt", "aria-live": "polite", "data-testid": "prompt" }, prompt, h("div", { class: "actions" }, buttons), chain),
    hand,
    h("p", { class: "meta" },
      ["away", "home"].map((side) => h("span", {}, `${t("game.hand_of", { side: sideName(side), n: view.hand_sizes?.[side] ?? 0 })} · ${t("game.challenges")} ${view.challenges?.[side] ?? 0} · IFL ${view.ifl_tokens?.[side] ?? 0}`))));
}

export function bobEventText(event, cat, teams = {}) {
  const d = event.data ?? event;  // events arrive flat: {type, ...data}
  const who = (side) => teams[`${side}_name`] || sideName(side);
  switch (event.type) {
    case "half_start": return `— ${halfName(d.inning, d.half)}: ${who(d.offense)} —`;
    case "roll": return `${who(d.side)} ${t("pbp.rolls")} ${d.face} · ${bobWords(cat, d.face, d.die)}`;
    case "card": return `${who(d.side)} ▶ ${d.code} · ${bobWords(cat, d.code, "card")}`;
    case "challenge": return `${who(d.side)} ⚑ ${t("act.challenge")} ${d.call}: ${pick(cat?.challenge?.[d.result]) || d.result}`;
    case "draw": return d.cards ? `${who(d.side)} +${d.count}: ${d.cards.join(", ")}` : `${who(d.side)} +${d.count}`;
    case "pitch": {
      const result = d.pa_result ?? d.result;
      const runs = d.runs ? ` (+${d.runs} ${t("game.runs")})` : "";
      return `${halfName(d.inning, d.half)} #${d.batter}: ${result} · ${bobWords(cat, result, "result")}${runs} — ${d.balls_after}-${d.strikes_after}, ${t("game.outs")} ${d.outs_after}`;
    }
    case "half_end": return t("pbp.half_end", { half: halfName(d.inning, d.half), runs: d.runs });
    case "game_over": return `${t("game.over")}: ${d.winner ? t("game.winner", { side: who(d.winner) }) : t("game.tie")} ${d.score ? `${d.score.away}-${d.score.home}` : ""} (${d.reason ?? ""})`;
    case "card_returned": return `${who(d.side)} ↩ ${d.code}`;
    case "run_and_hit_steal": return `RNH → ${d.bases}`;
    case "reshuffle": return `↻ ${d.deck}`;
    default: return null;
  }
}
