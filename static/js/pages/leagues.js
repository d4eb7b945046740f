// Leagues: the list and a form to create one (/leagues), and a league's page (/leagues/{id}):
// its entrants, the season's standings, the schedule with a "play" link for the signed-in
// player's open games and a box score link for every game played, and the leaders.
import { del, get, post, session } from "../api.js";
import { clear, h } from "../dom.js";
import { describe, showError } from "../errors.js";
import { lang, t } from "../i18n.js";
import { GAMES, gameName } from "../games.js";
import { navigate } from "../nav.js";

const STATUSES = ["forming", "season", "knockout", "finished"];

function statusName(status) { return STATUSES.includes(status) ? t(`lg.status.${status}`) : status; }
function typeName(type) { return type === "club" ? t("lg.type.club") : t("lg.type.player"); }

function field(id, label, input) {
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function choice(name, options, value) {
  return h("select", { name }, options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

function leagueLink(league) {
  return h("a", { href: `/leagues/${encodeURIComponent(league.id)}`, "data-link": true, translate: "no" }, league.name);
}

function createForm(onCreated) {
  const error = h("p", { class: "form-error", role: "alert", id: "lg-create-error" });
  // Base on Board's game length and fast play (as the lobby offers them), for every league game.
  const bobBox = h("div", { id: "lg-bob-options" },
    field("lg-innings", t("lobby.innings"), choice("innings", [["3", "3"], ["5", "5"], ["7", "7"], ["9", "9"]], "9")),
    h("div", { class: "field check" }, h("input", { type: "checkbox", id: "lg-fast-play", name: "fast_play" }),
      h("label", { for: "lg-fast-play" }, t("lobby.fast_play"))));
  const form = h("form", { class: "card", id: "lg-create", "aria-labelledby": "lg-create-title" },
    h("h2", { id: "lg-create-title" }, t("lg.create")),
    field("lg-name", t("lg.name"), h("input", { name: "name", required: true, minlength: 2, maxlength: 48, autocomplete: "off" })),
    field("lg-kind", t("lobby.game"), choice("kind", GAMES.map((g) => [g, gameName(g)]), "base-on-board")),
    field("lg-type", t("lg.entrants_are"), choice("entrant_type", [["club", t("lg.type.club")], ["player", t("lg.type.player")]], "club")),
    field("lg-rounds", t("lg.rounds"), choice("rounds", [["1", t("lg.rounds.1")], ["2", t("lg.rounds.2")]], "1")),
    field("lg-deadline", t("lg.deadline_hours"), h("input", { name: "deadline_hours", type: "number", min: 1, max: 720, value: 72 })),
    field("lg-knockout", t("lg.knockout"), choice("knockout", [["0", t("lg.knockout.0")], ["2", t("lg.knockout.2")], ["4", t("lg.knockout.4")]], "0")),
    bobBox,
    h("button", { type: "submit", class: "primary", id: "lg-create-submit" }, t("lg.create_button")),
    error);
  const kindSelect = form.querySelector("#lg-kind");
  const showBob = () => { bobBox.hidden = kindSelect.value !== "base-on-board"; };
  kindSelect.addEventListener("change", showBob);
  showBob();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const kind = data.get("kind");
    const body = {
      name: data.get("name"), kind, entrant_type: data.get("entrant_type"),
      rounds: Number(data.get("rounds")), deadline_hours: Number(data.get("deadline_hours")),
      knockout: Number(data.get("knockout")),
      options: kind === "base-on-board"
        ? { innings: Number(data.get("innings")), tier: "pro", ...(data.get("fast_play") ? { fast_play: true } : {}) } : {},
    };
    try {
      const league = await post("/api/leagues", body);
      onCreated(league);
    } catch (e) {
      error.textContent = describe(e);
    }
  });
  return form;
}

export function leaguesPage(app) {
  const list = h("div", { id: "lg-list", "aria-live": "polite", "aria-busy": "true" }, t("common.loading"));
  app.append(h("h1", {}, t("lg.title")),
    session() ? createForm((league) => navigate(`/leagues/${encodeURIComponent(league.id)}`))
      : h("p", { class: "hint" }, h("a", { href: "/signin", "data-link": true }, t("nav.signin")), " · ", t("lg.sign_in_to_create")),
    h("section", { class: "card", "aria-labelledby": "lg-list-title" }, h("h2", { id: "lg-list-title" }, t("lg.all")), list));
  get("/api/leagues?limit=100").then((leagues) => {
    clear(list, leagues.length ? h("div", { class: "box" }, h("table", { class: "data board", id: "lg-table" },
      h("thead", {}, h("tr", {}, [t("lg.name"), t("lobby.game"), t("lg.entrants_are"), t("lg.status"), t("lg.entrants")].map((c, i) =>
        h("th", { scope: "col", class: i === 0 ? "name" : null }, c)))),
      h("tbody", {}, leagues.map((lg) => h("tr", { "data-league": lg.id },
        h("th", { scope: "row", class: "name" }, leagueLink(lg)), h("td", {}, gameName(lg.kind)),
        h("td", {}, typeName(lg.entrant_type)), h("td", {}, statusName(lg.status)), h("td", {}, lg.entrants))))))
      : h("p", { id: "lg-none" }, t("lg.none")));
  }).catch((e) => clear(list, h("p", { class: "form-error" }, describe(e))))
    .finally(() => list.setAttribute("aria-busy", "false"));
  return null;
}

function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return h("time", { datetime: iso }, date.toLocaleString(lang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }));
}

function streak(text) {
  const match = /^([WLT])(\d+)$/.exec(text || "");
  return match ? t(`lg.streak.${match[1]}`, { n: match[2] }) : "—";
}

function standingsTable(rows) {
  const heads = ["#", t("lg.team"), t("lg.w"), t("lg.l"), t("lg.t"), t("lg.pct"), t("lg.gb"), t("lg.rs"), t("lg.ra"), t("lg.diff"), t("lg.streak")];
  const pct = (v) => v.toFixed(3).replace(/^0/, "");
  return h("div", { class: "box" }, h("table", { class: "data board", id: "lg-standings", "aria-labelledby": "lg-standings-title" },
    h("thead", {}, h("tr", {}, heads.map((c, i) => h("th", { scope: "col", class: i === 1 ? "name" : null }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", { "data-entrant": r.entrant_id },
      h("td", {}, r.rank), h("th", { scope: "row", class: "name", translate: "no" }, r.name),
      h("td", {}, r.wins), h("td", {}, r.losses), h("td", {}, r.ties), h("td", {}, pct(r.pct)),
      h("td", {}, r.games_behind ? r.games_behind.toFixed(1) : "—"), h("td", {}, r.runs_for),
      h("td", {}, r.runs_against), h("td", {}, r.run_diff > 0 ? `+${r.run_diff}` : r.run_diff),
      h("td", {}, streak(r.streak)))))));
}

function gameStatus(g) {
  if (g.status === "final" || (g.status === "forfeit" && g.home_runs !== null)) return `${g.away_runs} – ${g.home_runs}`;
  if (g.status === "forfeit") return g.decided_by === "no-show" ? t("lg.double_forfeit") : (g.winner === null ? t("lg.no_game_tie") : t("lg.forfeit"));
  return t(`lg.game.${g.status}`);
}

function scheduleList(games, names) {
  const name = (id) => names.get(id) ?? "?";
  return h("div", { class: "box" }, h("table", { class: "data board", id: "lg-schedule", "aria-labelledby": "lg-schedule-title" },
    h("thead", {}, h("tr", {}, [t("lg.round"), t("side.away"), t("lg.result"), t("side.home"), t("lg.deadline"), ""].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, games.map((g) => h("tr", { "data-game": g.id, "data-status": g.status },
      h("td", {}, g.stage === "knockout" ? t("lg.knockout_round", { round: g.round }) : g.round),
      h("td", { class: g.winner === g.away ? "name won" : "name", translate: "no" }, name(g.away)),
      h("td", { class: "score" }, g.box_score_url
        ? h("a", { href: new URL(g.box_score_url).pathname, "data-link": true, class: "box-score", title: t("lg.box_score") }, gameStatus(g))
        : gameStatus(g)),
      h("td", { class: g.winner === g.home ? "name won" : "name", translate: "no" }, name(g.home)),
      h("td", {}, when(g.deadline_at)),
      h("td", {}, g.play_url ? h("a", { href: new URL(g.play_url).pathname, "data-link": true, class: "button primary play" }, t("lg.play")) : ""))))));
}

function leadersBlock(leaders) {
  const rate = (key) => ["avg", "obp", "slg", "cards_rate", "challenges_rate"].includes(key);
  return h("div", { class: "leaders", id: "lg-leaders-list" },
    h("p", { class: "hint" }, t("lg.leaders_rule", { pa: leaders.min_pa, cards: leaders.min_cards, challenges: leaders.min_challenges })),
    leaders.categories.map((c) => h("div", { class: "box", "data-category": c.key },
      h("table", { class: "data board" },
        h("caption", {}, t(`lg.cat.${c.key}`)),
        h("tbody", {}, c.leaders.length ? c.leaders.slice(0, 5).map((r) => h("tr", {},
          h("td", {}, r.rank), h("th", { scope: "row", class: "name" }, h("a", { href: `/players/${encodeURIComponent(r.name)}`, "data-link": true, translate: "no" }, r.name)),
          h("td", {}, rate(c.key) ? r.value.toFixed(3).replace(/^0/, "") : r.value))) : h("tr", {}, h("td", {}, "—")))))));
}

export function leaguePage(app, id) {
  const body = h("div", { id: "lg-body", "aria-live": "polite", "aria-busy": "true" }, t("common.loading"));
  app.append(body);
  const base = `/api/leagues/${encodeURIComponent(id)}`;

  async function act(path, payload, method = post) {
    try {
      await method(`${base}${path}`, payload);
      await load();
    } catch (e) {
      showError(e);
    }
  }
  const withdraw = (entrant) => act(`/entrants/${entrant}`, undefined, del);

  async function load() {
    body.setAttribute("aria-busy", "true");
    try {
      const signedIn = session() && !session().account?.is_guest;
      const [league, standings, games, leaders, myClubs] = await Promise.all([
        get(base), get(`${base}/standings`), get(`${base}/schedule`), get(`${base}/leaders`),
        signedIn ? get("/api/clubs/mine").catch(() => []) : Promise.resolve([])]);
      const names = new Map(league.entrants.map((e) => [e.id, e.name]));
      const me = session()?.account;
      const actions = [];
      if (league.status === "forming" && me) {
        if (league.entrant_type === "player" && !league.mine.length) {
          actions.push(h("button", { type: "button", class: "primary", id: "lg-enter", onclick: () => act("/entrants", {}) }, t("lg.enter_self")));
        } else if (league.entrant_type === "player") {
          // Until the start an entry can be taken back (and made again).
          actions.push(h("button", { type: "button", class: "secondary", id: "lg-withdraw", onclick: () => withdraw(league.mine[0]) }, t("lg.withdraw")));
        } else if (league.entrant_type === "club") {
          const owner = new Set(myClubs.filter((c) => c.role === "owner").map((c) => c.id));
          for (const e of league.entrants.filter((x) => owner.has(x.club_id))) {
            actions.push(h("button", { type: "button", class: "secondary", "data-withdraw": e.id, onclick: () => withdraw(e.id) }, t("lg.withdraw_club", { name: e.name })));
          }
          // The clubs I own that are not in yet: only an owner enters a club.
          const entered = new Set(league.entrants.map((e) => e.club_id));
          const owned = myClubs.filter((c) => owner.has(c.id) && !entered.has(c.id));
          if (owned.length) {
            const club = h("select", { id: "lg-club", name: "club_id" },
              owned.map((c) => h("option", { value: c.id, translate: "no" }, `${c.name} (${c.code})`)));
            actions.push(h("form", { class: "inline", id: "lg-enter-club", onsubmit: (e) => { e.preventDefault(); act("/entrants", { club_id: club.value }); } },
              h("label", { for: "lg-club" }, t("lg.your_club")), club, h("button", { type: "submit", id: "lg-enter-club-submit" }, t("lg.enter_club"))));
          } else if (!owner.size) {
            actions.push(h("p", { class: "hint", id: "lg-no-club" }, t("lg.no_owned_club"), " ",
              h("a", { href: "/clubs", "data-link": true }, t("lg.to_clubs"))));
          }
        }
        if (league.created_by === me.id) {
          actions.push(h("button", { type: "button", id: "lg-start", onclick: () => act("/start") }, t("lg.start")));
        }
      }
      const champion = league.champion !== null ? names.get(league.champion) : null;
      clear(body,
        h("h1", { translate: "no" }, league.name),
        h("p", { class: "hint", id: "lg-meta" }, [gameName(league.kind), typeName(league.entrant_type),
          t(`lg.rounds.${league.rounds}`), statusName(league.status)].join(" · ")),
        champion ? h("p", { id: "lg-champion" }, t("lg.champion", { name: champion })) : null,
        actions.length ? h("div", { class: "card actions" }, actions) : null,
        h("section", { class: "card", "aria-labelledby": "lg-standings-title" },
          h("h2", { id: "lg-standings-title" }, t("lg.standings")),
          standings.length ? standingsTable(standings) : h("p", {}, t("lg.no_entrants")),
          h("p", { class: "hint" }, t("lg.standings_rule"))),
        h("section", { class: "card", "aria-labelledby": "lg-schedule-title" },
          h("h2", { id: "lg-schedule-title" }, t("lg.schedule")),
          games.length ? scheduleList(games, names) : h("p", {}, t("lg.not_started"))),
        h("section", { class: "card", "aria-labelledby": "lg-leaders-title" },
          h("h2", { id: "lg-leaders-title" }, t("lg.leaders")), leadersBlock(leaders)));
    } catch (e) {
      clear(body, h("p", { class: "form-error" }, describe(e)));
    } finally {
      body.setAttribute("aria-busy", "false");
    }
  }
  load();
  return null;
}
