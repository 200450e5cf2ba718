// Share links: the position compressed (deflate-raw) and base64url-encoded in the URL's hash.

function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The hash (without '#') that restores this ruleset and position. */
export async function encodeShare(ruleset, position) {
  const packed = await pipe(new TextEncoder().encode(JSON.stringify(position)), new CompressionStream("deflate-raw"));
  return `r=${encodeURIComponent(ruleset)}&p=${toBase64Url(packed)}`;
}

/** {ruleset, position} from a share hash, or null when the hash is not one; throws on a damaged one. */
export async function decodeShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const ruleset = params.get("r"), packed = params.get("p");
  if (!ruleset || !packed) return null;
  try {
    const bytes = await pipe(fromBase64Url(packed), new DecompressionStream("deflate-raw"));
    return { ruleset, position: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    throw new Error("This share link is damaged: its position could not be read. Ask for the link again.");
  }
}

/** Offer `text` as a file download. */
export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
