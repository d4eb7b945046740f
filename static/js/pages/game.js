// A game's record: line and box score, play-by-play, a replay with step buttons and each
// pitch's dice, the fairness proof checked in the browser.
import { get } from "../api.js";
import { bobTerm, loadCatalogue, ninthCode, withCodes } from "../catalogue.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { lang, sideName, t, tn } from "../i18n.js";
import { verifyFairness } from "../fairness.js";
import { gameName } from "../games.js";
import { diamond, gameOverText } from "../tables/common.js";
import { halfName } from "../tables/bob.js";

const BATTING = ["PA", "AB", "H", "2B", "3B", "HR", "BB", "K", "R", "RBI", "SB", "AVG", "OPS"];
const PITCHING = ["pitches", "strikes", "BF", "IP", "K", "BB", "H", "HR", "R"];

const person = (name) => h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true, translate: "no" }, name);

function lineTable(summary) {
  const innings = summary.line_score.map((l) => l.inning);
  return h("div", { class: "box" }, h("table", { class: "line-score", "data-testid": "record-line-score" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), innings.map((i) => h("th", { scope: "col" }, i)), h("th", { scope: "col" }, t("game.runs_words")))),
    h("tbody", {}, ["away", "home"].map((side) => h("tr", { "data-side": side },
      h("th", { scope: "row" }, `${sideName(side)} `, (summary.players[side] || []).map((name, i) => [i ? ", " : "", person(name)])),
      summary.line_score.map((l) => h("td", {}, l[side] ?? "")),
      h("td", { class: "total" }, summary.runs[side] ?? 0))))));
}

function boxTable(box, key, columns) {
  const rows = box[key] || {};
  return h("div", { class: "box" }, h("table", { class: "data line-table", "data-box": key },
    h("caption", {}, t(key === "batting" ? "record.batting" : "record.pitching")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), columns.map((c) => h("th", { scope: "col", "data-col": c }, withCodes(t(`player.${key}.${c}`)))))),
    h("tbody", {}, Object.entries(rows).map(([side, line]) => h("tr", {}, h("th", { scope: "row" }, sideName(side)), columns.map((c) => h("td", {}, line[c] ?? "")))))));
}

/** The dice of one pitch, each face with its words. */
function pitchDice(kind, cat, dice) {
  if (!dice?.length) return h("p", { class: "hint" }, t("record.no_dice"));
  return h("p", { class: "replay-dice", "data-testid": "replay-dice" }, `${t("game.dice")}: `, dice.map((roll, i) => {
    const die = String(roll.die);
    const label = t(`die.${die}`);
    const face = kind === "base-on-board" ? bobTerm(cat, roll.face, die, { named: true })
      : die === "pitch" ? ninthCode(cat, roll.face, "pitch_faces") : h("strong", {}, roll.face);
    return h("span", { class: "replay-die", "data-die": die }, i ? " · " : "", `${label} `, face, roll.reroll ? ` (${t("record.reroll")})` : "");
  }));
}

export function gamePage(app, gameId) {
  const box = h("div", { "aria-busy": "true" }, t("common.loading"));
  app.append(h("h1", {}, t("record.title")), box);
  Promise.all([get(`/api/games/${gameId}`), get(`/api/games/${gameId}/record`), get(`/api/games/${gameId}/fairness`)])
    .then(async ([summary, record, proof]) => {
      const cat = await loadCatalogue(summary.kind).catch(() => null);
      box.setAttribute("aria-busy", "false");
      const states = record.states;
      const last = states.length - 1;
      const replayView = h("div", { class: "replay-view", "aria-live": "polite", id: "replay-view" });
      const slider = h("input", { type: "range", id: "replay", min: 0, max: last, value: last, "aria-label": t("record.replay") });
      const at = () => Number(slider.value);
      const go = (n) => { slider.value = String(Math.max(0, Math.min(last, n))); drawReplay(); };
      const step = (id, label, text, to) => h("button", { type: "button", class: "small secondary", id, "aria-label": label, title: label, onclick: () => go(to()) }, text);
      const drawReplay = () => {
        const n = at();
        const st = states[n];
        const line = n > 0 ? record.play_by_play[lang()][n - 1] : null;
        clear(replayView,
          h("p", { id: "replay-step" }, n === 0 ? t("record.start") : t("record.after", { n, of: last })),
          h("p", {}, `${halfName(st.inning, st.half)} · ${t("game.outs")} ${st.outs} · ${st.balls}-${st.strikes} · ${sideName("away")} ${st.score.away} – ${sideName("home")} ${st.score.home}`),
          diamond(st.bases),
          n > 0 ? pitchDice(summary.kind, cat, record.dice?.[n - 1]) : null,
          line ? h("p", { class: "hint", id: "replay-line" }, withCodes(line.text)) : null);
        for (const button of controls.querySelectorAll("button")) {
          button.disabled = (button.id.endsWith("first") || button.id.endsWith("prev")) ? n === 0 : n === last;
        }
      };
      const controls = h("div", { class: "replay-controls" },
        step("replay-first", t("record.first"), "«", () => 0),
        step("replay-prev", t("record.prev"), "‹", () => at() - 1),
        slider,
        step("replay-next", t("record.next"), "›", () => at() + 1),
        step("replay-last", t("record.last"), "»", () => last));
      slider.addEventListener("input", drawReplay);
      const verifyOut = h("p", { id: "verify-result", role: "status" });
      const result = summary.result || {};
      const who = (side) => sideName(side);
      clear(box,
        h("p", {}, `${gameName(summary.kind)} · #${summary.number} · `,
          h("a", { href: `/rooms/${summary.room_id}`, "data-link": true }, t("record.room")), " · ",
          summary.status === "live" ? t("record.live") : gameOverText(result, who, summary.kind === "base-on-board" && !["claim", "resign"].includes(result.reason))),
        h("p", {}, `${t("record.players")}: `, ["away", "home"].map((side) => [`${sideName(side)} `,
          (summary.players[side] || []).map((name) => [person(name), " "])])),
        h("section", { class: "card" }, h("h2", {}, t("record.line")), lineTable(summary)),
        h("section", { class: "card" }, h("h2", {}, t("record.box")),
          boxTable(record.box_score, "batting", BATTING),
          boxTable(record.box_score, "pitching", PITCHING)),
        h("section", { class: "card" }, h("h2", {}, t("record.replay")), controls, replayView),
        h("section", { class: "card" }, h("h2", {}, t("record.pbp")),
          h("ol", { class: "pbp", id: "record-pbp" }, record.play_by_play[lang()].map((line) => h("li", { "data-seq": line.seq }, withCodes(line.text))))),
        h("section", { class: "card" }, h("h2", {}, t("record.fairness")),
          h("p", {}, `${t("record.seed_hash")}: `, h("code", { class: "hash", translate: "no" }, proof.seed_hash)),
          proof.seed ? h("p", {}, `${t("record.seed")}: `, h("code", { class: "hash", translate: "no" }, proof.seed), ` · ${t("record.draws", { n: proof.draw_count })}`) : h("p", {}, t("record.secret")),
          h("p", { class: "hint" }, tn("record.algorithm", { hmac: h("code", { translate: "no" }, "HMAC-SHA256"), sha: h("code", { translate: "no" }, "SHA-256") })),
          proof.seed ? h("button", { type: "button", id: "verify", onclick: async () => {
            verifyOut.textContent = t("common.loading");
            try {
              const outcome = await verifyFairness(proof);
              verifyOut.textContent = outcome.ok ? t("record.verified", { n: outcome.count }) : t("record.failed", { why: outcome.why });
            } catch (error) { verifyOut.textContent = t("record.failed", { why: String(error) }); }
          } }, t("record.verify")) : null,
          verifyOut));
      drawReplay();
    })
    .catch((error) => clear(box, h("p", { class: "form-error" }, describe(error))));
  return null;
}
