// The sandbox's address: the whole state (scenario, fault plan, pinned policy, where it
// came from) in the URL, so that copying the address shares the exact run.
//
//   #/sandbox/<code>[/step/N]
//   <code> = "1" + base64url(deflate-raw(UTF-8 JSON of the state))
//
// The leading "1" is the format's version. Compression is fflate's (a small, well-kept
// pure-JS deflate, synchronous, so the page can write the address on every edit); a
// scenario of a lesson's size becomes a few hundred characters. decodeState never throws:
// it returns {state} or {error} with the reason in both languages' keys' params.

import { deflateSync, inflateSync, strToU8, strFromU8 } from 'fflate';

export const CODE_VERSION = '1';
// Limits on what an address may carry, each with its reason:
// - a code longer than this is not something the page ever writes (the largest shipped
//   lesson's scenario and a pinned policy take well under 4 KB), and URLs past ~32 KB are
//   cut by some browsers and servers;
export const MAX_CODE_CHARS = 32000;
// - the inflated JSON is bounded too, so a small crafted code cannot expand to megabytes.
export const MAX_STATE_BYTES = 256 * 1024;
// - and so is its nesting: the page writes states some 8 levels deep, and the engine reads a
//   scenario at most limits::kMaxJsonDepth (32) deep, saying where a deeper one is refused.
//   Past a few thousand levels the browser itself cannot hand the state on (structured
//   clone and JSON.stringify run out of stack, in the worker first): a crafted link hung the
//   page. A state deeper than this is refused here; one between 33 and this still reaches the
//   engine, which names the path.
export const MAX_STATE_DEPTH = 64;

/** How deep `text`'s arrays and objects nest (brackets inside strings do not count). */
function nesting(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The address code of `state` (an object that JSON can hold). */
export function encodeState(state) {
  const bytes = deflateSync(strToU8(JSON.stringify(state)), { level: 9 });
  return CODE_VERSION + toBase64Url(bytes);
}

/**
 * The text a code this page wrote holds ({text}), else {error: {key, params}}: the checks
 * every code of the address goes through (length, version, characters, inflated size).
 */
function decodeText(code) {
  if (typeof code !== 'string' || code.length === 0) return { error: { key: 'sandbox.badEmpty' } };
  if (code.length > MAX_CODE_CHARS) return { error: { key: 'sandbox.badLong', params: { n: code.length, max: MAX_CODE_CHARS } } };
  if (code[0] !== CODE_VERSION) return { error: { key: 'sandbox.badVersion' } };
  // Nothing after the version: a link cut short, not one with stray characters.
  if (code.length === 1) return { error: { key: 'sandbox.badData' } };
  if (!/^[A-Za-z0-9_-]+$/.test(code.slice(1))) return { error: { key: 'sandbox.badChars' } };
  try {
    const bytes = inflateSync(fromBase64Url(code.slice(1)), { out: undefined });
    if (bytes.length > MAX_STATE_BYTES) return { error: { key: 'sandbox.badLong', params: { n: bytes.length, max: MAX_STATE_BYTES } } };
    return { text: strFromU8(bytes) };
  } catch (_) {
    return { error: { key: 'sandbox.badData' } };
  }
}

/**
 * {state} for a code this page wrote, else {error: {key, params}}: an i18n key of
 * sandbox.bad* and what to fill it with.
 */
export function decodeState(code) {
  const got = decodeText(code);
  if (got.error) return got;
  const { text } = got;
  if (nesting(text) > MAX_STATE_DEPTH) return { error: { key: 'sandbox.badDeep', params: { max: MAX_STATE_DEPTH } } };
  let state;
  try {
    state = JSON.parse(text);
  } catch (_) {
    return { error: { key: 'sandbox.badData' } };
  }
  const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(state) || !isObject(state.s)) return { error: { key: 'sandbox.badShape' } };
  // The state's own version: the page writes 1 (a link from a later page is not guessed at).
  if (state.v !== 1) return { error: { key: 'sandbox.badVersion' } };
  // What goes with the scenario, when present, has the shape the page writes: a pinned
  // policy is an object of settings, a lesson is named by its id (a string), a moment is a
  // number. Anything else was changed by hand and is not silently run as something else.
  if (state.a !== undefined && !isObject(state.a)) return { error: { key: 'sandbox.badShape' } };
  for (const k of ['from', 'ch', 'via', 'ex']) {
    if (state[k] !== undefined && typeof state[k] !== 'string') return { error: { key: 'sandbox.badShape' } };
  }
  if (state.at !== undefined && typeof state.at !== 'number') return { error: { key: 'sandbox.badShape' } };
  return { state };
}

// Code mode's links (#/code/<id>?c=<code>) carry the learner's code (Lua source text) the
// same way: "1" + base64url(deflate-raw(UTF-8 text)).

/** The address code of a piece of source text. */
export function encodeSource(source) {
  return CODE_VERSION + toBase64Url(deflateSync(strToU8(String(source)), { level: 9 }));
}

/** {source} for a code encodeSource wrote, else {error: {key, params}} (as decodeState's). */
export function decodeSource(code) {
  const got = decodeText(code);
  return got.error ? got : { source: got.text };
}
