// The built site (dist/) on 127.0.0.1 for a bench script: the server scripts/serve and the
// browser tests use (scripts/lib/static-server.mjs: application/wasm, the precompressed
// .br/.gz copies sent when the browser accepts them), in a process of its own, stopped when
// the script exits.
import { spawn } from 'node:child_process';
import { REPO } from '../../tests/wasm/engine-node.mjs';

/**
 * Serves dist/ on `port` (or `dir`, or the folder IDEMLAB_BENCH_DIST names: a copy of the site built
 * from another commit, to time a before and an after side by side in one run; the sizes
 * scripts/bench reports are still read from dist/); resolves
 * once it answers. Returns a function that stops it.
 */
export async function serveDist(port, dir = process.env.IDEMLAB_BENCH_DIST || 'dist') {
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['scripts/lib/static-server.mjs', '--dir', dir, '--port', String(port), '--host', '127.0.0.1'],
    { cwd: REPO, stdio: 'ignore' });
  const stop = () => server.kill();
  process.on('exit', stop);
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${origin}/`)).ok) return stop;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`no server on ${origin}`);
}
