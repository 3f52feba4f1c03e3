// "Predict before you reveal": which steps are reachable and what stays hidden while a
// question is not settled. Pure functions over the lesson's question list: their steps,
// and what each one hides, come from the engine.

/** The step of the first question not yet settled (`isAnswered`: right or its answer shown), or Infinity. */
export function blockingStep(questions, isAnswered) {
  let best = Infinity;
  for (const q of questions || []) {
    if (!isAnswered(q.id) && Number.isInteger(q.step) && q.step < best) best = q.step;
  }
  return best;
}

/** The furthest step the learner may see: up to (and including) the first unanswered question. */
export function clampStep(target, lastStep, questions, isAnswered) {
  const n = Math.max(0, Math.min(lastStep, Math.trunc(target)));
  return Math.min(n, blockingStep(questions, isAnswered));
}

export function questionsAt(questions, step) {
  return (questions || []).filter((q) => q.step === step);
}

const within = (step, r) => Number.isInteger(r.from) && step >= r.from && (r.to === null || r.to === undefined || step <= r.to);

/**
 * At `step`, what stays hidden because a question not yet settled (answered right, or
 * its answer shown) would be given away: the union of those questions' `hides`, as the
 * engine computed them with the lesson (engine/api/API.md, "Hides"). Each hidden thing
 * names the last such question in the lesson's order: the one whose answer unlocks it
 * (the earlier ones come first on the way there, so the promise holds):
 * { sides: Map side -> question, truth: question | null, narration: question | null }.
 * `narrationStep` is the step of the moment whose narration is shown, or null.
 */
export function hiddenAt(questions, isSettled, step, narrationStep = null) {
  const sides = new Map();
  let truth = null;
  let narration = null;
  for (const q of questions || []) {
    if (isSettled(q.id) || !q.hides) continue;
    for (const c of q.hides.cells || []) if (within(step, c)) sides.set(c.side, q);
    if ((q.hides.truth || []).some((r) => within(step, r))) truth = q;
    if (narrationStep !== null && (q.hides.narration || []).includes(narrationStep)) narration = q;
  }
  return { sides, truth, narration };
}

/** The moment that the current step has reached (the latest one at or before it), or null. */
export function momentAt(moments, step) {
  let found = null;
  for (const m of moments || []) {
    if (Number.isInteger(m.step) && m.step <= step && (!found || m.step >= found.step)) found = m;
  }
  return found;
}
