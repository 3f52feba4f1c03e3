// When the page runs inside an iframe on a course page, tell the host page
// what happened. Nothing is sent when the page is not embedded.

export function isEmbedded() {
  try {
    return window.parent && window.parent !== window;
  } catch (_) {
    return true;
  }
}

function post(msg) {
  if (!isEmbedded()) return;
  try {
    window.parent.postMessage(msg, '*');
  } catch (_) {
    /* the host went away; nothing to do */
  }
}

export function postAnswerChecked(lesson, question, correct) {
  post({ source: 'idemlab', type: 'answer-checked', lesson, question, correct: !!correct });
}

/** `counts`: { questions, first_try_right } — how many were right without a wrong try. */
export function postLessonCompleted(lesson, counts) {
  post({ source: 'idemlab', type: 'lesson-completed', lesson, questions: counts.questions, first_try_right: counts.first_try_right });
}

/** A challenge's check (the engine's): solved, and whether the attempt kept to its rules. */
export function postChallengeChecked(lesson, kind, solved, allowed) {
  post({ source: 'idemlab', type: 'challenge-checked', lesson, kind, solved: !!solved, allowed: !!allowed });
}
