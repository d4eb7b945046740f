// Clubs: the list (search, pages), a form to found one, the invitations to me; and one club's
// page (roster, record, rating, batting and pitching lines, recent games) with what its owners
// (invite by name, remove, promote) and members (leave) may do. The server decides who may do
// what: the buttons only show what it would allow, and any refusal is shown as it says.
import { del, get, post, session } from "../api.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";

const PAGE = 20;

/** A club as a link to its page, with its colours as a swatch (the lobby's rows use it too). */
export function clubLink(club) {
  return h("a", { href: `/clubs/${encodeURIComponent(club.code)}`, "data-link": true, translate: "no", class: "club-link" },
    h("span", { class: "club-swatch", style: `background:${club.colors?.primary ?? "#888"};border-color:${club.colors?.secondary ?? "#fff"}`, "aria-hidden": "true" }),
    `${club.name} (${club.code})`);
}

function field(id, label, input) {
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function invitationsCard(refresh) {
  const box = h("div", { class: "card", id: "my-invitations" }, h("h2", {}, t("clubs.invitations")), t("common.loading"));
  get("/api/clubs/invitations").then((list) => {
    const error = h("p", { class: "form-error", role: "alert" });
    const act = (code, what) => async () => {
      try { await post(`/api/clubs/${encodeURIComponent(code)}/${what}`); refresh(); } catch (e) { error.textContent = describe(e); }
    };
    clear(box, h("h2", {}, t("clubs.invitations")),
      list.length ? h("ul", { class: "plain" }, list.map((i) => h("li", { "data-invite": i.club.code },
        clubLink(i.club), " ",
        h("button", { type: "button", class: "small", "data-accept": i.club.code, onclick: act(i.club.code, "accept") }, t("clubs.accept")), " ",
        h("button", { type: "button", class: "small secondary", "data-decline": i.club.code, onclick: act(i.club.code, "decline") }, t("clubs.decline")))))
        : h("p", {}, t("clubs.no_invitations")),
      error);
  }).catch((e) => clear(box, h("p", { class: "form-error" }, describe(e))));
  return box;
}

function createCard() {
  const error = h("p", { class: "form-error", role: "alert" });
  async function create(event) {
    event.preventDefault();
    error.textContent = "";
    const data = new FormData(event.target);
    const body = { name: String(data.get("name") || ""), code: String(data.get("code") || "").toUpperCase(),
      colors: { primary: data.get("primary"), secondary: data.get("secondary") } };
    try {
      const club = await post("/api/clubs", body);
      navigate(`/clubs/${encodeURIComponent(club.code)}`);
    } catch (e) { error.textContent = describe(e); }
  }
  return h("form", { class: "card", id: "create-club", onsubmit: create },
    h("h2", {}, t("clubs.create")),
    field("club-name", t("clubs.name"), h("input", { name: "name", required: true, maxlength: 32 })),
    field("club-code", t("clubs.code"), h("input", { name: "code", required: true, minlength: 2, maxlength: 4, pattern: "[A-Za-z0-9]{2,4}", autocapitalize: "characters" })),
    h("div", { class: "field-row" },
      field("club-primary", t("clubs.primary"), h("input", { name: "primary", type: "color", value: "#1d4ed8" })),
      field("club-secondary", t("clubs.secondary"), h("input", { name: "secondary", type: "color", value: "#ffffff" }))),
    h("p", { class: "hint" }, t("clubs.create_hint")),
    h("button", { type: "submit", id: "create-club-submit" }, t("clubs.create_submit")),
    error);
}

export function clubsPage(app) {
  const me = session();
  const list = h("div", { id: "clubs-list", "aria-live": "polite" }, t("common.loading"));
  const search = h("input", { type: "search", id: "clubs-q", name: "q", maxlength: 32, placeholder: t("clubs.search") });
  let offset = 0;
  let asked = 0;

  async function load() {
    const mine = ++asked;
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (search.value.trim()) params.set("q", search.value.trim());
    try {
      const page = await get(`/api/clubs?${params}`);
      if (mine !== asked) return;
      const more = offset + page.clubs.length < page.total;
      clear(list,
        page.clubs.length ? h("div", { class: "box" }, h("table", { class: "data board", id: "clubs-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, t("clubs.club")), h("th", { scope: "col" }, t("clubs.members_count")))),
          h("tbody", {}, page.clubs.map((c) => h("tr", { "data-club": c.code },
            h("th", { scope: "row", class: "name" }, clubLink(c)), h("td", {}, c.members))))))
          : h("p", {}, t("clubs.none")),
        h("div", { class: "field-row" },
          offset > 0 ? h("button", { type: "button", class: "small secondary", id: "clubs-prev", onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, t("clubs.prev")) : null,
          more ? h("button", { type: "button", class: "small secondary", id: "clubs-next", onclick: () => { offset += PAGE; load(); } }, t("clubs.next")) : null));
    } catch (e) { if (mine === asked) clear(list, h("p", { class: "form-error" }, describe(e))); }
  }
  search.addEventListener("input", () => { offset = 0; load(); });

  function draw() {
    const guest = me?.account?.is_guest;
    clear(app,
      h("h1", {}, t("clubs.title")),
      me && !guest ? invitationsCard(draw) : null,
      me && !guest ? createCard() : h("p", { class: "hint", id: "clubs-signin" }, t("clubs.signin_hint")),
      h("section", { class: "card" }, h("h2", {}, t("clubs.all")), search, list));
    load();
  }
  draw();
  return { stop() { asked += 1; } };
}

function line(cells) {
  const heads = Object.keys(cells);
  return h("div", { class: "box" }, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", { scope: "col" }, k)))),
    h("tbody", {}, h("tr", {}, heads.map((k) => h("td", { "data-stat": k }, cells[k]))))));
}

const BATTING = ["PA", "AB", "H", "2B", "3B", "HR", "BB", "K", "SB", "AVG", "OBP", "SLG"];
const PITCHING = ["IP", "BF", "H", "HR", "BB", "K", "R"];

function poolCard(pool) {
  const pick = (src, keys) => Object.fromEntries(keys.map((k) => [k, typeof src[k] === "number" && !Number.isInteger(src[k]) ? src[k].toFixed(3) : src[k]]));
  const rating = pool.rating;
  return h("section", { class: "card", "data-pool": pool.pool },
    h("h3", {}, pool.pool),
    h("p", {}, t("clubs.pool_record", { wins: pool.wins, losses: pool.losses, ties: pool.ties, rf: pool.runs_for, ra: pool.runs_against }), " · ",
      h("span", { class: "club-rating", "data-rating": rating ? rating.rating : "" },
        rating ? t("clubs.rating", { rating: `${rating.rating}${rating.provisional ? "?" : ""}`, games: rating.games }) : t("clubs.unrated"))),
    h("h4", {}, t("clubs.batting")), line(pick(pool.batting, BATTING)),
    h("h4", {}, t("clubs.pitching")), line(pick(pool.pitching, PITCHING)));
}

function recentCard(games) {
  return h("section", { class: "card" }, h("h2", {}, t("clubs.recent")),
    games.length ? h("ul", { class: "plain", id: "club-recent" }, games.map((g) => h("li", { "data-game": g.game_id },
      h("a", { href: g.link, "data-link": true }, `${t(`clubs.outcome.${g.outcome}`)} ${g.score.away ?? "?"}–${g.score.home ?? "?"}`),
      " ", t("clubs.versus"), " ", g.opponent ? clubLink(g.opponent) : t("clubs.pickup"))))
      : h("p", {}, t("clubs.no_games")));
}

export function clubPage(app, code) {
  let stopped = false;
  const error = h("p", { class: "form-error", role: "alert", id: "club-error" });

  async function act(fn) {
    error.textContent = "";
    try { await fn(); await load(); } catch (e) { error.textContent = describe(e); }
  }

  async function load() {
    let club;
    try { club = await get(`/api/clubs/${encodeURIComponent(code)}`); } catch (e) {
      if (!stopped) clear(app, h("h1", {}, t("clubs.title")), h("p", { class: "form-error" }, describe(e)));
      return;
    }
    if (stopped) return;
    const me = session();
    const owner = club.my_role === "owner";
    const ref = encodeURIComponent(club.code);
    const roster = h("ul", { class: "plain", id: "club-roster" }, club.members.map((m) => h("li", { "data-member": m.name, "data-role": m.role },
      h("a", { href: `/players/${encodeURIComponent(m.name)}`, "data-link": true, translate: "no" }, m.name), " ",
      h("span", { class: "role" }, t(`clubs.role.${m.role}`)),
      owner && m.account_id !== me?.account?.id ? [" ",
        m.role !== "owner" ? h("button", { type: "button", class: "small secondary", "data-promote": m.name,
          onclick: () => act(() => post(`/api/clubs/${ref}/members/${encodeURIComponent(m.account_id)}/promote`)) }, t("clubs.promote")) : null, " ",
        h("button", { type: "button", class: "small secondary", "data-remove": m.name,
          onclick: () => act(() => del(`/api/clubs/${ref}/members/${encodeURIComponent(m.account_id)}`)) }, t("clubs.remove"))] : null)));
    const inviteForm = owner ? h("form", { class: "field-row", id: "club-invite", onsubmit: (event) => {
      event.preventDefault();
      const name = new FormData(event.target).get("name");
      act(() => post(`/api/clubs/${ref}/invites`, { name }));
    } }, field("club-invite-name", t("clubs.invite_name"), h("input", { name: "name", required: true, maxlength: 32 })),
      h("button", { type: "submit", id: "club-invite-submit" }, t("clubs.invite"))) : null;
    const pending = h("div", { id: "club-pending" });
    if (owner) {
      get(`/api/clubs/${ref}/invites`).then((list) => {
        if (!list.length || stopped) return;
        clear(pending, h("h3", {}, t("clubs.pending")), h("ul", { class: "plain" }, list.map((i) => h("li", { "data-pending": i.name },
          h("span", { translate: "no" }, i.name), " ",
          h("button", { type: "button", class: "small secondary", onclick: () => act(() => del(`/api/clubs/${ref}/invites/${encodeURIComponent(i.account_id)}`)) }, t("clubs.withdraw"))))));
      }).catch(() => {});
    }
    const record = club.record;
    clear(app,
      h("h1", { id: "club-title", style: `border-left: 8px solid ${club.colors.primary}; padding-left: 8px` },
        h("span", { translate: "no" }, club.name), " ", h("small", { translate: "no" }, club.code)),
      h("p", { id: "club-record", "data-wins": record.wins, "data-losses": record.losses, "data-ties": record.ties },
        t("clubs.record", { games: record.games, wins: record.wins, losses: record.losses, ties: record.ties, rf: record.runs_for, ra: record.runs_against })),
      club.invited ? h("p", {}, t("clubs.you_are_invited"), " ",
        h("button", { type: "button", id: "club-accept", onclick: () => act(() => post(`/api/clubs/${ref}/accept`)) }, t("clubs.accept"))) : null,
      h("section", { class: "card" }, h("h2", {}, t("clubs.roster")), roster, inviteForm, pending,
        club.my_role ? h("button", { type: "button", class: "small secondary", id: "club-leave",
          onclick: () => act(() => post(`/api/clubs/${ref}/leave`)) }, t("clubs.leave")) : null,
        error),
      Object.values(club.pools).map(poolCard),
      recentCard(club.recent));
  }
  clear(app, h("p", {}, t("common.loading")));
  load();
  return { stop() { stopped = true; } };
}
