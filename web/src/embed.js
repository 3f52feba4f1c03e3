// The page inside an iframe on a course page (docs/embedding.md): what the address asks
// for (?lang=, ?embed=lesson, ?origin=), the messages posted to the host page, and the
// commands the host may send. Nothing is posted when the page is not embedded.

import { langOfTag } from './i18n.js';

export const VERSION = 1;
const LANGS = ['zh-CN', 'en'];
const LESSON_ID = /^[a-z0-9-]+$/;

export function isEmbedded() {
  try {
    return window.parent && window.parent !== window;
  } catch (_) {
    return true;
  }
}

/** "https://course.example" (an http(s) origin, nothing after it), or null. */
function readOrigin(raw) {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin === raw.replace(/\/$/, '') ? u.origin : null;
  } catch (_) {
    return null;
  }
}

/** The address's query string (empty when it cannot be read). */
export function queryParams() {
  try {
    return new URLSearchParams(window.location.search);
  } catch (_) {
    return new URLSearchParams();
  }
}

function readParams() {
  const q = queryParams();
  const given = q.get('origin');
  const origin = given === null ? null : readOrigin(given);
  // An origin that is not one: say so once (in English, for the host's developer), post nothing.
  if (given !== null && !origin) console.warn(`idemlab: origin=${given} is not an http(s) origin; no message is posted to the host page`);
  return { lang: langOfTag(q.get('lang')), lessonOnly: q.get('embed') === 'lesson', origin, originGiven: given !== null };
}

/** What the address asks for: {lang, lessonOnly, origin, originGiven}. */
export const params = readParams();

// Until `ready` is posted, what the page would post waits here (docs/embedding.md: `ready`
// comes first, once the first view is drawn and commands are heard; the lesson's first
// `step` is drawn before that, while the engine still loads).
let readyPosted = false;
let held = [];

function post(type, fields) {
  if (!isEmbedded()) return;
  if (!readyPosted && type !== 'ready') {
    held.push([type, fields]);
    return;
  }
  if (params.originGiven && !params.origin) return;
  try {
    // Only to the origin the address names; without one, to any (the behaviour before
    // ?origin= existed: docs/embedding.md says what that exposes).
    window.parent.postMessage({ source: 'idemlab', version: VERSION, type, ...fields }, params.origin || '*');
  } catch (_) {
    /* the host went away; nothing to do */
  }
}

/** Once, when the page has drawn its first view: `view` is lesson, compare, sandbox, list or engine-error. */
export function postReady(lang, view, lesson) {
  post('ready', { lang, view, lesson: lesson || null });
  readyPosted = true;
  const waiting = held;
  held = [];
  for (const [type, fields] of waiting) post(type, fields);
}

let lastStep = null;

/** Another view is shown: a lesson opened again posts its step even if it is the last one posted. */
export function newView() {
  lastStep = null;
  // A step of a view gone before `ready` (the engine did not load, and the lesson shows as
  // text) is no longer what the host page would be told.
  if (!readyPosted) held = held.filter(([type]) => type !== 'step');
}

/** The lesson shows step `step` of 0..`last`; `moment`: the id of the latest moment reached, or null. */
export function postStep(lesson, step, last, moment) {
  const key = `${lesson}\n${step}`;
  if (key === lastStep) return; // the same step drawn again (a language switch)
  lastStep = key;
  post('step', { lesson, step, last, moment: moment || null });
}

/**
 * `answer`: the option id, or for a table {"moment/side/fact": value}; `tryNumber` counts
 * from 1; `revealed`: the engine showed the answer with this verdict (right, or a second try).
 */
export function postAnswerChecked(lesson, question, answer, correct, tryNumber, revealed) {
  post('answer-checked', { lesson, question, answer, correct: !!correct, try: tryNumber, revealed: !!revealed });
}

/** The learner asked for the answer ("show the answer") in place of try `tryNumber`: no answer given, shown. */
export function postRevealed(lesson, question, tryNumber) {
  post('answer-checked', { lesson, question, answer: null, correct: false, try: tryNumber, revealed: true });
}

/** `counts`: { questions, first_try_right } — how many were right without a wrong try. */
export function postLessonCompleted(lesson, counts) {
  const { questions, first_try_right } = counts;
  post('lesson-completed', { lesson, questions, first_try_right, score: questions > 0 ? first_try_right / questions : 1 });
}

/** A challenge's check (the engine's): solved, and whether the attempt kept to its rules. */
export function postChallengeChecked(lesson, kind, solved, allowed) {
  post('challenge-checked', { lesson, kind, solved: !!solved, allowed: !!allowed });
}

function refuse(command, reason) {
  post('command-refused', { command: typeof command === 'string' ? command : null, reason });
}

/**
 * Commands from the host page: {target: "idemlab", version: 1, type: "set-language", lang}
 * and {target: "idemlab", version: 1, type: "open", lesson, step?}. Heard only when the
 * address names the host's origin, and only from that origin's window that holds the
 * iframe; anything else is ignored without a word.
 */
export function listenToHost({ setLang, openLesson }) {
  if (!params.origin) return;
  window.addEventListener('message', (ev) => {
    if (ev.origin !== params.origin || ev.source !== window.parent) return;
    const d = ev.data;
    if (!d || typeof d !== 'object' || d.target !== 'idemlab') return;
    if (d.version !== VERSION) return refuse(d.type, `version ${JSON.stringify(d.version)} is not ${VERSION}`);
    if (d.type === 'set-language') {
      if (!LANGS.includes(d.lang)) return refuse(d.type, `lang must be one of ${LANGS.join(', ')}`);
      setLang(d.lang);
    } else if (d.type === 'open') {
      if (typeof d.lesson !== 'string' || !LESSON_ID.test(d.lesson)) return refuse(d.type, 'lesson must be a lesson id (a-z, 0-9, -)');
      const step = d.step === undefined || d.step === null ? null : d.step;
      if (step !== null && !(Number.isInteger(step) && step >= 0)) return refuse(d.type, 'step must be an integer >= 0');
      openLesson(d.lesson, step);
    } else {
      refuse(d.type, 'type must be set-language or open');
    }
  });
}
