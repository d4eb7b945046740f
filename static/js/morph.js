// Updates a drawn element to look like a freshly built one, changing only what differs, so a
// button that is still offered stays the same element: it does not flicker, keep-focus works,
// and a click already on its way lands on it. Children with a ``data-key`` are matched by key
// (an action button's key is its action), the others by position among the unkeyed.
// Event listeners are not copied: elements that must react use delegated handlers and data
// attributes (tables/common.js actionButton).

function keyOf(node) {
  return node.nodeType === 1 && node.getAttribute("data-key") !== null
    ? `${node.nodeName}|${node.getAttribute("data-key")}` : null;
}

function sameKind(a, b) { return a.nodeType === b.nodeType && a.nodeName === b.nodeName; }

function morphAttributes(from, to) {
  for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
  for (const { name, value } of [...to.attributes]) if (from.getAttribute(name) !== value) from.setAttribute(name, value);
}

function morphNode(from, to) {
  if (from.nodeType === 3 || from.nodeType === 8) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  morphAttributes(from, to);
  morphChildren(from, [...to.childNodes]);
}

/** Makes ``parent``'s children look like ``wanted`` (nodes not yet in the document). */
export function morphChildren(parent, wanted) {
  const olds = [...parent.childNodes];
  const keyed = new Map();
  const unkeyed = [];
  for (const node of olds) {
    const key = keyOf(node);
    if (key !== null && !keyed.has(key)) keyed.set(key, node); else unkeyed.push(node);
  }
  let next = 0;
  const result = wanted.map((node) => {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      match = keyed.get(key) ?? null;
      keyed.delete(key);
    } else {
      const at = unkeyed.findIndex((old, i) => i >= next && sameKind(old, node));
      if (at >= 0) { match = unkeyed[at]; next = at + 1; }
    }
    if (!match) return node;
    morphNode(match, node);
    return match;
  });
  const keep = new Set(result);
  for (const node of olds) if (!keep.has(node)) node.remove();
  result.forEach((node, i) => {
    if (parent.childNodes[i] !== node) parent.insertBefore(node, parent.childNodes[i] ?? null);
  });
}

/** ``morphChildren`` for one new element or a list of them. */
export function morph(parent, ...children) {
  morphChildren(parent, children.flat(Infinity).filter((c) => c instanceof Node));
  return parent;
}
