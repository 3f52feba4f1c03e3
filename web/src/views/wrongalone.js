// What the sandbox says about settings the engine's knob table judges wrong alone (engine
// `run` of a bare scenario: "wrong_settings", engine/api/API.md): under a run that breaks
// nothing, the ones no fault of the run reaches, with one button that searches for a
// schedule that does; under a complete search that found no violation, each one with why
// (the table's condition, when the scenario meets it) or an honest "not up to K". The
// engine decides each of these; this only words them.

import { h } from '../dom.js';
import { t, l } from '../i18n.js';

/** "client.key_scope: attempt"; a retry_layers value (an array) is named by its knob alone. */
function named(w) {
  return typeof w.value === 'string' || typeof w.value === 'number' || typeof w.value === 'boolean' ? `${w.knob}: ${w.value}` : w.knob;
}

/**
 * The note under an ending that breaks no invariant while some wrong-alone setting is not
 * reached by the run's faults (null when none is): each named, and one button, `onSearch`,
 * that starts the explorer.
 */
export function unreachedNote(run, onSearch) {
  const violations = (run.verdict && run.verdict.violations) || [];
  const unreached = (run.wrong_settings || []).filter((w) => !w.reached);
  if (violations.length || !unreached.length) return null;
  return h(
    'div',
    { class: 'sb-unreached', 'data-testid': 'sb-unreached' },
    unreached.map((w) => h('p', { 'data-wrong': w.knob }, t('sandbox.unreached', { knob: named(w) }))),
    h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-unreached-search', 'data-fkey': 'unreached-search', onclick: onSearch }, t(unreached.length === 1 ? 'sandbox.unreachedSearch' : 'sandbox.unreachedSearchMany')),
  );
}

/**
 * Under a complete search of up to `k` faults that found no violation and judged every
 * schedule to its end (`searched`: its "N schedules of up to K faults"), one line per
 * wrong-alone setting of the scenario, with why (null when there is none, or the search
 * found something, was cut, or left a schedule unsettled).
 */
export function wrongAloneNotes(run, result, k, searched) {
  const wrong = run.wrong_settings || [];
  if (!result.complete || result.violating !== 0 || result.inconclusive > 0 || !wrong.length) return null;
  return h(
    'ul',
    { class: 'sb-wrong-alone', 'data-testid': 'sb-wrong-alone' },
    wrong.map((w) =>
      h(
        'li',
        { 'data-wrong': w.knob },
        t('sandbox.wrongAloneClean', { knob: named(w), searched }),
        ' ',
        w.composes ? t('sandbox.wrongAloneWhy', { why: l(w.composes) }) : t(k === 1 ? 'sandbox.wrongAloneUnknownOne' : 'sandbox.wrongAloneUnknown', { k }),
      ),
    ),
  );
}
