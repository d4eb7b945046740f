// Short sounds for dice, hits, outs and "your move", made on the spot with WebAudio (no sound
// files, nothing to license). Browsers only let a page make sound after a tap or a key, so
// the audio starts at the first one; the mute switch is remembered in this browser.

const KEY = "sound";
const GAP_MS = 90;  // one sound of a kind at a time (a fast run race rolls many dice)
const HITS = new Set(["1B", "2B", "3B", "HR", "RS"]);

let ctx = null;
let last = {};
let muted = localStorage.getItem(KEY) === "off";
let mine = false;
const listeners = new Set();

function unlock() {
  if (ctx || muted) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  ctx = new Audio();
  if (ctx.state === "suspended") ctx.resume();
}

function envelope(node, at, peak, length) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  node.connect(gain).connect(ctx.destination);
  return gain;
}

function noise(at, length, filter, frequency, peak) {
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i += 1) data[i] = Math.random() * 2 - 1;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const shape = ctx.createBiquadFilter();
  shape.type = filter;
  shape.frequency.value = frequency;
  source.connect(shape);
  envelope(shape, at, peak, length);
  source.start(at);
  source.stop(at + length);
}

function tone(at, type, from, to, length, peak) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  envelope(osc, at, peak, length);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const SOUNDS = {
  dice(at) { for (const [i, f] of [[0, 2400], [0.07, 1900], [0.15, 2800]]) noise(at + i, 0.045, "bandpass", f, 0.5); },
  hit(at) { noise(at, 0.06, "highpass", 1800, 0.8); tone(at, "triangle", 950, 520, 0.18, 0.35); },
  out(at) { tone(at, "sine", 190, 80, 0.3, 0.6); },
  turn(at) { tone(at, "sine", 660, 660, 0.12, 0.25); tone(at + 0.13, "sine", 880, 880, 0.16, 0.25); },
};

function play(name) {
  if (muted || !ctx) return;
  const now = performance.now();
  if (now - (last[name] ?? 0) < GAP_MS) return;
  last[name] = now;
  SOUNDS[name](ctx.currentTime + 0.01);
}

function nameOf(event, kind) {
  const d = event.data ?? event;
  if (event.type === "pitch") {
    if (HITS.has(d.pa_result)) return "hit";
    if (d.outs_after > d.outs) return "out";
    return null;
  }
  if (kind === "base-on-board") return event.type === "roll" ? "dice" : null;
  return ["pitch_roll", "swing_roll", "race_roll"].includes(event.type) ? "dice" : null;
}

export const sounds = {
  unlock,
  isMuted: () => muted,
  setMuted(value) {
    muted = Boolean(value);
    localStorage.setItem(KEY, muted ? "off" : "on");
    if (muted && ctx) { ctx.close(); ctx = null; }
    for (const fn of listeners) fn(muted);
  },
  onChange(fn) { listeners.add(fn); },
  /** A live event of the game: dice, a hit or an out sound. */
  forEvent(event, kind) {
    const name = nameOf(event, kind);
    if (name) play(name);
  },
  /** A new state: a chime when the viewer's side has just got a move to make. */
  forState(message, side) {
    const now = Boolean(side) && (message.legal_actions || []).length > 0 && message.game?.status === "live";
    if (now && !mine) play("turn");
    mine = now;
  },
};

for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlock, { capture: true });
