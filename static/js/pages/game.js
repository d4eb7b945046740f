// A game's record: line and box score, play-by-play, a replay scrubber, the fairness proof.
import { get } from "../api.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { lang, pick, sideName, t } from "../i18n.js";
import { verifyFairness } from "../fairness.js";
import { diamond } from "../tables/common.js";
import { halfName } from "../tables/bob.js";
import { GAME_NAMES } from "./lobby.js";

function lineTable(summary) {
  const innings = summary.line_score.map((l) => l.inning);
  return h("table", { class: "line-score", "data-testid": "record-line-score" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), innings.map((i) => h("th", { scope: "col" }, i)), h("th", { scope: "col" }, t("game.runs")))),
    h("tbody", {}, ["away", "home"].map((side) => h("tr", { "data-side": side },
      h("th", { scope: "row" }, `${sideName(side)} ${(summary.players[side] || []).join(", ")}`),
      summary.line_score.map((l) => h("td", {}, l[side] ?? "")),
      h("td", { class: "total" }, summary.runs[side] ?? 0)))));
}

function boxTable(box, key, columns) {
  const rows = box[key] || {};
  return h("table", { class: "data box" },
    h("caption", {}, t(key === "batting" ? "record.batting" : "record.pitching")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), columns.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, Object.entries(rows).map(([side, line]) => h("tr", {}, h("th", { scope: "row" }, sideName(side)), columns.map((c) => h("td", {}, line[c] ?? ""))))));
}

export function gamePage(app, gameId) {
  const box = h("div", { "aria-busy": "true" }, t("common.loading"));
  app.append(h("h1", {}, t("record.title")), box);
  Promise.all([get(`/api/games/${gameId}`), get(`/api/games/${gameId}/record`), get(`/api/games/${gameId}/fairness`)])
    .then(([summary, record, proof]) => {
      box.setAttribute("aria-busy", "false");
      const states = record.states;
      const replayView = h("div", { class: "replay-view", "aria-live": "polite", id: "replay-view" });
      const slider = h("input", { type: "range", id: "replay", min: 0, max: states.length - 1, value: states.length - 1, "aria-label": t("record.replay") });
      const drawReplay = () => {
        const n = Number(slider.value);
        const st = states[n];
        clear(replayView,
          h("p", {}, n === 0 ? t("record.start") : t("record.after", { n, seq: st.seq })),
          h("p", {}, `${halfName(st.inning, st.half)} · ${t("game.outs")} ${st.outs} · ${st.balls}-${st.strikes} · ${sideName("away")} ${st.score.away} – ${sideName("home")} ${st.score.home}`),
          diamond(st.bases),
          n > 0 && record.play_by_play[lang()][n - 1] ? h("p", { class: "hint" }, record.play_by_play[lang()][n - 1].text) : null);
      };
      slider.addEventListener("input", drawReplay);
      drawReplay();
      const verifyOut = h("p", { id: "verify-result", role: "status" });
      const result = summary.result || {};
      clear(box,
        h("p", {}, `${pick(GAME_NAMES[summary.kind] ?? { en: summary.kind })} · #${summary.number} · `,
          h("a", { href: `/rooms/${summary.room_id}`, "data-link": true }, t("record.room")), " · ",
          summary.status === "live" ? t("record.live") : (result.winner ? t("game.winner", { side: sideName(result.winner) }) : t("game.tie"))),
        h("p", {}, `${t("record.players")}: `, ["away", "home"].map((side) => [`${sideName(side)} `,
          (summary.players[side] || []).map((name) => [h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true }, name), " "])])),
        h("section", { class: "card" }, h("h2", {}, t("record.line")), lineTable(summary)),
        h("section", { class: "card" }, h("h2", {}, t("record.box")),
          boxTable(record.box_score, "batting", ["PA", "AB", "H", "2B", "3B", "HR", "BB", "K", "R", "RBI", "SB", "AVG", "OPS"]),
          boxTable(record.box_score, "pitching", ["pitches", "strikes", "BF", "IP", "K", "BB", "H", "HR", "R"])),
        h("section", { class: "card" }, h("h2", {}, t("record.replay")), slider, replayView),
        h("section", { class: "card" }, h("h2", {}, t("record.pbp")),
          h("ol", { class: "pbp", id: "record-pbp" }, record.play_by_play[lang()].map((line) => h("li", { "data-seq": line.seq }, line.text)))),
        h("section", { class: "card" }, h("h2", {}, t("record.fairness")),
          h("p", {}, `${t("record.seed_hash")}: `, h("code", { class: "hash" }, proof.seed_hash)),
          proof.seed ? h("p", {}, `${t("record.seed")}: `, h("code", { class: "hash" }, proof.seed), ` · ${t("record.draws", { n: proof.draw_count })}`) : h("p", {}, t("record.secret")),
          h("p", { class: "hint" }, proof.algorithm),
          proof.seed ? h("button", { type: "button", id: "verify", onclick: async () => {
            verifyOut.textContent = t("common.loading");
            try {
              const outcome = await verifyFairness(proof);
              verifyOut.textContent = outcome.ok ? t("record.verified", { n: outcome.count }) : t("record.failed", { why: outcome.why });
            } catch (error) { verifyOut.textContent = t("record.failed", { why: String(error) }); }
          } }, t("record.verify")) : null,
          verifyOut));
    })
    .catch((error) => clear(box, h("p", { class: "form-error" }, describe(error))));
  return null;
}
