// The sandbox's scenario state, apart from the views that draw it: the state in force (the
// scenario, the pinned policy A, the lesson it came from) with the engine's runs of it, its
// address code, the queue of edits (each asked of the engine in turn, on the state the
// edit before it left), Undo / Redo, and the refusal of the last edit. Plain data in and
// out, and events to subscribers; no DOM here (node tests: tests/wasm/sandbox-state.test.mjs).
//
// A state is {v: 1, s: scenario, from?: lesson id, ch?: lesson id (a challenge), a?: the
// pinned policy {client, service, provider}, at?, via?}. An answer of the engine is
// {state, run, pinRun, removed} or {errors} (views/sandbox-panels/shared.js evaluateState).

import { encodeState, decodeState } from './codec.js';
import { History } from './history.js';

export { encodeState, decodeState };

export const clone = (x) => JSON.parse(JSON.stringify(x));

/** The same fault, whatever its restart delay: kind, point, intent, attempt. */
export function faultKey(f) {
  const kind = ['drop', 'crash_client', 'crash_service', 'service_error', 'connect_error', 'lose_row'].find((k) => f[k]) || 'drop';
  return `${kind}:${f[kind]}:${f.intent || ''}:${f.attempt || 1}`;
}

/**
 * Where a script action drawn at row `index` is in `script` now (-1: gone). An action is
 * the same whatever its time (a time edit may be waiting ahead of this one); of several
 * alike, the one at the drawn row, else the nearest.
 */
export function actionIndex(script, action, index) {
  const sameAs = (x) => JSON.stringify({ ...x, at: 0 }) === JSON.stringify({ ...action, at: 0 });
  let best = -1;
  (script || []).forEach((x, i) => {
    if (sameAs(x) && (best < 0 || Math.abs(i - index) < Math.abs(best - index))) best = i;
  });
  return best;
}

/** A state without its fault plan (what an explore result depends on). */
export const withoutFaults = (state) => JSON.stringify({ ...state.s, faults: [] }) + JSON.stringify(state.a || null);

/**
 * Events (subscribe(fn): fn(event)), each {type, ...}:
 *  - 'asking' {next, restore}: an edit (or Undo/Redo: restore) was asked; `next` is the state
 *    it would give now (null: nothing to do), before the engine answers;
 *  - 'changed' {before, latest, recorded}: an answer became the state in force; `latest`:
 *    no edit was asked after it (one asked since will answer in its turn);
 *  - 'refused' {errors, latest}: the engine refused an edit; the state is as it was;
 *  - 'redraw': the latest edit found nothing to do, but an earlier answer taken in while
 *    others waited was not drawn (latest false) and now must be;
 *  - 'busy' {busy}: edits wait (or no longer).
 */
export class SandboxState {
  /**
   * first: the engine's answer for the first state ({state, run, pinRun, removed});
   * evaluate(state): a promise of the engine's answer for a state (rejects: the engine
   * could not answer); history: an Undo history to go on with (a reload of the tab).
   */
  constructor({ first, evaluate, history = null }) {
    this.evaluate = evaluate;
    this.subscribers = new Set();
    this.queue = Promise.resolve(); // edits, one after the other, each on the state before it
    this.asked = 0; // edits asked for
    this.done = 0; // edits answered
    this.undrawn = false; // an answer taken in while a later edit waited
    this.editError = null; // the last refused edit's problems, until an edit is taken in
    this.closed = false;
    this.history = new History();
    this.takeAnswer(first);
    if (history) this.history = history;
  }

  subscribe(fn) {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  emit(event) {
    for (const fn of [...this.subscribers]) fn(event);
  }

  /** No more events; edits still queued are dropped. */
  close() {
    this.closed = true;
    this.subscribers.clear();
  }

  /** The address code of the state in force. */
  get code() {
    return this.codeOf;
  }

  /** Whether edits wait for the engine. */
  get busy() {
    return this.done < this.asked;
  }

  /** Resolves once every edit asked so far is answered (an explore or a check runs then). */
  settled() {
    return this.queue;
  }

  canUndo() {
    return this.history.canUndo();
  }

  canRedo() {
    return this.history.canRedo();
  }

  takeAnswer(result, { record = false } = {}) {
    if (record && this.state) this.history.push(this.state);
    this.state = result.state;
    this.run = result.run;
    this.pinRun = result.pinRun || null;
    this.last = this.run.steps.length - 1;
    this.removed = result.removed || [];
    this.preset = result.preset || null; // code mode: the knobs' own code and what it leaves out
    this.codeOf = encodeState(this.state);
  }

  /**
   * Queues a change of the state: `make()` gives the next state from the one in force when
   * its turn comes (null: nothing to do), the engine runs it, `then(result, latest)` takes
   * it in. Resolves to whether the state changed.
   */
  enqueue(make, then) {
    const n = ++this.asked;
    this.emit({ type: 'busy', busy: true });
    const turn = this.queue.then(async () => {
      if (this.closed) return false;
      let result = null; // null: nothing to do (what the edit changes is gone)
      try {
        const next = await make();
        if (next) result = await this.evaluate(next);
      } catch (e) {
        // The engine could not answer (it stopped: its notice offers a restart).
        result = { errors: [{ path: '', reason: (e && (e.reason || e.message)) || String(e) }] };
      }
      if (this.closed) return false;
      const latest = n === this.asked;
      const changed = result ? then(result, latest) : false;
      if (changed && !latest) this.undrawn = true;
      // The latest edit draws what the others took in, whether it changed anything or not
      // (a second Remove of one row finds nothing to do, but the first must be drawn).
      const redraw = latest && this.undrawn && !changed;
      if (latest) this.undrawn = false;
      if (redraw) this.emit({ type: 'redraw' });
      return changed;
    });
    this.queue = turn.catch(() => false);
    return turn.finally(() => {
      this.done += 1;
      if (!this.closed) this.emit({ type: 'busy', busy: this.busy });
    });
  }

  /**
   * An edit: `change(state)` changes a copy of the state in force when the edit's turn
   * comes (which may be newer than the one the control was drawn from): it finds what it
   * changes by identity, never by a drawn row number, and returns false when that is gone
   * (nothing to do). A refused edit leaves the state as it was.
   */
  edit(change, finish = null) {
    const nextOf = (st) => {
      const next = clone(st);
      return change(next) === false ? null : next;
    };
    this.emit({ type: 'asking', next: nextOf(this.state), restore: false });
    return this.enqueue(
      // `finish(next)`: a promise of the state to run, from the changed one (code mode asks
      // the engine for the knobs' code); it rejects when the engine cannot answer.
      () => {
        const next = nextOf(this.state);
        return next && finish ? finish(next) : next;
      },
      (result, latest) => {
        if (result.errors) {
          this.editError = result.errors;
          this.emit({ type: 'refused', errors: result.errors, latest });
          return false;
        }
        this.takeIn(result, latest, true);
        return true;
      },
    );
  }

  undo() {
    return this.restore('undo');
  }

  redo() {
    return this.restore('redo');
  }

  /** Undo or Redo: the state the history holds, taken in as an edit is but not recorded. */
  restore(which) {
    this.emit({ type: 'asking', next: this.history.peek(which), restore: true });
    return this.enqueue(
      () => this.history[which](this.state),
      (result, latest) => {
        if (result.errors) return false;
        this.takeIn(result, latest, false);
        return true;
      },
    );
  }

  takeIn(result, latest, recorded) {
    this.editError = null;
    const before = this.state;
    this.takeAnswer(result, { record: recorded });
    this.emit({ type: 'changed', before, latest, recorded });
  }

  // --- the edits the sandbox offers ----------------------------------------------------

  /** A knob's value (undefined: unset, its default). */
  setKnob(group, name, value, finish = null) {
    return this.edit((st) => {
      st.s[group] = st.s[group] || {};
      if (value === undefined) delete st.s[group][name];
      else st.s[group][name] = value;
      // A scenario with retry layers takes its attempts from them: the reader refuses
      // max_attempts and retry_after_ms beside retry_layers (lessons/README.md).
      if (group === 'client' && name === 'retry_layers') {
        if (Array.isArray(value) && value.length) {
          delete st.s.client.max_attempts;
          delete st.s.client.retry_after_ms;
        } else {
          delete st.s.client.retry_layers;
        }
      }
    }, finish);
  }

  /**
   * Code mode: the client's code (`code`: Lua text; null: the built-in client again). To
   * code, the script keeps only the actions `keep(action)` allows, and `finish` may fill in
   * the code from the engine (the knobs' own code); one edit, one Undo step.
   */
  setCode(code, { keep = null, finish = null } = {}) {
    return this.edit((st) => {
      if (code === null) {
        if (st.s.code === undefined) return false;
        delete st.s.code;
        return true;
      }
      if (st.s.code === code) return false;
      st.s.code = code;
      if (keep && Array.isArray(st.s.script)) st.s.script = st.s.script.filter(keep);
      return true;
    }, finish);
  }

  /** Adds the fault at an injection point, or removes it when it is planned. */
  toggleFault(fault) {
    return this.edit((st) => {
      const key = faultKey(fault);
      const faults = st.s.faults || [];
      if (faults.some((f) => faultKey(f) === key)) st.s.faults = faults.filter((f) => faultKey(f) !== key);
      else st.s.faults = [...faults, clone(fault)];
    });
  }

  /** Removes a planned fault (found by faultKey, whatever its row by then). */
  removeFault(fault) {
    const key = faultKey(fault);
    return this.edit((st) => {
      const faults = st.s.faults || [];
      if (!faults.some((f) => faultKey(f) === key)) return false;
      st.s.faults = faults.filter((f) => faultKey(f) !== key);
    });
  }

  /** A crash's restart delay (virtual ms), for the planned fault (by faultKey). */
  setRestart(fault, ms) {
    const key = faultKey(fault);
    return this.edit((st) => {
      const f = (st.s.faults || []).find((x) => faultKey(x) === key);
      if (!f) return false;
      f.restart_after_ms = ms;
    });
  }

  /** A script action's time (virtual ms); `action` and `index` as drawn (actionIndex). */
  setScriptAt(action, index, at) {
    return this.edit((st) => {
      const i = actionIndex(st.s.script, action, index);
      if (i < 0) return false;
      st.s.script[i].at = at;
    });
  }

  removeAction(action, index) {
    return this.edit((st) => {
      const i = actionIndex(st.s.script, action, index);
      if (i < 0) return false;
      st.s.script = st.s.script.filter((_, j) => j !== i);
    });
  }

  addAction(action) {
    return this.edit((st) => {
      st.s.script = [...(st.s.script || []), action];
    });
  }

  /** Pins the policy in force as A (B goes on being edited). */
  pin() {
    return this.edit((st) => {
      st.a = {};
      for (const g of ['client', 'service', 'provider']) if (st.s[g]) st.a[g] = clone(st.s[g]);
    });
  }

  unpin() {
    return this.edit((st) => {
      delete st.a;
    });
  }

  /** Another scenario (an explorer's counterexample), the rest of the state kept. */
  loadScenario(scenario) {
    return this.edit((st) => {
      st.s = clone(scenario);
    });
  }
}
