// What every page needs of the SCORM launch (docs/lms.md), small enough for the first
// bundle: whether the address asks for an LMS, and when each question was first shown (a
// SCORM interaction's latency). The LMS link itself (lms.js) is loaded only when asked for.

import { queryParams } from './embed.js';

const LESSON_ID = /^[a-z0-9-]+$/;
const MODES = { scorm12: '1.2', scorm2004: '2004' };
function readParams() {
  const q = queryParams();
  const version = MODES[q.get('lms')] || null;
  const lesson = q.get('lesson');
  return { version, lesson: version && lesson && LESSON_ID.test(lesson) ? lesson : null };
}

/** {version: '1.2' | '2004' | null, lesson: id | null}: what the package's launch address asks. */
export const lmsParams = readParams();

/** When each question was first on screen (ms since the epoch), by "lesson\nqid". */
export const shownAt = new Map();

/** Question `qid` of lesson `lesson` is on screen (its card drawn). */
export function questionShown(lesson, qid) {
  const key = `${lesson}\n${qid}`;
  if (!shownAt.has(key)) shownAt.set(key, Date.now());
}

