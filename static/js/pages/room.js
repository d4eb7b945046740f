// A room: who sits where, the live table (playing or watching), the play-by-play, reconnects.
import { get, post, session, setSession, token } from "../api.js";
import { clear, h } from "../dom.js";
import { describe, showError, toast } from "../errors.js";
import { pick, sideName, t } from "../i18n.js";
import { loadCatalogue } from "../catalogue.js";
import { RoomSocket } from "../socket.js";
import { GAME_NAMES } from "./lobby.js";
import { bobEventText, renderBob } from "../tables/bob.js";
import { ninthEventText, renderNinth } from "../tables/ninth.js";
import { tickCountdowns } from "../tables/common.js";

const QUIET_ERRORS = new Set(["stale_seq", "conflict"]);
const LOG_LIMIT = 300;

export function roomPage(app, roomId) {
  const me = session();
  let room = null;
  let cat = null;
  let side = null;
  let latest = null;          // the newest state or snapshot message
  let busy = false;
  let pending = null;         // id of the command in flight
  let log = [];               // [{seq, text}]
  let dice = {};
  let race = null;
  let presence = {};
  let historyFor = null;

  const seatsBox = h("div", { class: "seats", id: "seats" });
  const tableBox = h("div", { id: "table", "aria-busy": "true" }, t("common.loading"));
  const overBox = h("div", { id: "game-over", "aria-live": "polite" });
  const logList = h("ol", { class: "pbp", id: "pbp", "aria-live": "polite", "aria-relevant": "additions" });
  const title = h("h1", { id: "room-title" }, t("common.loading"));
  const role = h("p", { id: "role", class: "role" });

  app.append(title, role, seatsBox, h("div", { class: "room-layout" },
    h("div", {}, tableBox, overBox),
    h("section", { class: "card pbp-box", "aria-labelledby": "pbp-title" }, h("h2", { id: "pbp-title" }, t("game.playbyplay")), logList)));

  const eventText = (event) => {
    if (!room || !cat) return null;
    if (event.type === "seed_reveal") return t("pbp.seed", { seed: `${String(event.seed).slice(0, 16)}…` });
    if (event.type === "game_end") {
      return event.result?.reason === "claim" ? `${t("game.over")}: ${t("game.winner", { side: sideName(event.result.winner) })} (${t("pbp.claim")})` : null;
    }
    return room.kind === "base-on-board" ? bobEventText(event, cat, room.teams) : ninthEventText(event, cat, room.teams);
  };

  function drawLog() {
    clear(logList, log.slice().reverse().map((line) => h("li", { "data-seq": line.seq }, line.text)));
  }

  function relog() {
    // Words follow the language: rebuild lines from the events kept with them.
    log = log.map((line) => ({ ...line, text: line.event ? eventText(line.event) ?? line.text : line.text }));
  }

  /** Keeps what the table shows from events (last dice, race rolls); ``fresh`` animates. */
  function note(event, fresh) {
    const d = event.data ?? event;  // events arrive flat: {type, ...data}
    if (event.type === "game_start") { dice = {}; race = null; }
    if (room?.kind === "base-on-board") {
      if (event.type === "roll" && d.die === "pitch") { delete dice.bat; delete dice.hit; }
      if (event.type === "roll") dice[d.die] = { face: d.face, fresh };
    } else {
      if (event.type === "pitch_roll") { dice = { control: { face: d.control, fresh }, pitch: { face: d.pitch, fresh } }; }
      if (event.type === "swing_roll") dice.swing = { face: d.swing, fresh, words: d.result ?? "" };
      if (event.type === "race_start") race = { ...d, rolls: { home: [], away: [] } };
      if (event.type === "race_roll" && race) race.rolls[d.side] = [...(race.rolls[d.side] || []), d.face];
    }
  }

  function track(seq, event) {
    if (event.type === "game_start") log = [];
    note(event, true);
    const text = eventText(event);
    if (text && !(log.length && seq <= log[log.length - 1].seq)) log.push({ seq, text, event });
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
  }

  function drawSeats() {
    if (!room) return;
    const seats = { home: [], away: [] };
    for (const seat of room.seats) seats[seat.side].push(seat.name);
    const mySeat = me && room.seats.find((s) => s.account_id === me.account.id);
    const joins = [];
    if (me && room.status !== "live") {
      for (const s of ["away", "home"]) {
        if (!seats[s].length && mySeat?.side !== s && room.computer_side !== s) {
          joins.push(h("button", { type: "button", id: `join-${s}`, onclick: () => join(s) }, t(`room.join_${s}`)));
        }
      }
    }
    if (!me) joins.push(h("a", { class: "button", href: `/signin?next=${encodeURIComponent(location.pathname)}`, "data-link": true }, t("nav.signin")));
    if (mySeat && room.status !== "live") joins.push(h("button", { type: "button", class: "secondary", id: "leave", onclick: leave }, t("room.leave")));
    const other = side === "home" ? "away" : "home";
    if (side && latest?.game?.status === "live" && seats[other].length && seats[other].every((name) => presence[name] === false)) {
      joins.push(h("button", { type: "button", class: "secondary", id: "claim", onclick: () => { pending = socket.claim(); } }, t("act.claim")));
    }
    clear(seatsBox,
      ["away", "home"].map((s) => h("div", { class: "seat", "data-seat": s, style: room.teams?.[`${s}_color`] ? `border-color:${room.teams[`${s}_color`]}` : undefined },
        h("strong", {}, room.teams?.[`${s}_name`] || sideName(s)), " ",
        seats[s].length ? seats[s].map((name) => h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true, class: "player" },
          name, " ", h("span", { class: presence[name] ? "presence on" : "presence", title: presence[name] ? t("room.connected") : t("room.away_from_table") },
            presence[name] ? "●" : "○"), h("span", { class: "sr-only" }, presence[name] ? t("room.connected") : t("room.away_from_table"))))
          : room.computer_side === s ? h("span", { class: "player" }, t("room.computer")) : "—")),
      h("div", { class: "row" }, joins,
        h("button", { type: "button", class: "secondary", id: "invite", onclick: copyInvite }, t("room.invite"))),
      room.status === "open" ? h("p", { class: "hint" }, t("room.waiting")) : null);
  }

  function drawTitle() {
    if (!room) return;
    title.textContent = `${pick(GAME_NAMES[room.kind] ?? { en: room.kind })} · ${t(`room.status.${room.status}`)}`;
    role.textContent = side ? t("room.you_are", { side: sideName(side) }) : t("room.spectating");
    role.dataset.side = side || "spectator";
  }

  function drawTable() {
    if (!latest || !cat) return;
    const model = {
      view: latest.view, legal: latest.legal_actions || [], header: latest.game, seq: latest.seq,
      side, cat, busy, teams: room?.teams || {}, dice, race,
      send: (action) => send(action),
    };
    tableBox.setAttribute("aria-busy", "false");
    const focused = document.activeElement?.dataset?.action;
    clear(tableBox, latest.game.kind === "base-on-board" ? renderBob(model) : renderNinth(model));
    for (const key of Object.keys(dice)) dice[key].fresh = false;
    tickCountdowns(tableBox);
    if (focused) tableBox.querySelector(`button[data-action="${focused}"]:not([disabled])`)?.focus();
    drawOver();
  }

  function drawOver() {
    const game = latest?.game;
    if (!game || game.status === "live") { clear(overBox); return; }
    const result = game.result || {};
    const who = (s) => room?.teams?.[`${s}_name`] || sideName(s);
    clear(overBox, h("div", { class: "card over", "data-testid": "game-over" },
      h("h2", {}, t("game.over")),
      h("p", { class: "result" }, result.winner ? t("game.winner", { side: who(result.winner) }) : t("game.tie"),
        result.score && room?.kind === "base-on-board" ? ` ${result.score.away ?? ""}–${result.score.home ?? ""}` : "", result.reason ? ` (${result.reason})` : ""),
      h("div", { class: "row" },
        h("a", { class: "button", href: `/games/${game.game_id}`, "data-link": true, id: "record-link" }, t("room.record")),
        side ? h("button", { type: "button", class: "secondary", id: "rematch", onclick: rematch }, t("room.rematch")) : null)));
  }

  function drawAll() { drawTitle(); drawSeats(); drawTable(); drawLog(); }

  function send(action) {
    if (busy) return;
    const roll = action.type === "race_roll" || action.type === "close_race";
    const id = socket.act(action, roll ? undefined : latest?.seq);
    if (!id) { toast(t("conn.reconnecting")); return; }
    pending = id;
    if (!roll) { busy = true; drawTable(); }
  }

  async function loadRoom() {
    try {
      room = await get(`/api/rooms/${encodeURIComponent(roomId)}`);
      if (!cat) cat = await loadCatalogue(room.kind);
      drawAll();
    } catch (error) {
      clear(tableBox, h("p", { class: "form-error" }, describe(error)));
    }
  }

  async function loadPresence() {
    try {
      const body = await get(`/api/rooms/${encodeURIComponent(roomId)}/presence`);
      const next = Object.fromEntries(body.seats.map((s) => [s.name, s.connected]));
      if (JSON.stringify(next) !== JSON.stringify(presence)) { presence = next; drawSeats(); }
    } catch { /* the next poll tries again */ }
  }

  async function loadHistory(gameId, upTo) {
    // A snapshot has no past events: read this game's log so far for the play-by-play.
    if (historyFor === gameId) return;
    historyFor = gameId;
    try {
      const body = await get(`/api/games/${gameId}/events?limit=5000`);
      const known = new Set(log.map((l) => l.seq));
      const replayDice = (latest?.seq ?? 0) <= upTo;  // newer live events already set them
      const older = [];
      for (const item of body.events) {
        if (item.seq > upTo) continue;
        if (replayDice) note(item.event, false);
        if (known.has(item.seq)) continue;
        const text = eventText(item.event);
        if (text) older.push({ seq: item.seq, text, event: item.event });
      }
      log = [...older, ...log].sort((a, b) => a.seq - b.seq).slice(-LOG_LIMIT);
      drawLog();
      drawTable();
    } catch { /* the live log still works */ }
  }

  async function join(s) {
    try { room = await post(`/api/rooms/${roomId}/join`, { side: s }); drawAll(); } catch (error) { showError(error); }
  }
  async function leave() {
    try { room = await post(`/api/rooms/${roomId}/leave`); drawAll(); } catch (error) { showError(error); }
  }
  async function rematch() {
    try { room = await post(`/api/rooms/${roomId}/rematch`); drawAll(); } catch (error) { showError(error); }
  }
  async function copyInvite() {
    const link = room?.invite_link || location.href;
    try { await navigator.clipboard.writeText(link); toast(t("room.copied"), "info"); }
    catch { window.prompt(t("room.invite"), link); }
  }

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
      case "event":
        track(message.seq, message.event);
        break;
      case "snapshot":
      case "state": {
        const newGame = latest?.game?.game_id !== message.game.game_id;
        const statusChanged = latest?.game?.status !== message.game.status;
        latest = message;
        document.body.dataset.seq = String(message.seq);
        busy = false;
        pending = null;
        if (newGame || statusChanged || !room || room.status !== (message.game.status === "live" ? "live" : "finished")) loadRoom();
        drawTable();
        drawLog();
        if (message.type === "snapshot") loadHistory(message.game.game_id, message.seq);
        break;
      }
      case "ack":
        if (message.id === pending) { pending = null; }
        break;
      case "error":
        if (message.id && message.id === pending) { pending = null; busy = false; drawTable(); }
        if (!QUIET_ERRORS.has(message.code)) showError(message);
        if (message.code === "bad_token") { setSession(null); socket.token = null; }  // watch instead
        if (message.code === "not_found" && !message.id) socket.close();
        if (message.code === "stale_seq" || message.code === "conflict") socket.send({ type: "sync", last_seq: latest?.seq ?? null, game_id: latest?.game?.game_id });
        break;
      default:
        break;
    }
  }

  const conn = document.getElementById("conn");
  function onStatus(status) {
    (window.__connLog ||= []).push(status);
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
  window.__roomSocket = socket;  // for the browser tests' dropped-connection check
  loadRoom().then(() => socket.connect());
  loadPresence();
  const clock = setInterval(() => tickCountdowns(tableBox), 500);
  const poll = setInterval(loadPresence, 4000);

  return {
    stop() {
      socket.close();
      clearInterval(clock);
      clearInterval(poll);
      conn.hidden = true;
      delete window.__roomSocket;
    },
    relabel() { relog(); drawAll(); },
  };
}
