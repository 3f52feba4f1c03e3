// Code mode's engine (engine/idemlab-code.wasm, issue 34), loaded the first time something
// asks it: the exercise route (views/code-route.js) and the sandbox in code mode (a scenario
// with `code`) both call it here, so neither imports the other. A worker of its own: a
// search is cancelled by ending that worker alone, the lessons' engine goes on answering,
// and a page that never runs code never fetches it.

import { Engine, CODE_ENGINE } from './engine.js';

let engine = null; // the code engine, once loaded
let engineReady = null; // its loading, then the engine

/** A call to code mode's engine, loaded the first time. Rejects with an EngineError. */
export function codeCall(method, input, opts) {
  if (!engineReady) {
    engineReady = Engine.load({ files: CODE_ENGINE }).then((e) => {
      engine = e;
      // An instance that trapped: the next call starts a fresh one.
      e.onStop = () => {
        engine = null;
        engineReady = null;
      };
      return e;
    });
    engineReady.catch(() => (engineReady = null)); // the next call tries again
  }
  return engineReady.then((e) => e.call(method, input, opts));
}

/** Whether the code engine is loaded (a first call in code mode waits for its download). */
export function codeEngineLoaded() {
  return !!engine;
}

/** Ends the code engine's call under way (a search), when one runs. */
export function cancelCode() {
  if (engine) engine.cancel();
}

// Code a link carries runs only once the learner chose to run it, or it is their own: the
// code this tab ran or switched to is remembered (a hash of it, in sessionStorage), so that
// a reload of their own sandbox is not stopped. Storage that throws remembers nothing.
const SEEN_KEY = 'idemlab.code.seen.v1';
const MAX_SEEN = 200;

/** A short hash of a text (53-bit, cyrb53): enough to recognise code seen before. */
export function codeHashOf(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function seenList() {
  try {
    const got = JSON.parse(window.sessionStorage.getItem(SEEN_KEY) || '[]');
    return Array.isArray(got) ? got : [];
  } catch (_) {
    return [];
  }
}

/** Whether this tab ran (or switched to) this code before. */
export function codeSeen(code) {
  return seenList().includes(codeHashOf(String(code)));
}

/** This code is the learner's own, or they chose to run it: not gated again in this tab. */
export function markCodeSeen(code) {
  const hash = codeHashOf(String(code));
  const list = seenList().filter((x) => x !== hash);
  list.push(hash);
  try {
    window.sessionStorage.setItem(SEEN_KEY, JSON.stringify(list.slice(-MAX_SEEN)));
  } catch (_) {
    /* no storage: the next reload asks again */
  }
}
