// A player's page: record, batting / pitching lines and cards per pool, Bottom of the 9th stats,
// recent games, and charts (rating over time, outcomes, dice). One's own page also has sign-out and
// the editions one holds, with a form to redeem the box's activation code (정품 인증번호).
import { get, post, session } from "../api.js";
import { signOut } from "../account.js";
import { bobTerm, bobWords, loadCatalogue, withCodes } from "../catalogue.js";
import { clear, h } from "../dom.js";
import { describe, toast } from "../errors.js";
import { has, sideName, t, tn } from "../i18n.js";
import { diceChart, lineChart, sharesChart } from "../charts.js";
import { gameName, poolName } from "../games.js";

// The rows of a pool's ``bottom_of_the_9th`` stats (app/stats/players.py NinthStats.to_json):
// the count's key, and the key of its rate (null when the row has none).
const NINTH_ROWS = [
  ["stares", null], ["direction_reads", "direction_read_rate"], ["location_reads", "location_read_rate"],
  ["full_reads", "full_read_rate"], ["races", null], ["race_wins", "race_win_rate"],
  ["max_fatigue", null], ["recoveries", null], ["benched", null],
];

// The columns of a pool's ``batting`` and ``pitching`` lines (app/stats/boxscore.py BattingLine /
// PitchingLine.to_json), each with how to show its value: a count as is, a batting rate as
// ".262", a pitching share as a percentage.
const BATTING_COLUMNS = [
  ["PA"], ["AB"], ["H"], ["2B"], ["3B"], ["HR"], ["BB"], ["K"], ["R"], ["RBI"], ["SB"], ["CS"],
  ["AVG", avg], ["OBP", avg], ["SLG", avg], ["OPS", avg],
];
const PITCHING_COLUMNS = [
  ["pitches"], ["strikes"], ["strike_pct", percent], ["BF"], ["IP"], ["K"], ["BB"], ["HBP"], ["H"], ["HR"], ["R"],
];

/** A batting rate as baseball writes it: ".262", "1.023" ("—" when there is nothing to divide by). */
function avg(rate) {
  return rate == null ? "—" : rate.toFixed(3).replace(/^0\./, ".");
}

const poolTitle = poolName;

/** Captions say "your side" to the player and "ann's side" to everyone else. */
let owner = null;
function whose(key, vars) {
  return owner ? tn(`${key}_of`, { ...vars, name: h("span", { translate: "no" }, owner) }) : t(key, vars);
}

/** One line table (batting or pitching) of a pool: a header row of columns and one row of values. */
function lineTable(key, line, columns, n) {
  return h("div", { class: "box" }, h("table", { class: `data line-table ${key}-table`, "data-line": key },
    h("caption", {}, whose(`player.${key}_caption`, { n })),
    h("thead", {}, h("tr", {}, columns.map(([col]) => h("th", { scope: "col", "data-col": col }, withCodes(t(`player.${key}.${col}`)))))),
    h("tbody", {}, h("tr", {}, columns.map(([col, format]) => h("td", { "data-col": col },
      format ? format(line[col]) : (line[col] ?? 0)))))));
}

/** The cards a Base on Board pool's side played (code and words, played, succeeded, rate). */
function cardTable(cards, cat, n) {
  const rows = Object.entries(cards);
  if (!rows.length) return null;
  const name = (code) => [bobTerm(cat, code, "card"), " ", bobWords(cat, code, "card")];
  return h("div", { class: "box" }, h("table", { class: "data card-table" },
    h("caption", {}, whose("player.cards_caption", { n })),
    h("thead", {}, h("tr", {}, [t("player.card"), t("player.card_played"), t("player.card_succeeded"), t("player.card_rate")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows.map(([code, c]) => h("tr", { "data-card": code },
      h("th", { scope: "row" }, name(code)),
      h("td", { class: "played" }, c.played),
      h("td", { class: "succeeded" }, c.succeeded),
      h("td", { class: "rate" }, percent(c.success_rate)))))));
}

/** One section per pool with games: runs, the batting and pitching lines, and (Base on Board)
 * the cards played and challenges made; a line or table the side has nothing in is left out
 * (in Bottom of the 9th the home side only bats and the away side only pitches). */
function lineSections(stats, cat) {
  return Object.entries(stats || {}).flatMap(([pool, s]) => {
    const bob = pool.split(":")[0] === "base-on-board";
    const cards = bob && (Object.keys(s.cards || {}).length > 0 || s.challenges > 0);
    const batted = s.batting?.PA > 0;
    const pitched = s.pitching?.pitches > 0;
    if (!(s.games > 0) || !(batted || pitched || cards)) return [];
    return h("section", { class: "card pool-stats", "data-pool": pool },
      h("h2", {}, t(cards ? "player.lines_title_cards" : "player.lines_title", { pool: poolTitle(pool) })),
      h("p", { class: "runs" }, t("player.runs", { for: s.runs_for ?? 0, against: s.runs_against ?? 0 })),
      batted ? lineTable("batting", s.batting, BATTING_COLUMNS, s.games) : null,
      pitched ? lineTable("pitching", s.pitching, PITCHING_COLUMNS, s.games) : null,
      bob ? cardTable(s.cards || {}, cat, s.games) : null,
      bob && s.challenges > 0 ? h("p", { class: "challenges" }, t("player.challenges", {
        made: s.challenges, won: s.challenges_won ?? 0, rate: percent(s.challenge_success_rate) })) : null,
      h("p", { class: "hint" }, whose("player.lines_note", {})));
  });
}

/** A rate of 0–1 as a percentage with one decimal ("—" when there is nothing to divide by). */
function percent(rate) {
  return rate == null ? "—" : `${(rate * 100).toFixed(1)}%`;
}

/** One section per pool with Bottom of the 9th stats (none for a player without such games). */
function ninthSections(stats) {
  return Object.entries(stats || {}).filter(([, s]) => s.bottom_of_the_9th && s.games > 0).map(([pool, s]) => {
    const b9 = s.bottom_of_the_9th;
    const title = poolTitle(pool);
    return h("section", { class: "card ninth-stats", "data-pool": pool },
      h("h2", {}, title),
      h("div", { class: "box" }, h("table", { class: "data ninth-table" },
        h("caption", {}, t("player.ninth_caption", { n: s.games })),
        h("thead", {}, h("tr", {}, [t("player.ninth_stat"), t("player.ninth_count"), t("player.ninth_rate")].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, NINTH_ROWS.map(([key, rateKey]) => h("tr", { "data-stat": key },
          h("th", { scope: "row" }, withCodes(t(`player.ninth.${key}`))),
          h("td", { class: "count" }, b9[key] ?? 0),
          h("td", { class: "rate" }, rateKey ? percent(b9[rateKey]) : "—")))))),
      h("p", { class: "hint" }, whose("player.ninth_note", {})));
  });
}

/** The edition's words ("Base on Board Pro tier"), or its code when the catalogue has none. */
function editionName(code) {
  return has(`edition.${code}`) ? t(`edition.${code}`) : code;
}

/** One's own editions (``GET /api/editions/mine``) and a form to redeem an activation code
 * (``POST /api/editions/redeem``); a guest is told to register first. */
function editionsCard(me) {
  const section = h("section", { class: "card narrow", id: "editions" }, h("h2", {}, t("editions.title")));
  if (me.account.is_guest) {
    section.append(h("p", { class: "hint", id: "editions-guest" }, t("editions.guest")));
    return section;
  }
  const list = h("p", { id: "editions-mine" }, t("common.loading"));
  const show = (held) => {
    list.textContent = held.length
      ? t("editions.mine", { list: held.map((e) => editionName(e.edition)).join(", ") })
      : t("editions.none");
  };
  const message = h("p", { class: "form-error", role: "alert", "aria-live": "assertive", id: "redeem-error" });
  const code = h("input", { id: "redeem-code", name: "code", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", translate: "no", required: true, maxlength: 64 });
  async function submit(event) {
    event.preventDefault();
    message.textContent = "";
    try {
      const held = await post("/api/editions/redeem", { code: code.value });
      code.value = "";
      toast(t("editions.redeemed", { edition: editionName(held.edition) }), "info");
      show(await get("/api/editions/mine"));
    } catch (error) {
      message.textContent = describe(error);
    }
  }
  get("/api/editions/mine").then(show).catch((error) => { list.textContent = describe(error); });
  section.append(list,
    h("form", { id: "redeem-form", onsubmit: submit },
      h("label", { for: "redeem-code" }, t("editions.code")), code,
      h("p", { class: "hint" }, t("editions.hint")),
      h("button", { type: "submit", id: "redeem" }, t("editions.redeem"))),
    message);
  return section;
}

export function playerPage(app, name) {
  const box = h("div", { "aria-busy": "true" }, t("common.loading"));
  const me = session();
  const mine = me && me.account.name.toLowerCase() === name.toLowerCase();
  owner = mine ? null : name;
  app.append(h("h1", { id: "player-title" }, tn("player.title", { name: h("span", { translate: "no" }, name) })),
    ...(mine ? [h("p", {}, h("button", { type: "button", class: "secondary small", id: "signout", onclick: signOut }, t("nav.signout"))),
      editionsCard(me)] : []),
    box);
  Promise.all([get(`/api/players/${encodeURIComponent(name)}`), get(`/api/players/${encodeURIComponent(name)}/charts`),
    loadCatalogue("base-on-board").catch(() => null)])
    .then(([page, charts, cat]) => {
      box.setAttribute("aria-busy", "false");
      const outcome = (r) => {
        const winner = r.result?.winner;
        return winner == null ? t("player.tie") : winner === r.side ? t("player.win") : t("player.loss");
      };
      const pools = Object.entries(charts.ratings || {});
      const ratingCharts = pools.map(([pool, points]) => {
        const label = poolTitle(pool);
        const last = points[points.length - 1];
        return h("figure", { class: "chart-figure", "data-pool": pool, "data-points": points.length },
          lineChart(points.map((p) => p.rating), { label: `${t("player.rating")} · ${label}`, testid: "rating" }),
          h("figcaption", { title: `μ ${last.mu.toFixed(2)} σ ${last.sigma.toFixed(2)}` },
            `${label}: ${last.rating}${last.provisional ? "?" : ""}${last.provisional ? ` (${t("player.provisional")})` : ""} · ${t("player.rated_games", { n: last.games })}`));
      });
      const dieName = (kind, die) => (has(`die.${die}`) ? t(`die.${die}`) : die);
      const dice = Object.entries(charts.dice || {}).flatMap(([kind, dies]) => dies.filter((d) => d.rolls).map((d) =>
        h("figure", { class: "chart-figure" }, diceChart(d, { label: `${gameName(kind)} · ${dieName(kind, d.die)}` }),
          h("figcaption", {}, `${gameName(kind)} · ${dieName(kind, d.die)}: ${t("player.rolls", { n: d.rolls })} · χ² ${d.chi_square} · `,
            h("span", { translate: "no" }, "p"), ` ${d.p_value}`))));
      const noRating = page.games > 0 ? t("player.no_rated_games") : t("player.none");
      clear(box,
        h("table", { class: "data stats", id: "player-stats" },
          h("thead", {}, h("tr", {}, [t("lb.games"), t("lb.wins"), t("lb.losses"), t("lb.ties")].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, h("tr", {}, h("td", {}, page.games), h("td", {}, page.wins), h("td", {}, page.losses), h("td", {}, page.ties)))),
        lineSections(page.stats, cat),
        ninthSections(page.stats),
        h("div", { class: "charts" },
          h("section", { class: "card", id: "rating-charts" }, h("h2", {}, t("player.rating")), ratingCharts.length ? ratingCharts : h("p", { id: "no-rating" }, noRating), h("p", { class: "hint" }, t("player.rating_note"))),
          h("section", { class: "card" }, h("h2", {}, t("player.shares")), sharesChart([
            { label: t("player.win"), value: page.wins }, { label: t("player.loss"), value: page.losses }, { label: t("player.tie"), value: page.ties }],
          { label: t("player.shares"), testid: "shares" }) ?? h("p", {}, t("player.none"))),
          h("section", { class: "card" }, h("h2", {}, t("player.dice")), dice.length ? dice : h("p", {}, t("player.none")))),
        h("h2", {}, t("player.recent")),
        page.recent.length ? h("ul", { class: "recent", id: "recent-games" }, page.recent.map((r) => h("li", {},
          h("a", { href: `/games/${r.game_id}`, "data-link": true }, `${gameName(r.kind)} · ${sideName(r.side)} · ${outcome(r)}`),
          r.finished_at ? ` · ${new Date(r.finished_at).toLocaleString(document.documentElement.lang)}` : ""))) : h("p", {}, t("player.none")));
    })
    .catch((error) => clear(box, h("p", { class: "form-error" }, describe(error))));
  return null;
}
