// Options in a stable order shuffled per learner: the order is a permutation drawn from
// a hash of (learner seed, lesson id, question id), so it stays the same across reloads
// and differs between learners. Answers are given by option id, so the order only
// changes what is listed first: checking is the engine's, by id.

/** A fresh learner seed: 16 random hex digits (crypto when there is one). */
export function newLearnerSeed() {
  const bytes = new Uint8Array(8);
  if (typeof crypto !== 'undefined' && crypto.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** FNV-1a over the text's UTF-16 code units: a 32-bit unsigned hash. */
function hash32(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `items` in the order of the learner's permutation for (lesson, question); a new array. */
export function shuffledFor(items, seed, lessonId, questionId) {
  const out = [...items];
  const next = generator(hash32(`${seed}\u0000${lessonId}\u0000${questionId}`));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Whether a question's options keep the author's order: a scale is read in its order
 * (the knowledge answers, and predicted counts such as 0, 1, 2).
 */
export function keepsOrder(q) {
  if (q.kind === 'knowledge' || q.kind === 'table') return true;
  const ids = (q.options || []).map((o) => o.id);
  return q.kind === 'predict' && ids.length > 0 && ids.every((id) => /^\d+$/.test(id));
}
