// Every UI string, in zh-CN and en. Lesson text arrives from the engine as
// L10n objects ({"zh-CN": ..., "en": ...}) and is picked with `l()`.

export const LANGS = ['zh-CN', 'en'];
const LANG_KEY = 'idemlab.lang';

// One catalogue file per language (web/src/i18n/<lang>.json), with literal keys: every key
// is written out where it is used, so tests/browser/text.spec.mjs can check that both files
// have the same keys and that no key is unused. Each is a file of its own on the served
// site (the bundler splits a dynamic import off), fetched only for a language that is shown:
// a visit carries one language's strings, not both (the offline copy's one script holds
// both, and these imports resolve at once there).
const CATALOGUES = { 'zh-CN': () => import('./i18n/zh-CN.json'), en: () => import('./i18n/en.json') };
const STRINGS = {};
const loading = {};

/** Fetches a language's catalogue once (again after a failure); resolves when t() can use it. */
function load(lang) {
  if (!loading[lang]) {
    loading[lang] = CATALOGUES[lang]().then(
      (m) => {
        STRINGS[lang] = m.default;
      },
      (e) => {
        delete loading[lang];
        throw e;
      },
    );
  }
  return loading[lang];
}

// When no catalogue could be fetched, the only thing to say is that: the error card's few
// strings, in both languages at once (the learner's language is not known to be readable).
const WITHOUT_CATALOGUE = {
  'err.unexpected': '页面的文字没有加载成功。 · The page\'s text could not be loaded.',
  'err.unexpectedHint': '请检查网络连接，然后刷新页面。 · Check the connection, then reload the page.',
  'err.reload': '刷新页面 · Reload the page',
};

let unknownAsked = null; // ?lang= naming a language the page does not have (fr, xx), as written
let current = detectInitial();
let asked = current; // the language last asked for, while its catalogue loads
nameInAddress(current); // ?lang=zh-cn, ZH, fr...: the address names the language shown
const listeners = new Set();
// The first language's strings start loading with this module, beside the page's other files.
load(current).catch(() => {});

/** Resolves when the current language's strings are loaded (rejects when they cannot be). */
export function stringsReady() {
  return load(current);
}

function detectInitial() {
  // The address's ?lang= (a course page embedding the page picks it) before the saved choice.
  try {
    const tag = new URLSearchParams(window.location.search).get('lang');
    const asked = langOfTag(tag);
    if (asked) return asked;
    // ?lang= with nothing in it asks for no language: the page picks as without it.
    if (givenLang(tag)) unknownAsked = tag;
  } catch (_) {
    /* no query to read */
  }
  try {
    const saved = window.localStorage.getItem(LANG_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (_) {
    /* storage unavailable: the browser's language */
  }
  return browserLang();
}

/**
 * The language of LANGS that a language tag names, by its first part in any case: zh,
 * zh-cn, ZH-CN, zh-Hant-TW give zh-CN; en, EN, en-US give en. Null for another language
 * (fr) or no tag. web/early.js reads ?lang= the same way.
 */
export function langOfTag(tag) {
  const m = typeof tag === 'string' ? /^([a-z]+)(?:[-_]|$)/i.exec(tag) : null;
  const primary = m ? m[1].toLowerCase() : null;
  return primary === 'zh' ? 'zh-CN' : primary === 'en' ? 'en' : null;
}

/** The browser's preferred language: any Chinese (zh, zh-TW, zh-Hans-CN...) gives zh-CN, anything else en. */
export function browserLang(nav = typeof navigator === 'undefined' ? null : navigator) {
  const first = nav && ((nav.languages && nav.languages[0]) || nav.language);
  if (typeof first !== 'string' || !first) return 'zh-CN';
  return langOfTag(first) === 'zh-CN' ? 'zh-CN' : 'en';
}

/** A ?lang= value that names something (null, '' and blanks name nothing). */
function givenLang(tag) {
  return typeof tag === 'string' && tag.trim() !== '';
}

/** The ?lang= tag the page was opened with when it names no language the page has (else null): the page says it. */
export function unknownLangAsked() {
  return unknownAsked;
}

export function getLang() {
  return current;
}

/**
 * Switches to `lang`: at once when its strings are loaded, else once they are (a later call
 * wins over an earlier one still loading). Returns a promise that resolves then. Strings
 * that cannot be fetched leave the language as it is.
 */
export function setLang(lang) {
  if (!LANGS.includes(lang)) return Promise.resolve();
  asked = lang;
  if (STRINGS[lang]) {
    switchTo(lang);
    return Promise.resolve();
  }
  return load(lang).then(
    () => {
      if (asked === lang) switchTo(lang);
    },
    (e) => console.warn(`idemlab: the ${lang} strings did not load (${(e && e.message) || e}); the language stays ${current}`),
  );
}

function switchTo(lang) {
  if (lang === current) return;
  current = lang;
  try {
    window.localStorage.setItem(LANG_KEY, lang);
  } catch (_) {
    /* not remembered, still switched */
  }
  document.documentElement.lang = lang;
  nameInAddress(lang);
  for (const fn of listeners) fn(lang);
}

// An address that names a language (?lang=) names the one shown, so that a reload or a
// copied link keeps what the learner switched to. An address without it stays as it is.
function nameInAddress(lang) {
  try {
    const url = new URL(window.location.href);
    const named = url.searchParams.getAll('lang').filter(givenLang);
    if (!named.length || (named.length === 1 && named[0] === lang)) return;
    // set() leaves one: ?lang=en&lang=zh-CN (the first is read) becomes the one shown.
    url.searchParams.set('lang', lang);
    window.history.replaceState(window.history.state, '', url.href);
  } catch (_) {
    /* no history to write (or a file:// address that refuses it): the address stays */
  }
}

/**
 * Fetches the other languages' strings now, so that a switch is immediate: called when the
 * language switch is about to be used (main.js), not on every visit (a visit fetches the
 * strings of the language it shows only).
 */
export function preloadOtherStrings() {
  for (const lang of LANGS) if (lang !== current) load(lang).catch(() => {}); // a failure is said if that language is asked for
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A UI string, with {name} placeholders filled from params. */
export function t(key, params) {
  const table = STRINGS[current] || STRINGS.en || WITHOUT_CATALOGUE;
  let text = table[key];
  if (text === undefined && STRINGS.en) text = STRINGS.en[key];
  if (text === undefined) return key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
  return text;
}

/** Pick the current language from an engine L10n object. */
export function l(obj) {
  if (obj === null || obj === undefined) return '';
  if (typeof obj === 'string') return obj;
  if (typeof obj !== 'object') return String(obj);
  if (typeof obj[current] === 'string') return obj[current];
  for (const lang of LANGS) if (typeof obj[lang] === 'string') return obj[lang];
  return '';
}

// The engine's enumerations, each value with its catalogue key written out in full.
const NAMES = {
  side: { client: 'side.client', service: 'side.service', network: 'side.network', provider: 'side.provider', none: 'side.none', observer: 'side.observer' },
  level: { intro: 'level.intro', advanced: 'level.advanced' },
  message: { request: 'msg.request', response: 'msg.response', lookup: 'msg.lookup', lookup_reply: 'msg.lookup_reply', email: 'msg.email', email_ack: 'msg.email_ack' },
  column: {
    id: 'col.id', intent: 'col.intent', op_key: 'col.op_key', fingerprint: 'col.fingerprint', status: 'col.status', receipt: 'col.receipt',
    attempts: 'col.attempts', version: 'col.version', created_at: 'col.created_at', email_key: 'col.email_key', received_at: 'col.received_at',
  },
  answer: { knows_true: 'q.ans.knows_true', knows_false: 'q.ans.knows_false', cannot_know: 'q.ans.cannot_know' },
  questionKind: { knowledge: 'q.kind.knowledge', predict: 'q.kind.predict', choose: 'q.kind.choose', table: 'q.kind.table', concept: 'q.kind.concept' },
  problem: {
    duplicate_effect: 'q.choose.problem.duplicate_effect', false_success: 'q.choose.problem.false_success', false_failure: 'q.choose.problem.false_failure',
    forgotten_intent: 'q.choose.problem.forgotten_intent', lost_notification: 'q.choose.problem.lost_notification', duplicate_notification: 'q.choose.problem.duplicate_notification', concurrent_execution: 'q.choose.problem.concurrent_execution',
  },
  invariantOk: {
    duplicate_effect: 'inv.duplicate_effect.ok', false_success: 'inv.false_success.ok', false_failure: 'inv.false_failure.ok',
    forgotten_intent: 'inv.forgotten_intent.ok', lost_notification: 'inv.lost_notification.ok', duplicate_notification: 'inv.duplicate_notification.ok', concurrent_execution: 'inv.concurrent_execution.ok',
  },
  invariantBroken: {
    duplicate_effect: 'inv.duplicate_effect.broken', false_success: 'inv.false_success.broken', false_failure: 'inv.false_failure.broken',
    forgotten_intent: 'inv.forgotten_intent.broken', lost_notification: 'inv.lost_notification.broken', duplicate_notification: 'inv.duplicate_notification.broken', concurrent_execution: 'inv.concurrent_execution.broken',
  },
  engineError: { network: 'err.engine.network', damaged: 'err.engine.damaged', timeout: 'err.engine.timeout', unsupported: 'err.engine.unsupported', stopped: 'err.engine.stopped' },
  importSkipped: { notInCourse: 'import.skipped.notInCourse', cannotOpen: 'import.skipped.cannotOpen' },
  knobGroup: { client: 'sandbox.group.client', service: 'sandbox.group.service', provider: 'sandbox.group.provider', timing: 'sandbox.group.timing' },
  setting: { right: 'sandbox.setting.right', wrong: 'sandbox.setting.wrong', neutral: 'sandbox.setting.neutral' },
};

// A provider whose effect is `credit` (the engine's knob provider.effect, said in a step's
// `provider.effect` and an ending's `effect`) is no mail provider: its lane stands in for a
// balance ledger, and what it takes in is a credit to the balance. Its words, key by key;
// every other key, and every key under `email`, reads as written.
const CREDIT_WORDS = {
  'side.provider': 'side.provider.credit',
  'diagram.descMail': 'diagram.descMail.credit',
  'msg.email': 'msg.email.credit',
  'msg.email_ack': 'msg.email_ack.credit',
  'msg.send': 'msg.send.credit',
  'panel.outbox': 'panel.outbox.credit',
  'panel.relayWaiting': 'panel.relayWaiting.credit',
  'panel.emails': 'panel.emails.credit',
  'col.email_key': 'col.email_key.credit',
  'truth.emails': 'truth.emails.credit',
  'inv.lost_notification.ok': 'inv.lost_notification.ok.credit',
  'inv.lost_notification.broken': 'inv.lost_notification.broken.credit',
  'inv.duplicate_notification.ok': 'inv.duplicate_notification.ok.credit',
  'inv.duplicate_notification.broken': 'inv.duplicate_notification.broken.credit',
  'sandbox.email': 'sandbox.email.credit',
  'sandbox.emails': 'sandbox.emails.credit',
};

/** The catalogue key that says `key` for a provider whose effect is `effect` ("email", "credit" or absent). */
export function worded(key, effect) {
  return (effect === 'credit' && CREDIT_WORDS[key]) || key;
}

/**
 * The UI name of a value of one of the engine's enumerations (`family` is a key of NAMES:
 * side, level, message, column, answer, questionKind, problem, invariantOk,
 * invariantBroken, engineError, importSkipped, knobGroup, setting); the value itself when
 * the catalogue has no name for it (a newer engine's value). `effect`: the provider's
 * effect, where the name is about the provider (worded()).
 */
export function nameOf(family, value, params, effect) {
  const key = NAMES[family] && Object.prototype.hasOwnProperty.call(NAMES[family], value) ? NAMES[family][value] : null;
  return key ? t(worded(key, effect), params) : String(value);
}

export function sideName(side, effect) {
  return nameOf('side', side, undefined, effect);
}
