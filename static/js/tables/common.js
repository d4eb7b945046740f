// Pieces both tables use: dice faces, the bases diamond, outs, countdowns, action buttons.
import { h, s } from "../dom.js";
import { t, tn } from "../i18n.js";

/** A die showing ``face``; ``words`` (text or nodes) say what it means; ``fresh`` animates. */
export function die(label, face, words, fresh = false, testid = "") {
  return h("figure", { class: `die${fresh ? " rolling" : ""}${face == null ? " blank" : ""}`, "data-die": testid || label, "data-key": `die-${testid || label}` },
    h("div", { class: "face", "aria-hidden": "true", translate: "no" }, face == null ? "–" : String(face)),
    h("figcaption", {}, h("span", { class: "die-name" }, label), face == null ? "" : h("span", { class: "die-words" }, words)));
}

/** The diamond with runners: ``bases`` is "100" for a runner on first. */
export function diamond(bases) {
  const on = (i) => (bases || "000")[i] === "1";
  const base = (x, y, i) => s("rect", { x: x - 9, y: y - 9, width: 18, height: 18, transform: `rotate(45 ${x} ${y})`,
    class: on(i) ? "base on" : "base" });
  const names = [1, 2, 3].filter((_, i) => on(i)).map((n) => t("game.base_n", { n }));
  return h("div", { class: "diamond", role: "img", "aria-label": `${t("game.bases")}: ${names.join(", ") || t("game.bases_empty")}`, "data-bases": bases },
    s("svg", { viewBox: "0 0 120 100", width: 120, height: 100 },
      s("path", { d: "M60 90 L105 50 L60 10 L15 50 Z", class: "infield" }),
      base(105, 50, 0), base(60, 12, 1), base(15, 50, 2),
      s("rect", { x: 53, y: 83, width: 14, height: 14, class: "base home" })));
}

export function outs(n, max = 3) {
  return h("span", { class: "outs", "aria-label": `${t("game.outs")}: ${n}`, "data-outs": n },
    h("span", { class: "label" }, t("game.outs")), " ",
    Array.from({ length: max }, (_, i) => h("span", { class: i < n ? "dot on" : "dot", "aria-hidden": "true" })));
}

export function count(balls, strikes) {
  return h("span", { class: "count", "data-count": `${balls}-${strikes}` },
    h("span", { class: "label" }, t("game.count")), ` ${balls}-${strikes}`);
}

/** Seconds left on a side's deadline, updated by the page's ticking clock. */
export function countdown(deadline) {
  if (!deadline) return null;
  return h("span", { class: "countdown", "data-deadline": deadline.at, "aria-live": "off" }, "");
}

export function tickCountdowns(root) {
  const now = Date.now();
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Date.parse(el.dataset.deadline) - now) / 1000));
    const text = t("game.countdown", { s: left });
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", left <= 5);
  }
}

/** A button that sends ``action`` (read by the page's one click handler from ``data-act``, so
 * the button may be kept across redraws); its key is the action, so the same action keeps
 * the same button. ``big`` for roll buttons. */
export function actionButton(model, action, label, { big = false, title = "", extra = "" } = {}) {
  const act = JSON.stringify(action);
  return h("button", {
    type: "button", class: `action${big ? " big" : ""} ${extra}`.trim(), "data-action": action.type,
    "data-act": act, "data-key": act, title: title || undefined, disabled: model.busy || undefined,
  }, label);
}

export function waitingLine(model, side) {
  if (!side) return null;
  if (side === model.side) return h("strong", { class: "your-move" }, t("game.your_move"));
  return h("span", {}, tn("game.their_move", { side: model.who(side) }));
}

/** The action bar: whose move, the other side's last action, the buttons, a message line. */
export function actionBar(model, prompt, buttons) {
  return h("section", { class: "prompt", "aria-live": "polite", "data-testid": "prompt", "data-key": "prompt" },
    h("div", { class: "bar-status", "data-key": "status" }, prompt),
    // Always one line, empty before the other side has moved, so the buttons below it never
    // move when it fills.
    model.lastOther ? h("p", { class: "their-action", "data-seq": model.lastOther.seq, "data-key": `their-${model.lastOther.seq}` }, "↪ ", model.lastOther.text)
      : h("p", { class: "their-action empty", "data-key": "their-none", "aria-hidden": "true" }),
    h("div", { class: "actions", "data-key": "actions" }, buttons),
    h("p", { class: "bar-note", "data-toast-sink": "", "data-key": "note", role: "status" }));
}

/** "Home wins 2–1 (final)": the winner's score first; a tie "Tie game 2–2". */
export function gameOverText(result, who, withScore = true) {
  const score = withScore && result.score && Object.keys(result.score).length ? result.score : null;
  const reason = result.reason ? ` (${t(`reason.${String(result.reason).replaceAll(" ", "_")}`)})` : "";
  if (!result.winner) return [`${t("game.tie")}${score ? ` ${score.home}–${score.away}` : ""}${reason}`];
  const loser = result.winner === "home" ? "away" : "home";
  const line = score ? ` ${score[result.winner]}–${score[loser]}` : "";
  return [...tn("game.winner", { side: who(result.winner) }), `${line}${reason}`];
}
