// Chromium's trace of a page's main thread, for the bench's CPU figures: on a shared
// machine a task's wall time counts the time the system gave to other processes, its
// thread time (the trace's tdur) does not. Spans are named by performance.mark() calls
// the bench makes in the page (they reach the trace through blink.user_timing).
//
// const trace = await startTrace(page);  ...  const t = await trace.stop();
// t.tasksBetween('mark-a', 'mark-b') -> each main-thread task's CPU time (ms) that began
// after the first mark and no later than the second (a missing first mark: from the start);
// t.events: the whole trace (Chrome's trace event format).

const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';

export async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((r) => cdp.on('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return {
    async stop() {
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => {});
      const thread = events.find((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
      const tasks = events.filter((e) => thread && e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X' && e.name === 'RunTask');
      const at = (name) => (events.find((e) => e.name === name) || {}).ts;
      return {
        events,
        at,
        tasksBetween(from, to) {
          const a = from === null ? -Infinity : at(from);
          const b = at(to);
          if (a === undefined || b === undefined) throw new Error(`the trace has no mark ${a === undefined ? from : to}`);
          return tasks.filter((e) => e.ts > a && e.ts <= b).map((e) => (e.tdur || 0) / 1000);
        },
      };
    },
  };
}

/** The largest of `xs` (CPU ms), 0 for none. */
export const longestOf = (xs) => Math.max(0, ...xs);
