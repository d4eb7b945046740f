// Every error the server sends, in words for people; a code without words shows the server's.
import { has, t } from "./i18n.js";

export function describe(error) {
  const code = error?.code ?? "unknown";
  const message = error?.message ?? String(error);
  const key = `err.${code}`;
  return has(key) ? t(key, { message }) : t("err.unknown", { message });
}

let timer = null;
let sink = null;

/** Where a page wants its messages (the room: its action bar), instead of the line under the
 * header; ``null`` gives them back to that line. */
export function setToastSink(fn) { sink = fn; }

/** Shows a message for a few seconds where it covers nothing. */
export function toast(text, kind = "error") {
  if (sink) { sink(text, kind); return; }
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { el.hidden = true; }, 5000);
}

export function showError(error) { toast(describe(error), "error"); }
