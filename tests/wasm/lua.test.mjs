// Lua in WebAssembly, as the build compiles it: the probe (tests/engine/lua_probe.cpp, built
// alone as build/wasm/lua-probe.js) runs the chunks of tests/engine/lua_probe_cases.json to
// the same text as the native doctest (tests/engine/lua_test.cpp): Lua's errors caught as
// wasm exceptions, the instruction budget, one order of string keys. And the code-mode
// module (dist/engine/idemlab-code.js + .wasm: the engine with Lua, which the page loads only
// when code mode is first used) answers the engine API as the page's engine does.
// Run after scripts/build.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, loadFactory, REPO } from './engine-node.mjs';

const { cases } = JSON.parse(readFileSync(resolve(REPO, 'tests/engine/lua_probe_cases.json'), 'utf8'));

async function loadProbe() {
  const createLuaProbe = loadFactory(resolve(REPO, 'build/wasm/lua-probe.js'));
  const m = await createLuaProbe({ wasmBinary: readFileSync(resolve(REPO, 'build/wasm/lua-probe.wasm')) });
  return (chunk, budget) => {
    const bytes = m.lengthBytesUTF8(chunk) + 1;
    const ip = m._malloc(bytes);
    m.stringToUTF8(chunk, ip, bytes);
    const out = m._idemlab_lua_probe(ip, budget);
    m._free(ip);
    const text = m.UTF8ToString(out);
    m._free(out);
    return text;
  };
}

test('Lua in WebAssembly runs each probe chunk to the answer the native build gives', async () => {
  const probe = await loadProbe();
  assert.ok(cases.length >= 7);
  for (const c of cases) {
    const out = probe(c.chunk, c.budget);
    if ('expect' in c) assert.equal(out, c.expect, c.name);
    else assert.equal(createHash('sha256').update(out).digest('hex'), c.expect_sha256, `${c.name}: ${out}`);
  }
  // Errors caught and states closed many times over: the module stays usable.
  for (let i = 0; i < 200; i++) assert.equal(probe(cases[0].chunk, cases[0].budget), cases[0].expect);
});

test('the code-mode module answers the engine API byte for byte as the page\'s engine', async () => {
  const page = await loadEngine();
  const code = await loadEngine(resolve(REPO, 'dist/engine'), 'idemlab-code');
  assert.equal(code.call('vocabulary', ''), page.call('vocabulary', ''));
  const file = 'lessons/01-lost-receipt.json';
  const input = JSON.stringify({ file, text: readFileSync(resolve(REPO, file), 'utf8') });
  assert.equal(code.call('run', input), page.call('run', input));
  // A refused lesson is a thrown error in the engine: it unwinds in this module too.
  const bad = JSON.stringify({ file: 'bad.json', text: '{' });
  assert.equal(code.call('run', bad), page.call('run', bad));
});
