// When it is this player's move, the tab says so: its title and its icon, so a player in
// another tab sees it at a glance.
import { t } from "./i18n.js";

const ICON = "/static/icons/favicon.svg";
const ICON_MOVE = "/static/icons/favicon-move.svg";

let on = false;

function icon(href) {
  const link = document.querySelector("link[rel='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** ``yes``: it is the viewer's move in game ``name``; else the page's own title comes back. */
export function showYourMove(yes, name = "") {
  if (yes) {
    document.title = `● ${t("title.your_move")} · ${name || t("brand")}`;
    icon(ICON_MOVE);
  } else if (on) {
    document.title = t("brand");
    icon(ICON);
  }
  on = yes;
}
