// The Base on Board table: field, count, outs, line score, three dice, hand, the action bar.
import { h } from "../dom.js";
import { lang, sideName, t, tn } from "../i18n.js";
import { bobTerm, bobText, bobWords, term, withCodes } from "../catalogue.js";
import { actionBar, actionButton, count, countdown, diamond, die, gameOverText, outs, waitingLine } from "./common.js";

const DICE = ["pitch", "bat", "hit"];
const ROLL_LABEL = { pitch: "act.roll.pitch", swing: "act.roll.swing", hit: "act.roll.hit" };

function nth(n) {
  const suffix = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (suffix[(v - 20) % 10] || suffix[v] || suffix[0]);
}

export function halfName(inning, half) {
  // English says "Top 3rd", Korean "3회초": the number is written the language's way.
  return t(half === "top" ? "game.half.top" : "game.half.bottom", { n: lang() === "en" ? nth(inning) : inning });
}

export function lineScore(view, teams = {}) {
  const innings = Math.max(view.options?.innings ?? 9, view.line.away.length, view.line.home.length);
  const cols = Array.from({ length: innings }, (_, i) => i + 1);
  const row = (side) => h("tr", { "data-side": side },
    h("th", { scope: "row", translate: teams[`${side}_name`] ? "no" : undefined }, teams[`${side}_name`] || sideName(side)),
    cols.map((i) => h("td", {}, view.line[side][i - 1] ?? "")),
    h("td", { class: "total" }, view.score[side]));
  return h("div", { class: "box scroll", "data-key": "line-box" }, h("table", { class: "line-score", "data-testid": "line-score" },
    h("caption", { class: "sr-only" }, t("record.line")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), cols.map((i) => h("th", { scope: "col" }, i)),
      h("th", { scope: "col" }, term("R", t("game.runs_words"))))),
    h("tbody", {}, row("away"), row("home"))));
}

/** Why a card of the hand cannot be played now, in words (from the view's ``hand_notes``). */
function why(model, note) {
  if (!note) return "";
  if (note.why === "over") return t("hand.why.over");
  if (note.why === "wait") return tn("hand.why.wait", { side: model.who(model.view.waiting?.side) });
  if (note.why === "situation") return t("hand.why.situation");
  if (note.why === "rnh") return t("hand.why.rnh");
  const parts = note.when.map((w) => t(`hand.when.${w}`));
  if (note.answers.length) parts.push(t("hand.answers", { cards: note.answers.join(", ") }));
  return t("hand.why.moment", { when: parts.join(t("hand.or")) });
}

function cardView(model, code, playable, note) {
  const cat = model.cat;
  const reason = playable ? "" : why(model, note);
  return h("li", { class: `playing-card${playable ? " playable" : " dimmed"}`, "data-card": code, "data-key": `card-${code}`,
    "aria-disabled": playable ? "false" : "true" },
    h("span", { class: "code-line" }, bobTerm(cat, code, "card")),
    h("span", { class: "name" }, bobWords(cat, code, "card")),
    reason ? h("span", { class: "why", "data-why": note?.why }, typeof reason === "string" ? withCodes(reason) : reason)
      : h("span", { class: "why ok" }, t("hand.playable")));
}

function playLabel(model, action) {
  const choice = action.runner ? ` → ${t("game.runner_on", { base: action.runner })}` : "";
  return [h("span", { translate: "no" }, action.card), ` · ${bobWords(model.cat, action.card, "card")}${choice}`];
}

function actions(model) {
  const { legal, view } = model;
  const kind = view.waiting?.kind;
  const byType = (type) => legal.filter((a) => a.type === type);
  return [
    ...byType("roll").map((a) => actionButton(model, a, t(ROLL_LABEL[kind] ?? "act.roll"), { big: true })),
    ...byType("play").map((a) => actionButton(model, a, playLabel(model, a), { extra: "play", title: bobText(model.cat, a.card) })),
    ...byType("choose").map((a) => actionButton(model, a, t("act.choose", { runner: t("game.runner_on", { base: a.runner }) }))),
    ...byType("challenge").map((a) => actionButton(model, a, t("act.challenge"))),
    ...byType("ifl").map((a) => actionButton(model, a, t("act.ifl"))),
    ...byType("pass").map((a) => actionButton(model, a, t("act.pass"), { extra: "secondary" })),
  ];
}

export function renderBob(model) {
  const { view } = model;
  const cat = model.cat;
  const waiting = view.waiting;
  const playable = new Set(model.legal.filter((a) => a.type === "play").map((a) => a.card));
  const notes = Object.fromEntries((view.hand_notes || []).map((n) => [n.code, n]));
  const prompt = waiting ? h("p", { class: "prompt-line" }, waitingLine(model, waiting.side), " ",
    waiting.side === model.side ? t(`prompt.window.${waiting.kind}`) : "",
    " ", countdown(model.header.deadlines?.[waiting.side])) : null;

  const dice = DICE.map((key) => {
    const face = model.dice[key];
    return die(t(`die.${key}`), face?.face, face ? bobTerm(cat, face.face, key, { named: true }) : "", face?.fresh, key);
  });

  const hand = view.hand
    ? h("section", { class: "hand", "aria-label": t("game.hand"), "data-key": "hand" }, h("h3", {}, t("game.hand")),
      h("ul", { class: "cards" }, view.hand.map((code, i) => {
        const card = cardView(model, code, playable.has(code), notes[code]);
        card.dataset.key = `card-${code}-${i}`;
        return card;
      })))
    : null;

  const chain = view.chain?.length
    ? h("p", { class: "chain", "data-key": "chain" }, `${t("game.chain")}: `,
      view.chain.map((c, i) => [i ? " → " : "", model.who(c.side), " ", bobTerm(cat, c.code, "card", { named: true })]))
    : null;

  return h("div", { class: "table bob" },
    h("section", { class: "scoreboard", "aria-label": t("game.score"), "data-key": "scoreboard" },
      lineScore(view, model.teams),
      h("div", { class: "situation" },
        h("span", { class: "inning", "data-inning": `${view.inning}-${view.half}` }, halfName(view.inning, view.half)), " ",
        count(view.balls, view.strikes), " ", outs(Math.min(view.outs, 3)),
        h("span", { class: "batting" }, " · ", tn("game.batting", { side: model.who(view.offense), n: view.batters?.[view.offense] ?? 0 })))),
    h("div", { class: "field-row", "data-key": "field" },
      diamond(view.bases),
      h("section", { class: "dice", "aria-label": t("game.dice") }, dice)),
    chain,
    hand,
    h("p", { class: "meta", "data-key": "meta" },
      ["away", "home"].map((side) => h("span", {},
        tn("game.hand_of", { side: model.who(side), n: view.hand_sizes?.[side] ?? 0 }), ` · ${t("game.challenges")} ${view.challenges?.[side] ?? 0} · `,
        term("IFL", bobWords(cat, "IFL", "card"), bobText(cat, "IFL", "card")), ` ${view.ifl_tokens?.[side] ?? 0}`))),
    actionBar(model, prompt, actions(model)));
}

/** One event as a play-by-play line (nodes), with its subject first; null for silent ones. */
export function bobEventText(event, cat, who) {
  const d = event.data ?? event;  // events arrive flat: {type, ...data}
  const code = (c, kind) => bobTerm(cat, c, kind, { named: true });
  switch (event.type) {
    case "half_start": return [`— ${halfName(d.inning, d.half)}: `, tn("pbp.bats", { side: who(d.offense) }), " —"];
    case "roll": return [tn("pbp.rolled", { side: who(d.side), die: t(`die_word.${d.die}`) }), " ", code(d.face, d.die)];
    case "card": return [tn("pbp.played", { side: who(d.side) }), " ", code(d.code, "card")];
    case "challenge": return [tn("pbp.challenged", { side: who(d.side) }), " ", code(d.call, "result"), `: ${t(`challenge.${d.result}`)}`];
    case "draw": return d.cards
      ? [tn("pbp.drew", { side: who(d.side), n: d.count }), ": ", d.cards.map((c, i) => [i ? ", " : "", bobTerm(cat, c, "card")])]
      : tn("pbp.drew", { side: who(d.side), n: d.count });
    case "pitch": {
      const result = d.pa_result ?? d.result;
      const runs = d.runs ? ` (+${d.runs} ${t("game.runs_words")})` : "";
      return [`${halfName(d.inning, d.half)} · `, tn("pbp.batter", { side: who(d.offense), n: d.batter }), ": ", code(result, "result"),
        `${runs} — ${d.balls_after}-${d.strikes_after}, ${t("game.outs")} ${d.outs_after}`];
    }
    case "half_end": return t("pbp.half_end", { half: halfName(d.inning, d.half), runs: d.runs });
    case "game_over": return [`${t("game.over")}: `, ...gameOverText(d, who)];
    case "card_returned": return [tn("pbp.returned", { side: who(d.side) }), " ", code(d.code, "card")];
    case "run_and_hit_steal": return [t("pbp.rnh_steal"), " ", code("RNH", "card"), ` → ${basesText(d.bases)}`];
    case "reshuffle": return t("pbp.reshuffle", { deck: t(`deck.${d.deck}`) });
    default: return null;
  }
}

export function basesText(bases) {
  const on = [1, 2, 3].filter((_, i) => (bases || "000")[i] === "1");
  return on.length ? on.map((n) => t("game.base_n", { n })).join(", ") : t("game.bases_empty");
}
