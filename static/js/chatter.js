// Reactions and room chat beside the table. A spectator's words reach spectators only (the
// server decides); a player may mute the chat, which the browser remembers.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

export const EMOTES = { clap: "👏", wow: "😮", laugh: "😂", sad: "😢", fire: "🔥", gg: "🤝", thumbs_up: "👍" };
const KEEP = 50;
const MUTE_KEY = "bob.chat.muted";

export function chatBox(socket) {
  let muted = localStorage.getItem(MUTE_KEY) === "1";
  const lines = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const input = h("input", { id: "chat-input", maxlength: "200", autocomplete: "off", "aria-label": t("chat.say") });
  const form = h("form", { class: "row chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && socket.send({ type: "chat", text })) input.value = "";
  } }, input, h("button", { type: "submit", class: "secondary" }, t("chat.send")));
  const muteButton = h("button", { type: "button", class: "secondary", id: "chat-mute", onclick: () => {
    muted = !muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    draw();
  } });
  const emotes = h("div", { class: "row emotes", id: "emotes" },
    Object.entries(EMOTES).map(([name, glyph]) => h("button", {
      type: "button", class: "secondary emote", "data-emote": name, title: t(`chat.emote.${name}`),
      "aria-label": t(`chat.emote.${name}`), onclick: () => socket.send({ type: "react", emote: name }),
    }, glyph)));
  const box = h("section", { class: "card chat-box", id: "chat", "aria-labelledby": "chat-title" });

  function draw() {
    muteButton.textContent = muted ? t("chat.unmute") : t("chat.mute");
    clear(box, h("div", { class: "row" }, h("h2", { id: "chat-title" }, t("chat.title")), muteButton),
      emotes, muted ? h("p", { class: "hint" }, t("chat.muted")) : [lines, form]);
  }

  function heard(message) {
    if (muted) return;
    const who = message.from?.name ?? t("chat.someone");
    const where = message.from?.side ? "" : ` (${t("chat.spectator")})`;
    const said = message.type === "reaction" ? (EMOTES[message.emote] ?? "") : message.text;
    lines.append(h("li", { class: message.from?.side ? "player" : "spectator" },
      h("strong", {}, `${who}${where}: `), said));
    while (lines.children.length > KEEP) lines.firstElementChild.remove();
    lines.scrollTop = lines.scrollHeight;
  }

  draw();
  return { box, heard, redraw: draw };
}
