// The two games and Base on Board's tiers: names every page shares (their words are in the
// string catalogues as kind.<game> and tier.<tier>).
import { t } from "./i18n.js";

export const GAMES = ["base-on-board", "bottom-of-the-9th"];
export const TIERS = ["pro", "lite", "lite-extended"];

export function gameName(kind) { return GAMES.includes(kind) ? t(`kind.${kind}`) : String(kind ?? ""); }
export function tierName(tier) { return TIERS.includes(tier) ? t(`tier.${tier}`) : String(tier ?? ""); }

/** A rating pool's name: the game, and the tier in brackets ("base-on-board:pro"). */
export function poolName(pool) {
  const [kind, tier] = String(pool).split(":");
  return tier ? `${gameName(kind)} (${tierName(tier)})` : gameName(kind);
}
