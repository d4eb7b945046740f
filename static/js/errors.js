// Every error the server sends, in words for people; a code without words shows the server's.
import { has, t } from "./i18n.js";

export function describe(error) {
  const code = error?.code ?? "unknown";
  const message = error?.message ?? String(error);
  const key = `err.${code}`;
  return has(key) ? t(key, { message }) : t("err.unknown", { message });
}

let timer = null;

/** Shows a message in the alert region for a few seconds. */
export function toast(text, kind = "error") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { el.hidden = true; }, 5000);
}

export function showError(error) { toast(describe(error), "error"); }
