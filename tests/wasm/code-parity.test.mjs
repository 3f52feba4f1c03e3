// Code mode (issue 34): a class's submissions get the same grade from `idemlab grade` (what
// a teacher runs) and from the page's code module (what the learner sees), byte for byte.
// Fifty submissions are made from the choices a learner makes in the lost-response
// exercise (how the key is chosen, what a timeout, a not-found and a restart do), plus code
// that fails in each way. Run after scripts/build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const EXERCISE = resolve(REPO, 'lessons/exercises/lost-response.json');
const exercise = JSON.parse(readFileSync(EXERCISE, 'utf8'));
const code = await loadEngine(resolve(REPO, 'dist/engine'), 'idemlab-code');
const page = await loadEngine();

const KEYS = {
  stored: 'local key = r.op_key',
  fresh: 'local key = new_key(intent)\n  db.exec("UPDATE intents SET op_key = ? WHERE intent = ?", key, intent)',
  derived: 'local key = derive_key(intent, r.payload)',
  timed: 'local key = derive_key(intent, r.payload, now())',
};
const ON_TIMEOUT = {
  lookup: 'unknown(intent)\n  lookup(intent, r.op_key)',
  resend: 'unknown(intent)\n  resend(intent, r)',
  fail: 'db.exec("UPDATE intents SET status = \'FAILED\' WHERE intent = ?", intent)',
  failresend: 'db.exec("UPDATE intents SET status = \'FAILED\' WHERE intent = ?", intent)\n  resend(intent, r)',
  nothing: '',
};
const ON_NOT_FOUND = {
  resend: 'resend(intent, r)',
  again: 'lookup(intent, r.op_key)',
  human: 'db.exec("UPDATE intents SET status = \'NEEDS_HUMAN\' WHERE intent = ?", intent)',
};
const ON_RESTART = {
  both: "status = 'PENDING' OR status = 'UNKNOWN'",
  unknown: "status = 'UNKNOWN'",
  none: null,
};

function submission(key, timeout, notFound, restart) {
  return `-- key ${key}, timeout ${timeout}, not found ${notFound}, restart ${restart}
local function unknown(intent)
  db.exec("UPDATE intents SET status = 'UNKNOWN' WHERE intent = ? AND status = 'PENDING'", intent)
end
local function resend(intent, r)
  if r.attempts >= 4 then
    db.exec("UPDATE intents SET status = 'NEEDS_HUMAN' WHERE intent = ?", intent)
    return
  end
  ${KEYS[key]}
  db.exec("UPDATE intents SET attempts = attempts + 1 WHERE intent = ?", intent)
  send(intent, key, r.payload)
end
function on_deliver(intent, payload)
  db.exec("INSERT INTO intents(intent, op_key, payload, status, attempts) VALUES (?, ?, ?, 'PENDING', 1)",
          intent, ${key === 'derived' ? 'derive_key(intent, payload)' : 'new_key(intent)'}, payload)
  local r = db.row("SELECT op_key FROM intents WHERE intent = ?", intent)
  send(intent, r.op_key, payload)
end
local function settle(intent, reply)
  if reply.outcome == "ok" or reply.outcome == "found" then
    db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?", reply.receipt, intent)
    return true
  end
  return false
end
function on_response(intent, reply)
  if settle(intent, reply) then return end
  local r = db.row("SELECT * FROM intents WHERE intent = ?", intent)
  ${ON_TIMEOUT[timeout]}
end
function on_lookup(intent, reply)
  if settle(intent, reply) then return end
  local r = db.row("SELECT * FROM intents WHERE intent = ?", intent)
  if reply.outcome == "not_found" then
    ${ON_NOT_FOUND[notFound]}
  else
    lookup(intent, r.op_key)
  end
end
function on_timeout(intent, call)
  local r = db.row("SELECT * FROM intents WHERE intent = ?", intent)
  ${ON_TIMEOUT[timeout]}
end
function on_connect_error(intent, attempt)
  resend(intent, db.row("SELECT * FROM intents WHERE intent = ?", intent))
end
${ON_RESTART[restart] === null ? '' : `function on_restart()
  for _, r in ipairs(db.rows("SELECT * FROM intents WHERE ${ON_RESTART[restart]}")) do
    lookup(r.intent, r.op_key)
  end
end`}
`;
}

// 45 designs (a fixed stride through every combination) and 5 that fail as code.
function submissions() {
  const combos = [];
  for (const k of Object.keys(KEYS)) {
    for (const t of Object.keys(ON_TIMEOUT)) {
      for (const n of Object.keys(ON_NOT_FOUND)) {
        for (const r of Object.keys(ON_RESTART)) combos.push([k, t, n, r]);
      }
    }
  }
  const out = [];
  for (let i = 0; out.length < 45; i += 1) out.push(submission(...combos[(i * 7) % combos.length]));
  out.push('function on_deliver(intent, payload)\n  local x = = 1\nend\n');
  out.push('function on_deliver(intent, payload)\n  while true do end\nend\n');
  out.push('function on_deliver(intent, payload)\n  return db.rows("SELECT * FROM deliveries")\nend\n');
  out.push(submission('stored', 'lookup', 'resend', 'both').replace('function on_timeout(intent, call)\n', 'function on_timeout(intent, call)\n  local broken = nil\n  broken.x = 1\n'));
  out.push('function on_deliver(intent, payload)\n  print(truth)\nend\n');
  return out;
}

test('fifty submissions get the same grade natively and in the page\'s code module', () => {
  const codes = submissions();
  assert.equal(codes.length, 50);
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-grade-'));
  try {
    codes.forEach((c, i) => writeFileSync(join(dir, `s${String(i).padStart(2, '0')}.lua`), c));
    const r = spawnSync(resolve(REPO, 'build/native/idemlab'), ['grade', EXERCISE, dir],
      { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 50);
    const verdicts = { passed: 0, failed: 0, error: 0 };
    lines.forEach((native, i) => {
      assert.equal(native.file, `s${String(i).padStart(2, '0')}.lua`);
      delete native.file;
      const wasm = JSON.parse(code.call('grade', JSON.stringify({ exercise, code: codes[i] })));
      assert.equal(JSON.stringify(wasm), JSON.stringify(native), `submission ${i}:\n${codes[i]}`);
      verdicts[wasm.passed ? 'passed' : wasm.error ? 'error' : 'failed'] += 1;
    });
    // The submissions are not all alike: designs pass and fail, and broken code errs.
    assert.ok(verdicts.passed >= 3, JSON.stringify(verdicts));
    assert.ok(verdicts.failed >= 10, JSON.stringify(verdicts));
    assert.ok(verdicts.error >= 5, JSON.stringify(verdicts));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the page\'s main engine does not run code: it says so, and grade says code mode is elsewhere', () => {
  const refused = JSON.parse(page.call('run', JSON.stringify({ scenario: { ...exercise.scenario, code: 'function on_deliver() end' } })));
  assert.equal(refused.error.path, '/scenario/code');
  const graded = JSON.parse(page.call('grade', JSON.stringify({ exercise, code: 'function on_deliver() end' })));
  assert.equal(graded.passed, false);
  assert.equal(graded.error.kind, 'unavailable');
});

test('in the code module, each exercise\'s naive code fails with a counterexample and its reference passes', () => {
  const ids = readdirSync(resolve(REPO, 'lessons/exercises')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  assert.ok(ids.length >= 3, ids.join(', '));
  for (const id of ids) {
    const ex = JSON.parse(readFileSync(resolve(REPO, 'lessons/exercises', `${id}.json`), 'utf8'));
    const grade = (file) => JSON.parse(code.call('grade', JSON.stringify({ exercise: ex, code: readFileSync(resolve(REPO, 'tests/exercises', id, file), 'utf8') })));
    const naive = grade('naive.lua');
    assert.equal(naive.passed, false, id);
    assert.equal(naive.error, null, id);
    assert.ok(naive.counterexample && naive.counterexample.scenario.code, id);
    const reference = grade('reference.lua');
    assert.equal(reference.passed, true, `${id}: ${JSON.stringify(reference.counterexample || reference.error)}`);
  }
});

