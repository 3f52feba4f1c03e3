// The keys that step a timeline, shared by the lesson view and the side-by-side view, and
// the letter a shortcut key names.

/** Where a key moves a position 0..last: ← → one step, Home / End to the ends; null for other keys. */
export function stepKeyTarget(key, step, last) {
  switch (key) {
    case 'ArrowLeft':
      return step - 1;
    case 'ArrowRight':
      return step + 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/**
 * The letter a key names, in lower case, whatever its case: 'n' for n, for Shift+N and for
 * N with Caps Lock on; null for a key that is no letter. A letter shortcut is this letter.
 */
export function letterKey(key) {
  return typeof key === 'string' && /^[a-z]$/i.test(key) ? key.toLowerCase() : null;
}
