// One room's live stream: says hello, reconnects by itself and catches up from the last
// sequence number it saw. Listeners get every server message; "status" reports the link.
import { uid } from "./dom.js";

const BACKOFF = [250, 500, 1000, 2000, 4000, 8000];

/** An ``update`` (one commit's events and the state they lead to, in one frame) as the event
 * messages and the state message it stands for, then the ack it carries when it is the commit
 * of this socket's own command; any other message as it is. */
function expand(message) {
  if (message.type !== "update") return [message];
  const { events, game_id: gameId, ack, ...state } = message;
  return [...events.map((e) => ({ type: "event", game_id: gameId, seq: e.seq, event: e.event })),
    { ...state, type: "state" }, ...(ack ? [{ ...ack, type: "ack" }] : [])];
}

export class RoomSocket {
  constructor(roomId, token, onMessage, onStatus) {
    this.roomId = roomId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.lastSeq = null;
    this.gameId = null;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.pinger = null;
    this.everOpen = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.everOpen ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      if (this.lastSeq !== null) { hello.last_seq = this.lastSeq; hello.game_id = this.gameId; }
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (frame) => {
      let message;
      try { message = JSON.parse(frame.data); } catch { return; }
      if (message.type === "welcome") {
        this.attempt = 0;
        this.everOpen = true;
        this.onStatus("online");
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
      }
      if ((message.type === "heartbeat" || message.type === "pong") && message.seq != null) {
        // The room is further than what this page holds: something was missed, ask for it.
        const behind = message.game_id && (message.game_id !== this.gameId || message.seq > (this.lastSeq ?? -1));
        if (behind && this.lastSeq !== null) this.send({ type: "sync", last_seq: this.lastSeq, game_id: this.gameId });
        else if (behind) this.send({ type: "sync" });
      }
      for (const one of expand(message)) {
        if (one.type === "event") {
          if (one.game_id !== this.gameId) { this.gameId = one.game_id; }
          this.lastSeq = one.seq;
        } else if (one.type === "state" || one.type === "snapshot") {
          this.gameId = one.game?.game_id ?? this.gameId;
          this.lastSeq = one.seq;
        }
        this.onMessage(one);
      }
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.closed) return;
      if (event.code === 4001) {  // this device's session ended: watch from now on
        this.token = null;
        this.onMessage({ type: "error", code: "session_ended", message: "signed out" });
      }
      this.onStatus("reconnecting");
      const wait = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), wait);
    };
    ws.onerror = () => {};
  }

  /** Closes the link at once (tests use it to simulate a dropped connection). */
  drop() { this.ws?.close(); }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(message)); return true; }
    return false;
  }

  /** Sends an action tagged with the sequence number it was chosen at; returns its id. */
  act(action, seq) {
    const id = uid();
    const body = { type: "action", id, action };
    if (seq !== undefined && seq !== null) body.seq = seq;
    return this.send(body) ? id : null;
  }

  claim() {
    const id = uid();
    return this.send({ type: "claim", id }) ? id : null;
  }

  standIn() {
    const id = uid();
    return this.send({ type: "stand_in", id }) ? id : null;
  }

  resign() {
    const id = uid();
    return this.send({ type: "resign", id }) ? id : null;
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    this.ws?.close();
  }
}
