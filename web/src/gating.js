// "Predict before you reveal": which steps are reachable and which cells stay
// hidden while a question is unanswered. Pure functions over the lesson's
// question list (their steps come from the engine).

/** The step of the first unanswered question, or Infinity. */
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

/** The step of the last question card before `step`, or -1 when there is none. */
function previousCardStep(questions, step) {
  let prev = -1;
  for (const q of questions || []) if (Number.isInteger(q.step) && q.step < step && q.step > prev) prev = q.step;
  return prev;
}

/**
 * At `step`, which sides' columns of the knowledge grid and whether the truth must
 * stay hidden, because an unanswered question would be given away by them.
 *
 * The rule, per unanswered question at step S, with P the step of the previous
 * question card (or -1), so that every step from P+1 up to S is "on the way to" it:
 * - knowledge about side X: X's whole column is hidden at steps P+1..S (its other
 *   cells tell the answer as well as the asked one does), and the truth at S;
 * - moment table: both columns are hidden at steps P+1..S and at its moments' steps,
 *   and the truth at S;
 * - predict and choose: the truth is hidden from P+1 on, past S too (the answer is about
 *   the future: what happens next, which next action is safe);
 * - concept: nothing (no state is involved).
 * Returns { sides: Set of side names, truth: boolean }.
 */
export function hiddenAt(questions, isAnswered, step) {
  const sides = new Set();
  let truth = false;
  for (const q of questions || []) {
    if (isAnswered(q.id) || q.kind === 'concept' || !Number.isInteger(q.step)) continue;
    const onTheWay = step > previousCardStep(questions, q.step) && step <= q.step;
    if (q.kind === 'knowledge' && onTheWay) sides.add(q.side);
    if (q.kind === 'table') {
      const atMoment = (q.moments || []).some((m) => m.step === step);
      if (onTheWay || atMoment) for (const side of q.sides || ['client', 'service']) sides.add(side);
    }
    if ((q.kind === 'predict' || q.kind === 'choose') && step > previousCardStep(questions, q.step)) truth = true;
    if ((q.kind === 'knowledge' || q.kind === 'table') && step === q.step) truth = true;
  }
  return { sides, truth };
}

/** The moment that the current step has reached (the latest one at or before it), or null. */
export function momentAt(moments, step) {
  let found = null;
  for (const m of moments || []) {
    if (Number.isInteger(m.step) && m.step <= step && (!found || m.step >= found.step)) found = m;
  }
  return found;
}
