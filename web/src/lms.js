// The page launched from a SCORM package (docs/lms.md): the address says `?lms=scorm12` or
// `?lms=scorm2004` and `&lesson=<id>` (the manifest's item parameters, scripts/lib/scorm.mjs).
// This module finds the LMS's API the standard way, restores the lesson's progress from the
// LMS's suspend data, and reports what progress.js recorded: the engine's verdicts, never
// one decided here. Any LMS failure (no API, a call that throws or says false) leaves the
// lesson working on the browser's storage, and the learner is told once.
//
// Loaded only when the address asks for an LMS (main.js; lms-launch.js reads the address
// and times the questions on every page, so that a learner off an LMS never loads this).
//
// No npm SCORM wrapper is used (docs/lms.md, "Why no wrapper library"): the handshake is
// the few calls below.

import { lessonSummary, lessonProblem } from './progress.js';
import { shownAt } from './lms-launch.js';

/** The suspend data's size limit (characters): SCORM 1.2's CMIString4096, SCORM 2004 4th edition's 64000. */
export const SUSPEND_LIMIT = { '1.2': 4096, 2004: 64000 };

/**
 * The LMS's API object, found as the SCORM run-time specs say: the window's parents, up to
 * the top, then the opener's (and its parents). A window of another origin is skipped.
 */
export function findApi(version, start = window) {
  const name = version === '2004' ? 'API_1484_11' : 'API';
  const look = (win) => {
    for (let i = 0; win && i < 500; i += 1) {
      try {
        if (win[name]) return win[name];
      } catch (_) {
        /* another origin */
      }
      let up = null;
      try {
        up = win.parent && win.parent !== win ? win.parent : null;
      } catch (_) {
        up = null;
      }
      win = up;
    }
    return null;
  };
  let api = look(start);
  if (!api) {
    try {
      if (start.top && start.top.opener) api = look(start.top.opener);
    } catch (_) {
      api = null;
    }
  }
  return api;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** A duration in ms as SCORM 1.2's CMITimespan (HHHH:MM:SS.SS) or SCORM 2004's timeinterval (PT#H#M#S). */
export function duration(ms, version) {
  const cs = Math.max(0, Math.round(ms / 10));
  if (version === '2004') return `PT${(cs / 100).toFixed(2)}S`;
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = (cs % 6000) / 100;
  return `${pad(Math.min(h, 9999), 4)}:${pad(m)}:${s.toFixed(2).padStart(5, '0')}`;
}

// When each question's card was first shown in this launch: an interaction's latency runs
// from there to its first try.
/** The data model elements of each version, by what they hold. */
const CMI = {
  '1.2': {
    status: 'cmi.core.lesson_status',
    location: 'cmi.core.lesson_location',
    exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time',
    raw: 'cmi.core.score.raw',
    min: 'cmi.core.score.min',
    max: 'cmi.core.score.max',
    mastery: 'cmi.student_data.mastery_score',
    response: 'student_response',
  },
  2004: {
    status: 'cmi.completion_status',
    success: 'cmi.success_status',
    location: 'cmi.location',
    exit: 'cmi.exit',
    sessionTime: 'cmi.session_time',
    scaled: 'cmi.score.scaled',
    raw: 'cmi.score.raw',
    min: 'cmi.score.min',
    max: 'cmi.score.max',
    mastery: 'cmi.scaled_passing_score',
    response: 'learner_response',
  },
};

/**
 * One lesson's progress record as suspend data: the record whole when it fits in `limit`
 * characters, else shortened step by step (docs/lms.md says what goes): the engine's texts
 * (explanations, hints, marked cells: the page shows a restored try's verdict without them)
 * and times, then every try but each question's first and last, then the self-check ticks,
 * then the challenge's tries but its last. Returns {text, level} or null when even the
 * shortest does not fit.
 */
export function encodeSuspend(lessonId, lp, limit) {
  const slim = (tr) => {
    const o = { answer: tr.answer, correct: !!tr.correct, revealed: !!tr.revealed, try: tr.try };
    if (tr.expected !== undefined && tr.expected !== null) o.expected = tr.expected;
    return o;
  };
  const levels = [
    (r) => r,
    (r) => {
      const answers = {};
      for (const [qid, a] of Object.entries(r.answers || {})) {
        const b = { tries: a.tries.map(slim), correct: a.correct };
        if (a.reveal) b.reveal = { after: a.reveal.after, ...(a.reveal.expected !== undefined && a.reveal.expected !== null ? { expected: a.reveal.expected } : {}) };
        answers[qid] = b;
      }
      const { completed_at, ...rest } = r; // eslint-disable-line no-unused-vars
      return { ...rest, answers };
    },
    (r) => ({ ...r, answers: Object.fromEntries(Object.entries(r.answers).map(([qid, a]) => [qid, { ...a, tries: a.tries.length > 2 ? [a.tries[0], a.tries[a.tries.length - 1]] : a.tries }])) }),
    (r) => ({ ...r, self_check: {} }),
    (r) => {
      const c = r.answers.challenge;
      if (!c || c.tries.length < 2) return r;
      const keep = c.tries.filter((tr) => tr.correct).slice(-1);
      return { ...r, answers: { ...r.answers, challenge: { ...c, tries: keep.length ? keep : c.tries.slice(-1) } } };
    },
  ];
  let r = lp;
  for (let level = 0; level < levels.length; level += 1) {
    r = levels[level](r);
    const text = JSON.stringify({ v: 1, lesson: lessonId, record: r });
    if (text.length <= limit) return { text, level };
  }
  return null;
}

/** The lesson record in suspend data `text` written for `lessonId`, or null (not ours, not readable). */
export function decodeSuspend(text, lessonId) {
  if (typeof text !== 'string' || text === '') return null;
  try {
    const d = JSON.parse(text);
    if (!d || d.v !== 1 || d.lesson !== lessonId || !d.record || typeof d.record !== 'object') return null;
    return d.record;
  } catch (_) {
    return null;
  }
}

/**
 * The LMS side of one launch. `progress`: the page's Progress; `questionIds()`: a promise of
 * the lesson's question ids (the lesson index's); `say(notice)`: shows a page notice.
 */
export class LmsLink {
  constructor({ version, lesson }, progress, questionIds, say, win = window) {
    this.version = version;
    this.lesson = lesson;
    this.progress = progress;
    this.say = say;
    this.cmi = CMI[version];
    this.started = Date.now();
    this.saidFailure = false;
    this.active = false;
    this.reported = new Set(); // question ids with an interaction
    this.nInteractions = 0;
    this.lastSuspend = null;
    this.timer = null;
    this.qids = [];
    this.api = findApi(version, win);
    if (!this.api) {
      this.fail('notice.lmsMissing');
      return;
    }
    const ok = this.call(version === '2004' ? 'Initialize' : 'LMSInitialize', '');
    if (ok !== 'true' && ok !== true) {
      this.fail('notice.lmsRefused');
      return;
    }
    this.active = true;
    this.restore();
    questionIds().then(
      (ids) => {
        this.qids = ids || [];
        this.sync(true);
      },
      () => this.sync(true),
    );
    progress.onChange(() => this.schedule());
    const end = () => this.finish();
    win.addEventListener('pagehide', end);
    win.addEventListener('beforeunload', end);
  }

  /** One API call; a throw is a refusal (and said once); returns what the LMS returned, or null. */
  call(name, ...args) {
    try {
      const fn = this.api && this.api[name];
      if (typeof fn !== 'function') throw new Error(`no ${name}`);
      return fn.apply(this.api, args);
    } catch (e) {
      this.fail('notice.lmsRefused', `${name}: ${(e && e.message) || e}`);
      return null;
    }
  }

  get(el) {
    const v = this.call(this.version === '2004' ? 'GetValue' : 'LMSGetValue', el);
    return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
  }

  set(el, value) {
    const ok = this.call(this.version === '2004' ? 'SetValue' : 'LMSSetValue', el, String(value));
    if (ok !== 'true' && ok !== true) {
      this.fail('notice.lmsRefused', `${el}`);
      return false;
    }
    return true;
  }

  commit() {
    const ok = this.call(this.version === '2004' ? 'Commit' : 'LMSCommit', '');
    if (ok !== 'true' && ok !== true) this.fail('notice.lmsRefused', 'Commit');
  }

  /** Said once per launch, whatever failed: the progress stays in the browser's storage. */
  fail(key, detail) {
    if (detail) console.warn(`idemlab: the LMS refused ${detail}`);
    if (this.saidFailure) return;
    this.saidFailure = true;
    this.say({ key, testid: 'notice-lms' });
  }

  /**
   * The LMS's suspend data, when it holds this lesson's record, becomes the lesson's
   * progress in this browser too (the LMS is the learner's record on any machine). A first
   * launch (no suspend data) starts the lesson afresh, whatever this browser holds.
   */
  restore() {
    const text = this.get('cmi.suspend_data');
    const record = decodeSuspend(text, this.lesson);
    const data = this.progress.data;
    if (record && lessonProblem(record) === null) {
      data.lessons[this.lesson] = record;
      for (const qid of Object.keys(record.answers || {})) if (qid !== 'challenge') this.reported.add(qid);
    } else {
      delete data.lessons[this.lesson];
    }
    this.lastSuspend = record ? text : null;
    const count = Number.parseInt(this.get('cmi.interactions._count'), 10);
    this.nInteractions = Number.isInteger(count) && count >= 0 ? count : this.reported.size;
    this.progress.save();
  }

  schedule() {
    if (!this.active || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sync(true);
    }, 200);
  }

  /** Everything progress holds for the lesson, written to the LMS (and committed). */
  sync(commit) {
    if (!this.active) return;
    const lp = this.progress.peek(this.lesson);
    const c = this.cmi;
    const s = lessonSummary(lp, this.qids);
    // Interactions: one per question, at its first try (or its answer shown before any).
    for (const qid of this.qids) {
      if (this.reported.has(qid)) continue;
      const a = lp && lp.answers && lp.answers[qid];
      if (!a || !(a.tries.length > 0 || a.reveal)) continue;
      this.writeInteraction(qid, a);
    }
    this.writeChallenge(lp);
    if (lp && Number.isInteger(lp.step)) this.set(c.location, String(lp.step));
    const scaled = s.questions > 0 ? s.first_try_right / s.questions : 1;
    if (s.completed) {
      const mastery = this.mastery();
      if (this.version === '2004') {
        this.set(c.scaled, String(Math.round(scaled * 10000) / 10000));
        this.set(c.raw, String(s.first_try_right));
        this.set(c.min, '0');
        this.set(c.max, String(s.questions));
        this.set(c.status, 'completed');
        this.set(c.success, mastery === null ? 'unknown' : scaled >= mastery ? 'passed' : 'failed');
      } else {
        this.set(c.raw, String(Math.round(scaled * 100)));
        this.set(c.min, '0');
        this.set(c.max, '100');
        this.set(c.status, mastery === null ? 'completed' : scaled >= mastery ? 'passed' : 'failed');
      }
    } else {
      this.set(c.status, 'incomplete');
    }
    const packed = encodeSuspend(this.lesson, lp || { answers: {}, reached: 0, completed: false, self_check: {} }, SUSPEND_LIMIT[this.version]);
    if (!packed) this.fail('notice.lmsTooBig');
    else if (packed.text !== this.lastSuspend && this.set('cmi.suspend_data', packed.text)) this.lastSuspend = packed.text;
    if (commit) this.commit();
  }

  /** The teacher's mastery score as a fraction 0..1 (the manifest's), or null when none. */
  mastery() {
    const raw = this.get(this.cmi.mastery);
    if (raw === '') return null;
    const n = Number(raw);
    if (!Number.isFinite(n)) return null;
    return this.version === '2004' ? n : n / 100;
  }

  writeInteraction(qid, a) {
    const n = this.nInteractions;
    const p = `cmi.interactions.${n}.`;
    const first = a.tries[0] || null;
    const table = first && typeof first.answer === 'object';
    const v2004 = this.version === '2004';
    let ok = this.set(`${p}id`, `${this.lesson}.${qid}`);
    ok = ok && this.set(`${p}type`, table ? (v2004 ? 'other' : 'performance') : 'choice');
    if (ok && first) {
      const response = table
        ? Object.entries(first.answer)
            .map(([k, v]) => `${k}=${v}`)
            .join(';')
        : String(first.answer);
      this.set(`${p}${this.cmi.response}`, v2004 ? response.slice(0, 4000) : response.slice(0, 255));
    }
    if (ok) this.set(`${p}result`, first && first.correct ? 'correct' : v2004 ? 'incorrect' : 'wrong');
    const shown = shownAt.has(`${this.lesson}\n${qid}`) ? shownAt.get(`${this.lesson}\n${qid}`) : null;
    const at = first && first.at ? Date.parse(first.at) : Date.now();
    if (ok && shown !== null && Number.isFinite(at) && at >= shown) this.set(`${p}latency`, duration(at - shown, this.version));
    if (ok && Number.isFinite(at)) {
      const d = new Date(at);
      if (v2004) this.set(`${p}timestamp`, d.toISOString().replace(/\.\d{3}Z$/, ''));
      else this.set(`${p}time`, `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`);
    }
    // Not reported again on a later change, even when the LMS refused it (said once).
    this.reported.add(qid);
    this.nInteractions = n + 1;
  }

  /** The lesson's challenge, when tried, as objective 0 "challenge": passed once the engine judged it solved. */
  writeChallenge(lp) {
    const c = lp && lp.answers && lp.answers.challenge;
    if (!c || !c.tries.length) return;
    const solved = c.correct === true;
    this.set('cmi.objectives.0.id', 'challenge');
    if (this.version === '2004') {
      this.set('cmi.objectives.0.success_status', solved ? 'passed' : 'unknown');
      this.set('cmi.objectives.0.completion_status', solved ? 'completed' : 'incomplete');
    } else {
      this.set('cmi.objectives.0.status', solved ? 'passed' : 'incomplete');
    }
  }

  /** The page goes: the session's time and exit, a last write and commit, and the end of the session. */
  finish() {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sync(false);
    const lp = this.progress.peek(this.lesson);
    this.set(this.cmi.sessionTime, duration(Date.now() - this.started, this.version));
    this.set(this.cmi.exit, lp && lp.completed ? (this.version === '2004' ? 'normal' : '') : 'suspend');
    this.commit();
    this.call(this.version === '2004' ? 'Terminate' : 'LMSFinish', '');
    this.active = false;
  }
}
