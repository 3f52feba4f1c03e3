// Undo and redo of sandbox edits: states as JSON text (each a whole scenario and plan, so
// an undo restores exactly what was shown). Bounded: the oldest edits drop off.

export const MAX_UNDO = 200; // a long session of clicks; each entry is a few KB

export class History {
  constructor() {
    this.past = [];
    this.future = [];
  }

  /** Both stacks, to keep (toJSON) and take back (History.from). */
  toJSON() {
    return { past: this.past, future: this.future };
  }

  /** A history kept with toJSON; entries that are not state texts are left out. */
  static from(saved) {
    const out = new History();
    const texts = (xs) => (Array.isArray(xs) ? xs.filter((x) => typeof x === 'string').slice(-MAX_UNDO) : []);
    out.past = texts(saved && saved.past);
    out.future = texts(saved && saved.future);
    return out;
  }

  /** An edit happened: `before` is the state it replaced. */
  push(before) {
    this.past.push(JSON.stringify(before));
    if (this.past.length > MAX_UNDO) this.past.shift();
    this.future = [];
  }

  canUndo() {
    return this.past.length > 0;
  }

  canRedo() {
    return this.future.length > 0;
  }

  /** What undo() or redo() (`which`) would give, without taking it: a state or null. */
  peek(which) {
    const stack = which === 'undo' ? this.past : this.future;
    return stack.length ? JSON.parse(stack[stack.length - 1]) : null;
  }

  /** The state before `current`, or null. */
  undo(current) {
    if (!this.past.length) return null;
    this.future.push(JSON.stringify(current));
    return JSON.parse(this.past.pop());
  }

  /** The state undone last, or null. */
  redo(current) {
    if (!this.future.length) return null;
    this.past.push(JSON.stringify(current));
    return JSON.parse(this.future.pop());
  }
}
