// Checks a finished game's dice in the browser: the seed matches its published hash, and every
// draw is HMAC-SHA256(seed, "game_id:index") read as in app.engines.dice.hmac_below.
function hex(bytes) { return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join(""); }
function unhex(text) { return new Uint8Array(text.match(/../g).map((b) => parseInt(b, 16))); }

export async function verifyFairness(proof) {
  const seed = unhex(proof.seed);
  const hash = hex(await crypto.subtle.digest("SHA-256", seed));
  if (hash !== proof.seed_hash) return { ok: false, why: "seed hash" };
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const encoder = new TextEncoder();
  for (const draw of proof.draws) {
    const limit = 2 ** 32 - (2 ** 32 % draw.n);
    let value = null;
    for (let block = 0; value === null && block < 50; block += 1) {
      const message = block === 0 ? `${proof.game_id}:${draw.index}` : `${proof.game_id}:${draw.index}:${block}`;
      const view = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
      for (let offset = 0; offset < 32; offset += 4) {
        const candidate = view.getUint32(offset, false);
        if (candidate < limit) { value = candidate % draw.n; break; }
      }
    }
    if (value !== draw.value) return { ok: false, why: `draw ${draw.index}` };
  }
  return { ok: true, count: proof.draws.length };
}
