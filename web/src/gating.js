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

/**
 * Steps at which a question's answer could be read off the grid: its own step,
 * and for a moment table, once the learner has arrived at it, the steps of its
 * moments too (so the table is filled from reasoning, not by stepping back).
 */
function revealingSteps(q, reached) {
  const steps = [q.step];
  if (q.kind === 'table' && reached >= q.step) {
    for (const m of q.moments || []) if (Number.isInteger(m.step)) steps.push(m.step);
  }
  return steps;
}

/**
 * At `step`, which knowledge cells ("side/fact") and whether the truth must stay
 * hidden, because an unanswered question would be given away by them.
 * `reached` is the furthest step the learner has seen.
 */
export function hiddenAt(questions, isAnswered, step, reached = step) {
  const cells = new Set();
  let truth = false;
  for (const q of questions || []) {
    if (isAnswered(q.id)) continue;
    if (q.kind === 'concept') continue;
    if (!revealingSteps(q, reached).includes(step)) continue;
    truth = true;
    if (q.kind === 'knowledge') cells.add(`${q.side}/${q.fact}`);
    if (q.kind === 'table') {
      for (const side of q.sides || []) for (const f of q.facts || []) cells.add(`${side}/${f.id || f}`);
    }
  }
  return { cells, truth };
}

/** The moment that the current step has reached (the latest one at or before it), or null. */
export function momentAt(moments, step) {
  let found = null;
  for (const m of moments || []) {
    if (Number.isInteger(m.step) && m.step <= step && (!found || m.step >= found.step)) found = m;
  }
  return found;
}
