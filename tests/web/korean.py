"""Checks a rendered page for English left in Korean, and for codes without their words."""

from __future__ import annotations

from typing import Any

ENGLISH_IN_KOREAN = """() => {
  const found = [];
  const exempt = (el) => el.closest('[translate="no"], code, script, style, noscript');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || exempt(el) || el.closest("select")) continue;
    if (!el.checkVisibility({ checkVisibilityCSS: true })) continue;
    const latin = node.nodeValue.match(/[A-Za-z]+/g);
    const where = `<${el.tagName.toLowerCase()} class="${el.className}">`;
    if (latin) found.push(`${latin.join(" ")} | ${where} ${node.nodeValue.trim().slice(0, 70)}`);
  }
  // Words people read in attributes and menus: an English word has a small letter (codes
  // such as M01 or SB2 are capitals and digits); a name the page shows as a name (in a
  // translate="no" element) may be said in a label too.
  const word = /[A-Za-z]*[a-z][A-Za-z]*/g;
  const names = new Set([...document.querySelectorAll('[translate="no"]')]
    .flatMap((el) => el.textContent.match(/[A-Za-z]+/g) ?? []));
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], option")) {
    if (exempt(el)) continue;
    const said = ["title", "aria-label", "placeholder"].map((name) => el.getAttribute(name));
    for (const text of [...said, el.tagName === "OPTION" ? el.textContent : null]) {
      const latin = text?.match(word)?.filter((w) => !names.has(w));
      const tag = el.tagName.toLowerCase();
      if (latin?.length) found.push(`${latin.join(" ")} | <${tag}> ${text.slice(0, 70)}`);
    }
  }
  return found;
}"""

CODES_WITHOUT_WORDS = """(root) => [...document.querySelectorAll(root + " [data-code]")]
  .filter((el) => !(el.querySelector(".tip")?.textContent.trim()))
  .map((el) => el.dataset.code)"""


def english_in_korean(page: Any) -> list[str]:
    """Latin letters a Korean reader sees outside codes and names (``translate="no"``)."""
    assert page.evaluate("document.documentElement.lang") == "ko"
    return list(page.evaluate(ENGLISH_IN_KOREAN))


def codes_without_words(page: Any, root: str) -> list[str]:
    """Codes shown under ``root`` (a selector) that have no glossary tip."""
    return list(page.evaluate(CODES_WITHOUT_WORDS, root))
