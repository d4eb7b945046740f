// Sign-in: register, log in, or play as a guest; explains the three-device limit.
import { post, setSession } from "../api.js";
import { h } from "../dom.js";
import { describe, toast } from "../errors.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";

export function signinPage(app) {
  const back = new URLSearchParams(location.search).get("next") || "/";
  const message = h("p", { class: "form-error", role: "alert", "aria-live": "assertive", id: "signin-error" });
  const name = h("input", { id: "signin-name", name: "name", autocomplete: "username", required: true,
    minlength: 2, maxlength: 24, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{1,23}" });
  const password = h("input", { id: "signin-password", name: "password", type: "password",
    autocomplete: "current-password", minlength: 8 });

  async function submit(kind) {
    message.textContent = "";
    try {
      const body = kind === "guest" ? {} : { name: name.value.trim(), password: password.value };
      const result = await post(`/api/auth/${kind}`, body);
      setSession({ token: result.token, account: result.account });
      if (result.ended_sessions > 0) toast(t("signin.devices", { max: 3, n: result.ended_sessions }), "info");
      navigate(back);
    } catch (error) {
      message.textContent = describe(error);
    }
  }

  const form = h("form", { class: "card narrow", onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    h("h1", {}, t("signin.title")),
    h("label", { for: "signin-name" }, t("signin.name")), name,
    h("label", { for: "signin-password" }, t("signin.password")), password,
    h("p", { class: "hint" }, t("signin.hint")),
    h("div", { class: "row" },
      h("button", { type: "submit", id: "login" }, t("signin.login")),
      h("button", { type: "button", id: "register", onclick: () => submit("register") }, t("signin.register"))),
    h("hr"),
    h("button", { type: "button", id: "guest", class: "secondary", onclick: () => submit("guest") }, t("signin.guest")),
    h("p", { class: "hint", id: "device-limit" }, t("signin.devices_rule")),
    message);
  app.append(form);
  name.focus();
  return null;
}
