// A room: who sits where, the live table (playing or watching), the play-by-play, reconnects.
import { get, post, session, setSession, token } from "../api.js";
import { clear, h } from "../dom.js";
import { describe, setToastSink, showError, toast } from "../errors.js";
import { sideName, t, tn } from "../i18n.js";
import { loadCatalogue } from "../catalogue.js";
import { gameName, poolName } from "../games.js";
import { morph } from "../morph.js";
import { RoomSocket } from "../socket.js";
import { bobEventText, renderBob } from "../tables/bob.js";
import { ninthEventText, renderNinth } from "../tables/ninth.js";
import { gameOverText, tickCountdowns } from "../tables/common.js";
import { sounds } from "../sound.js";
import { showYourMove } from "../attention.js";
import { timeoutNotice } from "../timeouts.js";
import { chatBox } from "../chatter.js";

const QUIET_ERRORS = new Set(["stale_seq", "conflict"]);
const LOG_LIMIT = 300;
const NOTE_MS = 5000;

/** The side an event was made by, as far as the event tells. */
function actorOf(kind, event) {
  const d = event.data ?? event;
  if (d.side === "home" || d.side === "away") return d.side;
  if (kind === "bottom-of-the-9th") {
    if (["pitch_roll", "relief", "bench"].includes(event.type)) return "away";
    if (event.type === "swing_roll") return "home";
  }
  return null;
}

export function roomPage(app, roomId) {
  const me = session();
  const query = new URLSearchParams(location.search);
  const invited = { side: ["home", "away"].includes(query.get("side")) ? query.get("side") : null,
    token: query.get("invite") };
  if (!invited.side) invited.token = null;
  let room = null;
  let cat = null;
  let side = null;
  let latest = null;          // the newest state or snapshot message
  let busy = false;
  let pending = null;         // id of the command in flight
  const raceRolls = new Set(); // ids of race rolls sent: their refusals are never the player's fault
  let log = [];               // [{seq, event}], oldest first
  let lines = new Map();      // seq -> drawn <li> (dropped when the language changes)
  let dice = {};
  let race = null;
  let presence = {};
  let historyFor = null;
  let logGame = null;         // the game the log, dice, race and lastOther are of
  let lastOther = null;       // {seq, event}: the newest action of another side
  let rating = null;          // GET /api/rooms/{id}/rating
  let note = null;            // {text, kind} shown in the action bar's message line
  let noteTimer = null;
  let notice = null;          // the last time-out notice for this side
  let watching = null;        // spectators in the room, from the heartbeat
  const timeouts = timeoutNotice();

  const seatsBox = h("div", { class: "seats", id: "seats" });
  const ratedLine = h("p", { class: "rated hint", id: "rated" });
  const roomNote = h("p", { class: "room-note", role: "status", id: "room-note" });
  const tableBox = h("div", { id: "table", "aria-busy": "true" }, t("common.loading"));
  const overBox = h("div", { id: "game-over", "aria-live": "polite" });
  const logList = h("ol", { class: "pbp", id: "pbp", "aria-live": "polite", "aria-relevant": "additions" });
  const title = h("h1", { id: "room-title" }, t("common.loading"));
  const role = h("p", { id: "role", class: "role" });

  app.append(title, h("div", { class: "room-head" }, role, ratedLine), seatsBox, roomNote, h("div", { class: "room-layout" },
    h("div", {}, tableBox, overBox),
    h("section", { class: "card pbp-box", "aria-labelledby": "pbp-title" }, h("h2", { id: "pbp-title" }, t("game.playbyplay")), logList)));

  const kind = () => room?.kind ?? latest?.game?.kind;
  /** A side's name: the team's own name (not translated) or Home / Away. */
  const who = (s) => {
    const name = room?.teams?.[`${s}_name`];
    return name ? h("span", { class: "team", translate: "no" }, name) : sideName(s);
  };

  const eventText = (event) => {
    if (!cat) return null;
    if (event.type === "stand_in") return tn("pbp.stand_in", { side: who(event.side) });
    if (event.type === "seed_reveal") return tn("pbp.seed", { seed: h("code", { translate: "no" }, `${String(event.seed).slice(0, 16)}…`) });
    if (event.type === "game_end") {
      const reason = event.result?.reason;
      if (reason === "claim") return [`${t("game.over")}: `, ...gameOverText(event.result, who, false), ` · ${t("pbp.claim")}`];
      if (reason === "resign") {
        const loser = event.result.winner === "home" ? "away" : "home";
        return [`${t("game.over")}: `, ...gameOverText(event.result, who, false), " · ", ...tn("pbp.resign", { side: who(loser) })];
      }
      return null;
    }
    return kind() === "base-on-board" ? bobEventText(event, cat, who) : ninthEventText(event, cat, who);
  };

  function lineFor(item) {
    let li = lines.get(item.seq);
    if (!li) {
      const text = eventText(item.event);
      const by = actorOf(kind(), item.event);
      li = h("li", { "data-seq": item.seq, class: by && side && by !== side ? "theirs" : undefined }, text);
      lines.set(item.seq, li);
    }
    return li;
  }

  function drawLog() {
    const shown = log.filter((item) => eventText(item.event) !== null);
    logList.replaceChildren(...shown.slice().reverse().map(lineFor));
  }

  /** Keeps what the table shows from events (last dice, race rolls); ``fresh`` animates. */
  function noteEvent(event, fresh) {
    const d = event.data ?? event;  // events arrive flat: {type, ...data}
    if (kind() === "base-on-board") {
      if (event.type === "roll" && d.die === "pitch") { delete dice.bat; delete dice.hit; }
      if (event.type === "roll") dice[d.die] = { face: d.face, fresh };
    } else {
      if (event.type === "pitch_roll") { dice = { control: { face: d.control, fresh }, pitch: { face: d.pitch, fresh } }; }
      if (event.type === "swing_roll") {
        dice.swing = { face: d.swing, fresh, words: d.crush ? "" : d.result ?? "" };
        if (d.crush) dice.crush = { face: d.crush, fresh, words: d.result ?? "" };
      }
      if (event.type === "race_start") race = { ...d, rolls: { home: [], away: [] } };
      if (event.type === "race_roll" && race) race.rolls[d.side] = [...(race.rolls[d.side] || []), d.face];
    }
  }

  /** The log, dice and race are one game's: a new game (a rematch) starts them afresh. Its
   * events are numbered from 1 again, so the old log would hide them as already seen. */
  function logFor(gameId) {
    if (!gameId || gameId === logGame) return;
    logGame = gameId;
    log = []; lines = new Map(); dice = {}; race = null; lastOther = null;
  }

  function track(seq, event, gameId) {
    logFor(gameId);
    noteEvent(event, true);
    if (!(log.length && seq <= log[log.length - 1].seq)) log.push({ seq, event });
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
    const by = actorOf(kind(), event);
    if (by && by !== side && eventText(event) !== null) lastOther = { seq, event };
    sounds.forEvent(event, kind());
    timeouts.event(seq, event);
  }

  function seatName(name) {
    return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true, class: "player", translate: "no" }, name);
  }

  function ratingOf(name) {
    const row = rating?.players?.find((p) => p.name === name);
    if (!row || row.guest) return null;
    return h("span", { class: "seat-rating", title: t("room.rating_title") }, `${row.rating}${row.provisional ? "?" : ""}`);
  }

  function drawSeats() {
    if (!room) return;
    const seats = { home: [], away: [] };
    for (const seat of room.seats) seats[seat.side].push(seat.name);
    const mySeat = me && room.seats.find((s) => s.account_id === me.account.id);
    const joins = [];
    // Before the first game anyone may take an empty side; once a game has started a side is
    // joined only with its invitation (the page's ?side=&invite= from a member's link), except
    // my club's side: membership is the credential, before and during a game.
    const started = room.status !== "open" || room.games_played > 0;
    if (me && !mySeat) {
      for (const s of ["away", "home"]) {
        // An empty side, or (a club room) my club's side, however many of us already sit.
        const club = room.clubs?.[s]?.id;
        const mine = club && myClubs?.has(club);
        const open = !started && !seats[s].length && (!club || !myClubs);
        if ((open || mine) && room.computer_side !== s) {
          joins.push(h("button", { type: "button", id: `join-${s}`, onclick: () => join(s) }, t(`room.join_${s}`)));
        }
      }
    }
    if (me && !mySeat && started && invited.token && room.computer_side !== invited.side) {
      joins.push(h("button", { type: "button", id: `join-${invited.side}`, onclick: () => join(invited.side, invited.token) },
        t("room.join_invited", { side: sideName(invited.side) })));
    }
    if (!me) joins.push(h("a", { class: "button", href: `/signin?next=${encodeURIComponent(location.pathname)}`, "data-link": true }, t("nav.signin")));
    if (mySeat && room.status !== "live") joins.push(h("button", { type: "button", class: "secondary", id: "leave", onclick: leave }, t("room.leave")));
    const other = side === "home" ? "away" : "home";
    if (side && latest?.game?.status === "live" && seats[other].length && seats[other].every((name) => presence[name] === false)) {
      joins.push(h("button", { type: "button", class: "secondary", id: "claim", onclick: () => { pending = socket.claim(); } }, t("act.claim")));
      if (latest?.game?.computer_side == null) {
        joins.push(h("button", { type: "button", class: "secondary", id: "stand-in", onclick: () => { pending = socket.standIn(); } }, t("act.stand_in")));
      }
    }
    if (side && latest?.game?.status === "live") {
      joins.push(h("button", { type: "button", class: "secondary", id: "resign", onclick: () => {
        if (window.confirm(t("act.resign_confirm"))) pending = socket.resign();
      } }, t("act.resign")));
    }
    clear(seatsBox,
      ["away", "home"].map((s) => h("div", { class: "seat", "data-seat": s, style: room.teams?.[`${s}_color`] ? `border-color:${room.teams[`${s}_color`]}` : undefined },
        h("strong", {}, who(s)), " ",
        seats[s].length ? seats[s].map((name) => h("span", { class: "seated" }, seatName(name), " ", ratingOf(name), " ",
          h("span", { class: presence[name] ? "presence on" : "presence", title: presence[name] ? t("room.connected") : t("room.away_from_table") },
            presence[name] ? "●" : "○"), h("span", { class: "sr-only" }, presence[name] ? t("room.connected") : t("room.away_from_table"))))
          : room.computer_side === s ? h("span", { class: "player" }, t("room.computer"), room.computer_level ? ` (${t(`lobby.level.${room.computer_level}`)})` : "") : "—")),
      h("div", { class: "row" }, joins,
        h("button", { type: "button", class: "secondary", id: "invite", onclick: copyInvite },
          mySeat ? t("room.invite_side", { side: sideName(mySeat.side) }) : t("room.invite"))));
  }

  function drawTitle() {
    if (!room) return;
    title.textContent = `${gameName(room.kind)} · ${t(`room.status.${room.status}`)}`;
    role.textContent = (side ? t("room.you_are", { side: sideName(side) }) : t("room.spectating"))
      + (watching ? ` · ${t("room.watching", { count: watching })}` : "");
    role.dataset.side = side || "spectator";
    if (!rating) { ratedLine.textContent = ""; return; }
    const guests = rating.players.filter((p) => p.guest).map((p) => p.name);
    const why = rating.rated ? t("room.rated", { pool: poolName(rating.pool) })
      : t(`room.unrated.${rating.reason}`, { names: guests.join(", ") });
    ratedLine.textContent = why;
    ratedLine.dataset.rated = rating.rated ? "yes" : "no";
    ratedLine.dataset.reason = rating.reason ?? "";
  }

  function drawWaiting() {
    tableBox.setAttribute("aria-busy", "false");
    clear(tableBox, h("div", { class: "card waiting", "data-testid": "waiting" },
      h("p", {}, t(room?.status === "open" ? "room.waiting" : "common.loading")),
      room?.status === "open" ? h("p", { class: "hint" }, t("room.waiting_hint")) : null));
  }

  function drawTable() {
    if (!latest || !cat) { if (room && !latest) drawWaiting(); return; }
    const mine = side ? latest.legal_actions || [] : [];
    const model = {
      view: latest.view, legal: mine, header: latest.game, seq: latest.seq,
      side, cat, busy, teams: room?.teams || {}, dice, race, who,
      lastOther: lastOther ? { seq: lastOther.seq, text: eventText(lastOther.event) } : null,
    };
    tableBox.setAttribute("aria-busy", "false");
    tableBox.dataset.status = latest.game.status;
    const drawn = latest.game.kind === "base-on-board" ? renderBob(model) : renderNinth(model);
    if (tableBox.firstElementChild?.classList.contains("table")) morph(tableBox, drawn); else clear(tableBox, drawn);
    drawNote();
    for (const key of Object.keys(dice)) dice[key].fresh = false;
    tickCountdowns(tableBox);
    showYourMove(mine.length > 0 && latest.game.status === "live", gameName(latest.game.kind));
    drawOver();
    watchBar();
    if (latest.game.status === "live") bringTableIntoView(latest.game.game_id);
  }

  // The page leaves room under the table for the fixed action bar (phone widths), as tall as
  // the bar is now, so nothing ends up hidden behind it.
  const barSize = new ResizeObserver(() => {
    const bar = tableBox.querySelector(".prompt") ?? overBox.querySelector(".over");
    const fixed = bar && getComputedStyle(bar).position === "fixed";
    document.body.style.setProperty("--bar-space", fixed ? `${bar.offsetHeight + 16}px` : "0px");
  });
  let barWatched = null;
  function watchBar() {
    const bar = tableBox.querySelector(".prompt") ?? overBox.querySelector(".over");
    if (bar === barWatched) return;
    if (barWatched) barSize.unobserve(barWatched);
    barWatched = bar;
    if (bar) barSize.observe(bar);
  }
  let scrolledTo = null;
  /** On a phone, a game that starts (or is opened) brings the table into view once. */
  function bringTableIntoView(gameId) {
    if (scrolledTo === gameId || !side || !matchMedia("(max-width: 759px)").matches) return;
    scrolledTo = gameId;
    tableBox.scrollIntoView({ block: "start" });
  }

  function drawNote() {
    const sink = tableBox.querySelector("[data-toast-sink]");
    if (!sink) return;
    const parts = [];
    if (notice) parts.push(h("span", { class: "timeout-note", "data-testid": "timeout-note" }, notice));
    if (note) parts.push(h("span", { class: `note ${note.kind}` }, note.text));
    clear(sink, parts);
  }

  function drawOver() {
    const game = latest?.game;
    if (!game || game.status === "live") { clear(overBox); return; }
    const result = game.result || {};
    clear(overBox, h("div", { class: "card over", "data-testid": "game-over" },
      h("h2", {}, t("game.over")),
      h("p", { class: "result" }, gameOverText(result, who, room?.kind === "base-on-board" && !["claim", "resign"].includes(result.reason))),
      h("div", { class: "row" },
        h("a", { class: "button", href: `/games/${game.game_id}`, "data-link": true, id: "record-link" }, t("room.record")),
        side ? rematchButton() : null),
      side && room?.rematch_offer && room.rematch_offer !== side
        ? h("p", { class: "rematch-offer", "data-testid": "rematch-offer" }, ...tn("room.rematch_offered_by", { side: who(room.rematch_offer) }))
        : null));
  }

  /** Offer a rematch, wait for the other side, or accept theirs (the sides swap either way). */
  function rematchButton() {
    const offer = room?.rematch_offer;
    if (room?.computer_side) return h("button", { type: "button", class: "secondary", id: "rematch", onclick: rematch }, t("room.rematch"));
    if (offer === side) return h("button", { type: "button", class: "secondary", id: "rematch", disabled: true }, t("room.rematch_offered"));
    return h("button", { type: "button", class: offer ? "" : "secondary", id: "rematch", onclick: rematch },
      t(offer ? "room.rematch_accept" : "room.rematch_offer"));
  }

  function drawAll() { drawTitle(); drawSeats(); drawTable(); drawLog(); }

  function send(action) {
    const roll = action.type === "race_roll" || action.type === "close_race";
    if (busy && !roll) return;
    sounds.unlock();
    const id = socket.act(action, roll ? undefined : latest?.seq);
    if (!id) { toast(t("conn.reconnecting")); return; }
    if (roll) { raceRolls.add(id); if (raceRolls.size > 200) raceRolls.delete(raceRolls.values().next().value); }
    timeouts.acted(latest?.seq);
    notice = null;
    pending = id;
    if (!roll) { busy = true; drawTable(); }
  }

  tableBox.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-act]");
    if (!button || button.disabled || !tableBox.contains(button)) return;
    send(JSON.parse(button.dataset.act));
  });

  // The clubs I am in, asked once for a room with club sides: a club's members sit together.
  let myClubs = null;
  async function loadMyClubs() {
    if (myClubs || !me || me.account?.is_guest || !Object.keys(room?.clubs || {}).length) return;
    try { myClubs = new Set((await get("/api/clubs/mine")).map((c) => c.id)); drawSeats(); } catch { /* empty sides only */ }
  }

  async function loadRating() {
    try { rating = await get(`/api/rooms/${encodeURIComponent(roomId)}/rating`); drawTitle(); drawSeats(); } catch { /* shown next time */ }
  }

  async function loadRoom() {
    try {
      room = await get(`/api/rooms/${encodeURIComponent(roomId)}`);
      if (!cat) cat = await loadCatalogue(room.kind);
      lines = new Map();
      drawAll();
      loadRating();
      loadMyClubs();
    } catch (error) {
      clear(tableBox, h("p", { class: "form-error" }, describe(error)));
    }
  }

  async function loadPresence() {
    try {
      const body = await get(`/api/rooms/${encodeURIComponent(roomId)}/presence`);
      const next = Object.fromEntries(body.seats.map((s) => [s.name, s.connected]));
      if (JSON.stringify(next) !== JSON.stringify(presence)) { presence = next; drawSeats(); }
    } catch { /* the socket's heartbeat brings it */ }
  }

  async function loadHistory(gameId, upTo) {
    // A snapshot has no past events: read this game's log so far for the play-by-play.
    if (historyFor === gameId) return;
    historyFor = gameId;
    try {
      const body = await get(`/api/games/${gameId}/events?limit=5000`);
      if (gameId !== logGame) return;  // another game began while this one's log was read
      const known = new Set(log.map((l) => l.seq));
      const replayDice = (latest?.seq ?? 0) <= upTo;  // newer live events already set them
      const older = [];
      for (const item of body.events) {
        if (item.seq > upTo) continue;
        if (replayDice) noteEvent(item.event, false);
        if (!known.has(item.seq)) older.push({ seq: item.seq, event: item.event });
      }
      log = [...older, ...log].sort((a, b) => a.seq - b.seq).slice(-LOG_LIMIT);
      drawLog();
      drawTable();
    } catch { /* the live log still works */ }
  }

  async function join(s, invite) {
    const body = invite ? { side: s, invite } : { side: s };
    try { room = await post(`/api/rooms/${roomId}/join`, body); drawAll(); loadRating(); } catch (error) { showError(error); }
  }
  async function leave() {
    try { room = await post(`/api/rooms/${roomId}/leave`); drawAll(); loadRating(); } catch (error) { showError(error); }
  }
  async function rematch() {
    try { room = await post(`/api/rooms/${roomId}/rematch`); drawAll(); } catch (error) { showError(error); }
  }
  async function copyInvite() {
    // A member hands out its side's invitation (the only way onto a side once a game has
    // started); anyone else, the room's link for watching.
    const mine = me && room?.seats.find((s) => s.account_id === me.account.id);
    let link = room?.invite_link || location.href;
    if (mine) {
      try { link = (await get(`/api/rooms/${roomId}/invite`)).link; } catch (error) { showError(error); return; }
    }
    try { await navigator.clipboard.writeText(link); toast(t("room.copied"), "info"); }
    catch { window.prompt(t("room.invite"), link); }
  }

  // Messages go where they cover nothing: the action bar's message line while a game is on,
  // else the line under the seats.
  setToastSink((text, kindOf) => {
    note = { text, kind: kindOf };
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => { note = null; roomNote.textContent = ""; drawNote(); }, NOTE_MS);
    if (tableBox.querySelector("[data-toast-sink]") && latest?.game?.status === "live") { roomNote.textContent = ""; drawNote(); return; }
    roomNote.textContent = text;
    roomNote.dataset.kind = kindOf;
  });

  function onMessage(message) {
    switch (message.type) {
      case "welcome":
        side = message.side;
        drawTitle();
        break;
      case "seat":
        side = message.side;
        loadRoom();
        break;
      case "room":  // seats or a rematch offer changed
        loadRoom();
        break;
      case "reaction":
      case "chat":
        chat.heard(message);
        break;
      case "heartbeat": {  // the room's spectator count and who of each side is connected
        if (typeof message.spectators === "number" && message.spectators !== watching) { watching = message.spectators; drawTitle(); }
        if (Array.isArray(message.seats)) {
          const next = Object.fromEntries(message.seats.map((s) => [s.name, s.connected]));
          if (JSON.stringify(next) !== JSON.stringify(presence)) { presence = next; drawSeats(); }
        }
        break;
      }
      case "event":
        track(message.seq, message.event, message.game_id);
        break;
      case "snapshot":
      case "state": {
        const newGame = latest?.game?.game_id !== message.game.game_id;
        const statusChanged = latest?.game?.status !== message.game.status;
        const said = side ? timeouts.state(message, side) : null;
        if (said) notice = said;
        latest = message;
        logFor(message.game.game_id);
        document.body.dataset.seq = String(message.seq);
        busy = false;
        pending = null;
        if (newGame) notice = null;
        if (newGame || statusChanged || !room || room.status !== (message.game.status === "live" ? "live" : "finished")) loadRoom();
        sounds.forState(message, side);
        drawTable();
        drawLog();
        if (message.type === "snapshot") loadHistory(message.game.game_id, message.seq);
        break;
      }
      case "ack":
        if (message.id === pending) { pending = null; }
        break;
      case "error": {
        if (message.id && message.id === pending) { pending = null; busy = false; drawTable(); }
        // A race is rolled as fast as one likes: the server's cap drops the extra rolls, and
        // a roll that lands after the race is decided is refused; neither is the player's
        // mistake.
        const quiet = QUIET_ERRORS.has(message.code) || message.code === "roll_rate"
          || raceRolls.has(message.id);
        if (!quiet) showError(message);
        if (message.code === "bad_token" || message.code === "session_ended") { setSession(null); socket.token = null; }  // watch instead
        if (message.code === "not_found" && !message.id) socket.close();
        if (message.code === "stale_seq" || message.code === "conflict") socket.send({ type: "sync", last_seq: latest?.seq ?? null, game_id: latest?.game?.game_id });
        break;
      }
      default:
        break;
    }
  }

  const conn = document.getElementById("conn");
  function onStatus(status) {
    conn.dataset.status = status;
    document.body.dataset.conn = status;
    if (status === "online") {
      conn.textContent = t("conn.online");
      conn.hidden = true;
    } else {
      conn.textContent = t(status === "reconnecting" ? "conn.reconnecting" : "conn.connecting");
      conn.hidden = false;
    }
  }

  const socket = new RoomSocket(roomId, token(), onMessage, onStatus);
  const chat = chatBox(socket);
  app.append(chat.box);
  loadRoom().then(() => socket.connect());
  loadPresence();  // then the socket's heartbeat keeps it
  const clock = setInterval(() => tickCountdowns(tableBox), 500);

  return {
    stop() {
      socket.close();
      clearInterval(clock);
      clearTimeout(noteTimer);
      setToastSink(null);
      showYourMove(false);
      barSize.disconnect();
      document.body.style.removeProperty("--bar-space");
      conn.hidden = true;
    },
    relabel() { lines = new Map(); drawAll(); chat.redraw(); },
  };
}
