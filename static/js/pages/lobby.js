// Lobby: create a room for either game with every option; open and live rooms to join or
// watch, with their options, timers, where a live game stands, the players' ratings, the clubs
// a club game's sides play for, and whether the game is rated; filtered by game. "Play now" enters the queue of a game (and
// tier) and, while waiting, polls GET /api/play-now every 2 s until it is paired, then opens
// the room (docs/protocol.md, *Play now*).
import { del, get, post, session } from "../api.js";
import { clear, h } from "../dom.js";
import { describe, showError } from "../errors.js";
import { pick, sideName, t } from "../i18n.js";
import { loadCatalogue } from "../catalogue.js";
import { GAMES, TIERS, gameName, poolName, tierName } from "../games.js";
import { navigate } from "../nav.js";
import { halfName } from "../tables/bob.js";
import { clubLink } from "./clubs.js";

function field(id, label, input) {
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function select(name, options, value) {
  return h("select", { name }, options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

function checkbox(id, name, label) {
  return h("div", { class: "field check" }, h("input", { type: "checkbox", id, name }), h("label", { for: id }, label));
}

function bobOptions() {
  return h("fieldset", { id: "options-bob" }, h("legend", {}, gameName("base-on-board")),
    field("opt-innings", t("lobby.innings"), select("innings", [["3", "3"], ["5", "5"], ["7", "7"], ["9", "9"]], "9")),
    field("opt-tier", t("lobby.tier"), select("tier", TIERS.map((tier) => [tier, tierName(tier)]), "pro")),
    field("opt-challenges", t("lobby.challenges"), h("input", { name: "challenges", type: "number", min: 0, max: 5, value: 1 })),
    field("opt-extra", t("lobby.extra_innings"), h("input", { name: "extra_innings", type: "number", min: 0, max: 9, value: 3 })),
    field("opt-bats-first", t("lobby.bats_first"), select("bats_first", [["away", sideName("away")], ["home", sideName("home")]], "away")),
    checkbox("opt-fast-play", "fast_play", t("lobby.fast_play")));
}

function ninthOptions(challenges) {
  const ids = Object.values(challenges || {});
  return h("fieldset", { id: "options-ninth" }, h("legend", {}, gameName("bottom-of-the-9th")),
    field("opt-mode", t("lobby.mode"), select("mode", [["versus", t("lobby.versus")], ["solo", t("lobby.solo")]], "versus")),
    field("opt-solo-side", t("lobby.solo_side"), select("solo_side", [["home", sideName("home")], ["away", sideName("away")]], "home")),
    field("opt-challenge", t("lobby.challenge"), select("challenge", [["", "—"], ...ids.map((c) => [c.id, `${c.id} · ${pick(c.name)}`])], "")),
    field("opt-race", t("lobby.race"), select("race", [["realtime", t("lobby.race_realtime")], ["turns", t("lobby.race_turns")]], "realtime")),
    field("opt-race-window", t("lobby.race_window"), h("input", { name: "race_window_ms", type: "number", min: 0, max: 2000, value: 250 })),
    field("opt-setup", t("lobby.setup"), select("setup", [["choose", t("lobby.setup_choose")], ["random", t("lobby.setup_random")]], "choose")),
    h("p", { class: "hint" }, t("b9.outs_to_win")));
}

function readOptions(form, kind) {
  const data = new FormData(form);
  const options = {};
  for (const key of ["home_name", "away_name"]) if (data.get(key)) options[key] = data.get(key);
  for (const key of ["home_color", "away_color"]) if (data.get(key)) options[key] = data.get(key);
  if (kind === "base-on-board") {
    options.innings = Number(data.get("innings"));
    options.tier = data.get("tier");
    options.bats_first = data.get("bats_first");
    options.challenges = Number(data.get("challenges"));
    options.extra_innings = Number(data.get("extra_innings"));
    if (data.get("fast_play")) options.fast_play = true;
  } else {
    options.mode = data.get("mode");
    options.race = data.get("race");
    options.race_window_ms = Number(data.get("race_window_ms"));
    if (options.mode === "solo") {
      options.solo_side = data.get("solo_side");
      if (data.get("challenge")) options.challenge = data.get("challenge");
    }
    if (!options.challenge) options.setup = data.get("setup");
  }
  return options;
}

const PLAY_NOW_POLL_MS = 2000;

/** The Play now card: a button per game (and tier), the waiting state with a cancel button;
 * paired, it opens the room. Returns the card and a stop function for the page. */
function playNow() {
  const status = h("p", { id: "play-now-status", "aria-live": "polite" });
  const error = h("p", { class: "form-error", role: "alert" });
  const pools = [...TIERS.map((tier) => ["base-on-board", tier]), ["bottom-of-the-9th", null]];
  const buttons = h("div", { class: "row", id: "play-now-buttons" }, pools.map(([kind, tier]) => {
    const pool = tier ? `${kind}:${tier}` : kind;
    return h("button", { type: "button", class: "small", "data-play-now": pool,
      onclick: () => act(() => post("/api/play-now", { kind, options: tier ? { tier } : {} })) },
    t("lobby.play_now_button", { pool: poolName(pool) }));
  }));
  const cancel = h("button", { type: "button", class: "small secondary", id: "play-now-cancel", hidden: true,
    onclick: () => act(async () => { await del("/api/play-now"); return { status: "none" }; }) }, t("lobby.play_now_cancel"));
  let timer = null;
  let stopped = false;

  function stop() { stopped = true; if (timer) clearInterval(timer); timer = null; }

  function show(state, opening = false) {
    if (stopped) return;
    if (state.status === "paired" && !opening) { stop(); navigate(`/rooms/${state.room.id}`); return; }
    const waiting = state.status === "waiting";
    buttons.hidden = waiting;
    cancel.hidden = !waiting;
    const seconds = waiting ? Math.max(0, Math.round((Date.now() - Date.parse(state.since)) / 1000)) : 0;
    status.textContent = waiting
      ? t("lobby.play_now_waiting", { pool: poolName(state.pool), s: seconds, rating: state.rating, window: state.window })
      : "";
    if (waiting && !timer) timer = setInterval(() => act(() => get("/api/play-now")), PLAY_NOW_POLL_MS);
    if (!waiting && timer) { clearInterval(timer); timer = null; }
  }

  async function act(call) {
    error.textContent = "";
    try { show(await call()); } catch (err) { error.textContent = describe(err); }
  }

  // coming back to the lobby while waiting resumes the wait (a past pairing is not reopened)
  get("/api/play-now").then((state) => show(state, true)).catch(() => {});
  const card = h("section", { class: "card", id: "play-now", "aria-labelledby": "play-now-title" },
    h("h2", { id: "play-now-title" }, t("lobby.play_now")),
    h("p", { class: "hint" }, t("lobby.play_now_hint")), buttons, status, cancel, error);
  return { card, stop };
}

export function lobbyPage(app) {
  const me = session();
  const list = h("div", { id: "rooms", "aria-live": "polite" }, t("common.loading"));
  const formError = h("p", { class: "form-error", role: "alert" });
  const optionsBox = h("div");
  const kind = select("kind", GAMES.map((k) => [k, gameName(k)]), "base-on-board");
  kind.id = "kind";
  let challenges = {};

  function showOptions() {
    clear(optionsBox, kind.value === "base-on-board" ? bobOptions() : ninthOptions(challenges));
  }
  kind.addEventListener("change", showOptions);
  loadCatalogue("bottom-of-the-9th").then((cat) => { challenges = cat.challenges; if (kind.value !== "base-on-board") showOptions(); }).catch(() => {});
  showOptions();

  async function create(event) {
    event.preventDefault();
    formError.textContent = "";
    const form = event.target;
    const data = new FormData(form);
    const body = { kind: kind.value, options: readOptions(form, kind.value), private: Boolean(data.get("private")) };
    if (data.get("side")) body.side = data.get("side");
    const level = data.get("computer");
    if (level) {  // the computer takes the other side (Bottom of the 9th: its solo mode)
      const mine = body.side || "home";
      if (body.kind === "bottom-of-the-9th") {
        if (body.options.mode !== "solo") { body.options.mode = "solo"; body.options.solo_side = mine; }
        body.computer = { level };
      } else {
        body.computer = { side: mine === "home" ? "away" : "home", level };
      }
    }
    const myClub = data.get("club_mine");
    const otherClub = String(data.get("club_other") || "").trim();
    if (myClub || otherClub) {  // club against club: the clubs' names and colours take over
      const mine = body.side || "home";
      const other = mine === "home" ? "away" : "home";
      body.clubs = {};
      if (myClub) body.clubs[mine] = myClub;
      if (otherClub) body.clubs[other] = otherClub;
      for (const side of Object.keys(body.clubs)) delete body.options[`${side}_color`];
    }
    const timers = {};
    if (data.get("response_seconds")) timers.response_seconds = Number(data.get("response_seconds"));
    if (data.get("roll_seconds")) timers.roll_seconds = Number(data.get("roll_seconds"));
    if (Object.keys(timers).length) body.timers = timers;
    try {
      const room = await post("/api/rooms", body);
      navigate(`/rooms/${room.id}`);
    } catch (error) { formError.textContent = describe(error); }
  }

  // Club against club: my clubs for my side, a code for the other side's (empty: a pick-up
  // side anyone may join). Shown only to members of some club.
  const clubsBox = h("div", { id: "create-clubs" });
  if (me && !me.account?.is_guest) {
    get("/api/clubs/mine").then((clubs) => {
      if (!clubs.length) return;
      clear(clubsBox, h("fieldset", {}, h("legend", {}, t("lobby.clubs")),
        field("opt-club-mine", t("lobby.club_mine"), select("club_mine", [["", t("lobby.club_none")], ...clubs.map((c) => [c.id, `${c.name} (${c.code})`])], "")),
        field("opt-club-other", t("lobby.club_other"), h("input", { name: "club_other", maxlength: 4, autocapitalize: "characters" }))));
    }).catch(() => {});
  }

  const createForm = me
    ? h("form", { class: "card", id: "create-room", onsubmit: create },
      h("h2", {}, t("lobby.create")),
      h("div", { class: "field" }, h("label", { for: "kind" }, t("lobby.game")), kind),
      optionsBox,
      h("fieldset", {}, h("legend", {}, t("lobby.teams")),
        field("opt-home-name", t("lobby.home_name"), h("input", { name: "home_name", maxlength: 24 })),
        field("opt-away-name", t("lobby.away_name"), h("input", { name: "away_name", maxlength: 24 })),
        field("opt-home-color", t("lobby.home_color"), h("input", { name: "home_color", type: "color", value: "#1f5fbf" })),
        field("opt-away-color", t("lobby.away_color"), h("input", { name: "away_color", type: "color", value: "#c0392b" }))),
      h("fieldset", {}, h("legend", {}, t("lobby.timers")),
        field("opt-response", t("lobby.response"), h("input", { name: "response_seconds", type: "number", min: 1, max: 600, step: "any", placeholder: "20" })),
        field("opt-roll", t("lobby.roll"), h("input", { name: "roll_seconds", type: "number", min: 1, max: 600, step: "any", placeholder: "15" }))),
      field("create-side", t("lobby.side"), select("side", [["home", sideName("home")], ["away", sideName("away")], ["", t("side.spectator")]], "home")),
      clubsBox,
      field("opt-computer", t("lobby.opponent"), select("computer", [["", t("lobby.opponent_person")],
        ...["easy", "normal", "hard"].map((level) => [level, t("lobby.opponent_computer", { level: t(`lobby.level.${level}`) })])], "")),
      checkbox("opt-private", "private", t("lobby.private")),
      h("button", { type: "submit", id: "create-submit" }, t("lobby.submit")),
      formError)
    : h("div", { class: "card" }, h("p", {}, t("lobby.signin_first")),
      h("a", { href: "/signin", "data-link": true, class: "button" }, t("nav.signin")));

  const filter = select("kind", [["", t("lobby.all_games")], ...GAMES.map((k) => [k, gameName(k)])], "");
  filter.id = "lobby-kind";
  filter.classList.add("lobby-filter");
  filter.addEventListener("change", refresh);
  let asked = 0;

  async function refresh() {
    const mine = ++asked;
    try {
      const query = filter.value ? `?kind=${encodeURIComponent(filter.value)}` : "";
      const { rooms } = await get(`/api/lobby${query}`);
      if (mine !== asked) return;
      if (!rooms.length) { clear(list, h("p", {}, t(filter.value ? "lobby.none_of_kind" : "lobby.none"))); return; }
      clear(list, h("ul", { class: "rooms" }, rooms.map(roomItem)));
    } catch (error) { if (mine === asked) clear(list, h("p", { class: "form-error" }, describe(error))); }
  }

  /** What a room plays: its options and timers, in words. */
  function facts(room) {
    const o = room.options || {};
    const parts = [];
    if (room.kind === "base-on-board") {
      parts.push(t("lobby.fact.innings", { n: o.innings ?? 9 }), tierName(o.tier ?? "pro"));
      if (o.fast_play) parts.push(t("lobby.fact.fast_play"));
    } else {
      parts.push(t(o.mode === "solo" ? "lobby.solo" : "lobby.versus"));
      parts.push(t(o.race === "turns" ? "lobby.fact.race_turns" : "lobby.fact.race_realtime"));
    }
    if (room.computer_side) parts.push(t("lobby.fact.computer", { side: sideName(room.computer_side) }));
    const timers = room.timers || {};
    if (timers.response_seconds) parts.push(t("lobby.fact.response", { s: Math.round(timers.response_seconds) }));
    if (timers.roll_seconds) parts.push(t("lobby.fact.roll", { s: Math.round(timers.roll_seconds) }));
    return parts.join(" · ");
  }

  function standing(room) {
    const live = room.live;
    if (!live) return null;
    if (room.kind === "base-on-board") {
      return t("lobby.live_bob", { half: halfName(live.inning, live.half), away: live.score?.away ?? 0, home: live.score?.home ?? 0, outs: live.outs ?? 0 });
    }
    return t("lobby.live_ninth", { runs: live.runs ?? 0, outs: live.outs ?? 0 });
  }

  function roomItem(room) {
    const seats = { home: [], away: [] };
    for (const player of room.players) seats[player.side].push(player);
    const mySeat = me && room.seats.some((s) => s.account_id === me.account.id);
    const joinButtons = me && !mySeat && room.status === "open"
      ? ["home", "away"].filter((side) => !seats[side].length && side !== room.computer_side).map((side) =>
        h("button", { type: "button", class: "small", "data-join": side,
          onclick: async () => {
            try { await post(`/api/rooms/${room.id}/join`, { side }); navigate(`/rooms/${room.id}`); }
            catch (error) { showError(error); }
          } }, t("lobby.join", { side: sideName(side) })))
      : [];
    const names = (side) => seats[side].length ? seats[side].map((p, i) => [i ? ", " : "",
      h("span", { translate: "no" }, p.name), p.guest ? ` (${t("lobby.guest")})` : ` (${p.rating}${p.provisional ? "?" : ""})`]) : "—";
    // A club's side shows the club (its page, its colours); else the team's name, or the side.
    const team = (side) => room.clubs?.[side] ? clubLink(room.clubs[side])
      : room.teams?.[`${side}_name`] ? h("span", { translate: "no" }, room.teams[`${side}_name`]) : sideName(side);
    return h("li", { class: "room", "data-room": room.id, "data-kind": room.kind },
      h("span", { class: "row" }, h("strong", {}, gameName(room.kind)),
        h("span", { class: `badge ${room.status}` }, t(`room.status.${room.status}`)),
        h("span", { class: "badge", "data-rated": room.rated ? "yes" : "no" }, room.rated ? t("lobby.rated") : t(`lobby.unrated.${room.reason}`))),
      h("span", { class: "facts", "data-facts": "" }, facts(room)),
      standing(room) ? h("span", { class: "standing" }, standing(room)) : null,
      h("span", { "data-side": "away" }, team("away"), ": ", names("away")),
      h("span", { "data-side": "home" }, team("home"), ": ", names("home")),
      h("span", { class: "row" }, joinButtons,
        h("a", { href: `/rooms/${room.id}`, "data-link": true, class: "button small secondary" },
          room.status === "live" ? t("lobby.watch") : t("lobby.open"))));
  }

  const quick = me ? playNow() : null;
  const learn = h("section", { class: "card", id: "learn", "aria-labelledby": "learn-title" },
    h("h2", { id: "learn-title" }, t("tut.lobby_title")),
    h("p", { class: "hint" }, t("tut.lobby_hint")),
    h("div", { class: "row" }, GAMES.map((game) => h("a", { href: `/tutorial/${game}`, "data-link": true, class: "button small secondary",
      "data-tutorial": game }, t("tut.title", { game: gameName(game) })))));
  // (a visitor has no Play now card: native append would write a null as the text "null")
  app.append(h("h1", {}, t("lobby.title")),
    ...(quick ? [quick.card] : []),
    h("div", { class: "columns" }, createForm,
      h("section", { class: "card", "aria-labelledby": "rooms-title" },
        h("div", { class: "row spread" }, h("h2", { id: "rooms-title" }, t("lobby.rooms")),
          h("button", { type: "button", class: "small secondary", onclick: refresh }, t("lobby.refresh"))),
        h("div", { class: "field" }, h("label", { for: "lobby-kind" }, t("lobby.filter")), filter),
        list)),
    learn);
  refresh();
  const timer = setInterval(refresh, 5000);
  return { stop: () => { clearInterval(timer); quick?.stop(); } };
}
