// The keys that step a timeline, shared by the lesson view and the side-by-side view.

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
