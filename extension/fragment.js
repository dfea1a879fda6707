// Text fragments (#:~:text=…): the link that opens a cited page scrolled to the evidence and marks it.
// Pure, so the unit tests run it in Node.

/** A text fragment for a quote: its first and last words, percent-encoded as the syntax asks (- , &). */
export function textFragment(quote) {
  const words = quote.replace(/\s+/g, " ").trim().split(" ");
  const enc = (s) => encodeURIComponent(s).replace(/-/g, "%2D").replace(/,/g, "%2C").replace(/&/g, "%26");
  if (words.length <= 8) return `#:~:text=${enc(words.join(" "))}`;
  return `#:~:text=${enc(words.slice(0, 4).join(" "))},${enc(words.slice(-4).join(" "))}`;
}
