// Tells a player what the server did for them when their clock ran out.
//
// The stream does not say who made a move, so this is read from what the client saw: the
// side had a deadline (``state.game.deadlines[side]``, a "response" or "roll" timer), it sent
// nothing at that state, and the next state came after the deadline had passed. Then the
// events in between that belong to the side are what the server did (a pass, a roll, a
// random pick). A teammate on the same side acting in the last moment would look the same;
// an ``actor`` on the events would make it certain (docs/client.md, Known gaps).
import { t } from "./i18n.js";

const GRACE_MS = 250;  // the clock of this machine and the server's may differ a little
const TIMED = new Set(["response", "roll"]);

function whatWasDone(events, side) {
  for (const event of events) {
    const d = event.data ?? event;
    const mine = d.side === side;
    switch (event.type) {
      case "pass": if (mine) return t("timeout.did.pass"); break;
      case "roll": if (mine) return t("timeout.did.roll", { die: t(`die_word.${d.die}`) }); break;
      case "stare_chosen": if (mine) return t("timeout.did.stare"); break;
      case "pick_random": if (mine) return t("timeout.did.setup"); break;
      case "pitch_roll": if (side === "away") return t("timeout.did.pitch"); break;
      case "swing_roll": if (side === "home") return t("timeout.did.swing"); break;
      case "race_roll": if (mine) return t("timeout.did.race"); break;
      case "relief": if (side === "away") return t("timeout.did.relief"); break;
      default: break;
    }
  }
  return t("timeout.did.other");
}

export function timeoutNotice() {
  let due = null;      // {at, timer, seq}: the side's deadline at the last state it had to act
  let actedAt = null;  // the seq of the last state the side sent a move at
  let events = [];
  return {
    event(seq, event) { if (due && seq > due.seq) events.push(event); },
    acted(seq) { actedAt = seq; },
    /** Reads a new state; returns the notice to show, or null. */
    state(message, side) {
      let said = null;
      if (due && message.seq > due.seq && actedAt !== due.seq && message.game?.game_id === due.game
          && Date.now() >= Date.parse(due.at) - GRACE_MS) {
        said = t("timeout.note", { why: t(`timeout.why.${due.timer}`), what: whatWasDone(events, side) });
      }
      const deadline = message.game?.deadlines?.[side];
      const mustAct = (message.legal_actions || []).length > 0;
      due = mustAct && deadline && TIMED.has(deadline.timer)
        ? { at: deadline.at, timer: deadline.timer, seq: message.seq, game: message.game.game_id } : null;
      events = [];
      return said;
    },
  };
}
