// Korean particles that depend on the word before them: 을/를, 이/가, 은/는, 과/와, 으로/로.
// tests/web/test_words.py checks them on a list of words.

const PAIRS = [["을", "를"], ["이", "가"], ["은", "는"], ["과", "와"], ["으로", "로"]];
const RIEUL = 8;  // ㄹ as a final consonant: "로", not "으로"

// How digits and Latin letters end when read aloud in Korean: the final consonant's index
// (0 = none). 1 일, 3 삼, 6 육, 7 칠, 8 팔, 0 영; the letters L 엘, M 엠, N 엔, R 알.
const DIGIT_FINAL = { 0: 21, 1: 8, 3: 16, 6: 1, 7: 8, 8: 8 };
const LETTER_FINAL = { L: 8, M: 16, N: 4, R: 8 };
// A Latin word read as a word ("Tigers" 타이거스, "Bob" 밥): a final b, c, d, g, k, l, m, n,
// p or t is a consonant that closes the syllable.
const WORD_FINAL = { b: 17, c: 1, d: 7, g: 1, k: 1, l: 8, m: 16, n: 4, p: 17, t: 7 };

/** The final consonant's index of the last sound of ``word`` (0 when it ends in a vowel). */
export function finalConsonant(word) {
  const text = String(word).replace(/[\s)\]}"'’”.,!?·]+$/u, "");
  const last = text.at(-1) ?? "";
  const code = last.codePointAt(0) ?? 0;
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28;
  if (/[0-9]/.test(last)) return DIGIT_FINAL[last] ?? 0;
  if (/[A-Za-z]/.test(last)) {
    const tail = text.match(/[A-Za-z]+$/)[0];
    if (tail === tail.toUpperCase()) return LETTER_FINAL[last] ?? 0;  // a code: read letter by letter
    return WORD_FINAL[last.toLowerCase()] ?? 0;
  }
  return 0;
}

/** The particle of the pair ``josa`` names (either form) that follows ``word``. */
export function particle(word, josa) {
  const pair = PAIRS.find((p) => p.includes(josa));
  if (!pair) return josa;
  const final = finalConsonant(word);
  if (pair[0] === "으로") return final === 0 || final === RIEUL ? "로" : "으로";
  return final === 0 ? pair[1] : pair[0];
}
