// Text files as the page reads them (lesson files, the index, progress imports): UTF-8 or
// an error that names the line of the first byte that is not, never text with
// replacement characters that fails later for a reason that hides this.

/**
 * A file's bytes (ArrayBuffer or typed array) as UTF-8 text: {text}, or {error: {kind:
 * 'encoding', line}} with the line (from 1) of the first byte that is not UTF-8 (a file
 * saved as GBK or Latin-1).
 */
export function decodeUtf8(bytes) {
  const u8 = new Uint8Array(bytes);
  const decodes = (n) => {
    try {
      // Streaming: a sequence cut by the end of the prefix is no error, a wrong byte is.
      new TextDecoder('utf-8', { fatal: true }).decode(u8.subarray(0, n), { stream: n < u8.length });
      return true;
    } catch (_) {
      return false;
    }
  };
  if (decodes(u8.length)) return { text: new TextDecoder('utf-8').decode(u8) };
  // The longest prefix that decodes (every shorter one does too): the wrong byte is next.
  let lo = 0;
  let hi = u8.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (decodes(mid)) lo = mid;
    else hi = mid - 1;
  }
  let line = 1;
  for (let i = 0; i < lo; i += 1) if (u8[i] === 10) line += 1;
  return { error: { kind: 'encoding', line } };
}

/** Whether bytes look like no text at all (a picture, an archive): control codes near the start. */
export function looksBinary(bytes) {
  const u8 = new Uint8Array(bytes).subarray(0, 512);
  return u8.some((b) => b < 9 || (b > 13 && b < 32));
}
