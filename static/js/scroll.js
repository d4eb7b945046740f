// Tables wider than a phone scroll sideways inside their own box; a box that does says so
// ("swipe for more") and shades its edge, so nobody thinks the table ends at the screen's edge.
import { t } from "./i18n.js";

const watched = new WeakSet();
const sizes = new ResizeObserver((entries) => { for (const entry of entries) mark(entry.target); });

function mark(box) {
  const overflows = box.scrollWidth > box.clientWidth + 1;
  if (overflows) {
    box.dataset.overflow = box.scrollLeft + box.clientWidth >= box.scrollWidth - 1 ? "end" : "more";
    box.dataset.hint = t("common.scroll_hint");
  } else {
    delete box.dataset.overflow;
  }
}

function watch(root) {
  const boxes = [...(root.matches?.(".box") ? [root] : []), ...(root.querySelectorAll?.(".box") ?? [])];
  for (const box of boxes) {
    if (watched.has(box)) continue;
    watched.add(box);
    box.addEventListener("scroll", () => mark(box), { passive: true });
    sizes.observe(box);
    mark(box);
  }
}

export function watchScrollBoxes(root) {
  watch(root);
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) if (node.nodeType === 1) watch(node);
  }).observe(root, { childList: true, subtree: true });
}
