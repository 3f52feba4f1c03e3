// The side-by-side view with both space-time diagrams, the fault plan named, counters that
// read right, each column's verdict from the engine; and the diagrams' time axis (by step
// or by virtual time). Lessons, moments and expected values all come from the engine's
// output through the page (window.__idemlab), never from numbers written here.
// Each test asks the engine for every compare lesson, and a loaded machine is slow at it.
test.describe.configure({ timeout: 120_000 });

import { test, expect, LESSON, useEnglish, builtLessons, sandboxReady, settleLessons } from './helpers.mjs';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO } from '../wasm/engine-node.mjs';

/** The built site's lessons that have a side-by-side view: [{id, file, text}]. */
function compareLessons() {
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  const texts = new Map(builtLessons().map((x) => [x.file, x.text]));
  return index.lessons.filter((e) => e.ok && e.compare).map((e) => ({ id: e.id, file: e.file, text: texts.get(e.file) }));
}

// Side by side shows how both runs end, so it opens once a lesson's questions are settled:
// every test here starts with them settled (secrecy.spec.mjs checks the view before that).
test.beforeEach(async ({ page }) => {
  await settleLessons(page, [LESSON, ...compareLessons().map((x) => x.id)]);
});

async function engine(page, method, lesson) {
  return page.evaluate(async ([m, input]) => await window.__idemlab.call(m, input), [method, { file: lesson.file, text: lesson.text }]);
}

/** Every compare lesson's engine output, asked of the page's engine once it has loaded. */
async function allCompares(page) {
  await page.goto(`./#/lesson/${LESSON}`);
  await page.locator('body[data-ready="true"]').waitFor();
  const out = [];
  for (const lesson of compareLessons()) out.push({ id: lesson.id, lesson, data: await engine(page, 'compare', lesson) });
  return out;
}

const timesOf = (data) => [...new Set(data.policies.flatMap((p) => p.steps.map((s) => s.t)))].sort((a, b) => a - b);
/** A policy's last step at or before virtual time `time` (-1: none). */
const stepAt = (p, time) => p.steps.filter((s) => s.t <= time).length - 1;
const sendsAt = (data, p, at) => p.messages.filter((m) => m.kind === 'request' && m.intent === data.intent && m.sent_step <= at).length;

async function openCompare(page, id, i) {
  await page.goto(`./#/lesson/${id}/compare/step/${i}`);
  const view = page.locator(`[data-testid="compare-view"][data-lesson="${id}"]`);
  await view.waitFor();
  await expect(view).toHaveAttribute('data-step', String(i));
  return view;
}

test('side by side: each column draws its own run\'s diagram, with that run\'s messages up to the moment shown', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // A lesson and a moment where the two runs have sent different numbers of messages.
  let pick = null;
  for (const { id, data } of all) {
    const times = timesOf(data);
    for (let i = 0; i < times.length && !pick; i++) {
      const sent = data.policies.map((p) => p.messages.filter((m) => m.sent_step <= stepAt(p, times[i])).length);
      if (sent[0] !== sent[1] && sent[0] > 0 && sent[1] > 0) pick = { id, data, i, times };
    }
    if (pick) break;
  }
  expect(pick, 'a compare lesson whose runs send differently').not.toBeNull();
  await openCompare(page, pick.id, pick.i);
  const cols = page.getByTestId('compare-timeline');
  await expect(cols.getByTestId('diagram')).toHaveCount(2);
  for (let k = 0; k < 2; k++) {
    const p = pick.data.policies[k];
    const at = stepAt(p, pick.times[pick.i]);
    const drawn = cols.nth(k).locator('[data-testid="diagram"] .msg');
    const expected = p.messages.filter((m) => m.sent_step <= at).map((m) => String(m.id));
    await expect(drawn).toHaveCount(expected.length);
    expect((await drawn.evaluateAll((els) => els.map((e) => e.getAttribute('data-message')))).sort()).toEqual(expected.sort());
    await expect(cols.nth(k).getByTestId('diagram')).toHaveAttribute('data-step', String(at));
  }
  // Stepping moves both diagrams; at the end each has every message of its run.
  await page.getByTestId('compare-title').focus();
  await page.keyboard.press('End');
  for (let k = 0; k < 2; k++) {
    const p = pick.data.policies[k];
    await expect(cols.nth(k).locator('[data-testid="diagram"] .msg')).toHaveCount(p.messages.length);
    await expect(cols.nth(k).getByTestId('diagram')).toHaveAttribute('data-step', String(p.steps.length - 1));
  }
});

test('side by side: a lesson built around a crash names it as what goes wrong, not "no fault"', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // The engine's words for a plan with no fault: the fault-free world of a lesson's run.
  const run = await engine(page, 'run', all[0].lesson);
  const noFault = run.worlds.find((w) => w.faults.length === 0);
  expect(noFault, 'a fault-free world in the fault space').toBeTruthy();
  const crashing = all.filter(({ data }) => data.policies.some((p) => p.steps.some((s) => s.event && s.event.kind === 'crash')));
  expect(crashing.length).toBeGreaterThan(0);
  for (const { id, data } of crashing) {
    await openCompare(page, id, 0);
    const shown = page.getByTestId('compare-faults');
    await expect(shown).toContainText(data.faults.en);
    await expect(shown).not.toContainText(noFault.text.en);
  }
});

test('side by side: counters read "1 effect", "2 effects", "1 request sent" as the engine counts them', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // Moments (lesson, time, column) where a counter is 1 and where it is more than 1.
  const found = {};
  for (const { id, data } of all) {
    const times = timesOf(data);
    times.forEach((time, i) =>
      data.policies.forEach((p, k) => {
        const at = stepAt(p, time);
        const st = at >= 0 ? p.steps[at] : null;
        const effects = st ? st.truth.by_intent[data.intent] || 0 : 0;
        const sends = sendsAt(data, p, at);
        const spot = { id, i, k, intent: data.intent };
        if (effects === 1) found.effect1 ??= { ...spot, n: 1 };
        if (effects > 1) found.effectMany ??= { ...spot, n: effects };
        if (sends === 1) found.send1 ??= { ...spot, n: 1 };
        if (sends > 1) found.sendMany ??= { ...spot, n: sends };
      }),
    );
  }
  const checks = [
    ['effect1', 'effect-counter', (x) => `effect for “${x.intent}”`],
    ['effectMany', 'effect-counter', (x) => `effects for “${x.intent}”`],
    ['send1', 'send-counter', () => 'request sent'],
    ['sendMany', 'send-counter', () => 'requests sent'],
  ];
  for (const [what, testid, label] of checks) {
    const x = found[what];
    expect(x, what).toBeTruthy();
    await openCompare(page, x.id, x.i);
    const counter = page.getByTestId('compare-timeline').nth(x.k).getByTestId(testid);
    await expect(counter.locator('.counter-n')).toHaveText(String(x.n));
    await expect(counter.locator('.counter-label')).toHaveText(label(x));
  }
  // Chinese has no plural: one word for both.
  await page.getByTestId('lang-switch').click();
  const x = found.effectMany;
  await expect(page.getByTestId('compare-timeline').nth(x.k).getByTestId('effect-counter').locator('.counter-label')).toHaveText(`条“${x.intent}”的业务效果`);
});

test('side by side: each column gives the engine\'s verdict on its own run once that run is over', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // A lesson whose two runs are judged differently by the invariants.
  const flags = (p) => JSON.stringify(p.steps[p.steps.length - 1].invariants);
  const pick = all.find(({ data }) => flags(data.policies[0]) !== flags(data.policies[1]));
  expect(pick, 'a compare lesson whose verdicts differ').toBeTruthy();
  const { id, data } = pick;
  const view = await openCompare(page, id, 0);
  const cols = page.getByTestId('compare-timeline');
  for (let k = 0; k < 2; k++) {
    if (data.policies[k].steps.length > 1) await expect(cols.nth(k).getByTestId('compare-verdict')).toHaveAttribute('data-shown', 'false');
  }
  await page.getByTestId('compare-title').focus();
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-step', String(timesOf(data).length - 1));
  for (let k = 0; k < 2; k++) {
    const p = data.policies[k];
    const verdict = cols.nth(k).getByTestId('compare-verdict');
    await expect(verdict).toHaveAttribute('data-shown', 'true');
    const inv = p.steps[p.steps.length - 1].invariants;
    const names = Object.keys(inv).filter((n) => typeof inv[n] === 'boolean');
    expect(names.length).toBeGreaterThan(0);
    await expect(verdict.locator('li[data-invariant]')).toHaveCount(names.length);
    // The whole run's verdict: broken at the end, or on the way and put right later (a
    // FAILED row resent and replayed as DELIVERED: the user was told "failed" all the same).
    const brokenInRun = new Set(p.verdict.violations.map((v) => v.invariant));
    for (const n of names) {
      await expect(verdict.locator(`li[data-invariant="${n}"]`)).toHaveClass(inv[n] || brokenInRun.has(n) ? /inv-broken/ : /inv-ok/);
    }
    for (const v of p.verdict.violations) await expect(verdict.locator(`li[data-invariant="${v.invariant}"]`)).toContainText(v.reason.en);
    await expect(verdict.getByTestId('compare-stop')).toHaveText(p.verdict.stop_text.en);
  }
});

test('side by side: a client status is drawn as alarming only where the engine finds its intent broken, not by its name', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // The page's alarm colour, as its style sheet defines it.
  const danger = await page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.background = 'var(--c-danger-soft)';
    const bg = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return bg;
  });
  let calm = 0;
  for (const { id, data } of all) {
    await openCompare(page, id, timesOf(data).length - 1);
    const cols = page.getByTestId('compare-timeline');
    for (let k = 0; k < 2; k++) {
      const p = data.policies[k];
      const last = p.steps[p.steps.length - 1];
      const status = last.client.status[data.intent];
      if (!status) continue;
      const broken = (last.invariants.violations || []).some((v) => v.intent === data.intent);
      const pill = cols.nth(k).getByTestId('client-status').locator('.status');
      await expect(pill).toHaveText(status);
      const bg = await pill.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg === danger, `${id}, ${p.id}: ${status}, engine finds it ${broken ? 'broken' : 'safe'}`).toBe(broken);
      if (!broken && ['CONFLICT', 'FAILED'].includes(status)) calm += 1;
    }
  }
  // At least one run ends in a refusal the engine finds nothing wrong with (retry-duplicates'
  // one key per intent, refusing the revised report): it is not drawn red.
  expect(calm).toBeGreaterThan(0);
});

/** Row tops by step and each drawn message's start (its first line's y1), read from a diagram. */
async function geometry(diagram) {
  return diagram.evaluate((svg) => ({
    rows: [...svg.querySelectorAll('.row')].map((r) => [Number(r.getAttribute('data-step')), Number(r.getAttribute('y'))]).sort((a, b) => a[0] - b[0]).map((r) => r[1]),
    messages: [...svg.querySelectorAll('.msg')].map((g) => [Number(g.getAttribute('data-message')), Number(g.querySelector('line').getAttribute('y1'))]),
    gaps: [...svg.querySelectorAll('[data-testid="diagram-gap"]')].map((g) => [Number(g.getAttribute('data-step')), g.querySelector('text').textContent]),
  }));
}

test('time axis: by virtual time, rows are as far apart as their time, long idle gaps are squeezed and labelled, and the choice is kept', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // A run with steps at the same time and steps further apart (the two axes differ there),
  // the one with the longest wait between two steps.
  const wait = (p) => Math.max(0, ...p.steps.map((s, i) => (i > 0 ? s.t - p.steps[i - 1].t : 0)));
  let pick = null;
  for (const { id, data } of all) {
    data.policies.forEach((p, k) => {
      const same = p.steps.some((s, i) => i > 0 && s.t === p.steps[i - 1].t);
      if (same && wait(p) > 0 && (!pick || wait(p) > wait(pick.data.policies[pick.k]))) pick = { id, data, k };
    });
  }
  expect(pick).not.toBeNull();
  const { id, data, k } = pick;
  const p = data.policies[k];
  await openCompare(page, id, timesOf(data).length - 1);
  const col = page.getByTestId('compare-timeline').nth(k);
  const diagram = col.getByTestId('diagram');
  const dts = p.steps.map((s, i) => (i === 0 ? null : s.t - p.steps[i - 1].t));

  // By step (the default): every row as far from the one before, no gap drawn.
  await expect(diagram).toHaveAttribute('data-axis', 'step');
  let g = await geometry(diagram);
  expect(g.rows.length).toBe(p.steps.length);
  expect(new Set(g.rows.slice(1).map((yy, i) => yy - g.rows[i])).size).toBe(1);
  expect(g.gaps).toEqual([]);

  // Switch with the keyboard: the radio group moves with the arrow keys.
  await col.getByTestId('diagram-axis-step').focus();
  await page.keyboard.press('ArrowDown');
  await expect(col.getByTestId('diagram-axis-time')).toBeChecked();
  await expect(diagram).toHaveAttribute('data-axis', 'time');
  // Both columns follow the one choice.
  await expect(page.getByTestId('compare-timeline').nth(1 - k).getByTestId('diagram')).toHaveAttribute('data-axis', 'time');
  g = await geometry(diagram);
  const spacing = g.rows.slice(1).map((yy, i) => [dts[i + 1], yy - g.rows[i]]);
  // Further apart in time is never closer on screen, and time passing is always further than none.
  for (const [dtA, a] of spacing) {
    for (const [dtB, b] of spacing) {
      if (dtA > dtB) expect(a).toBeGreaterThanOrEqual(b);
      if (dtA > 0 && dtB === 0) expect(a).toBeGreaterThan(b);
    }
  }
  // Messages sent later start lower.
  const sentAt = new Map(p.messages.map((m) => [m.id, m.sent_at]));
  const starts = g.messages.map(([mid, yy]) => [sentAt.get(mid), yy]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < starts.length; i++) {
    if (starts[i][0] > starts[i - 1][0]) expect(starts[i][1]).toBeGreaterThan(starts[i - 1][1]);
  }
  // A squeezed gap says how long it is; the longest wait of the run is one of them.
  const longest = Math.max(...dts.filter((x) => x !== null));
  expect(g.gaps.length).toBeGreaterThan(0);
  for (const [step, text] of g.gaps) expect(text).toBe(`+ ${dts[step]} ms`);
  expect(g.gaps.map(([step]) => dts[step])).toContain(longest);

  // Kept: after a reload, and in the lesson view's diagram too.
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('compare-timeline').nth(k).getByTestId('diagram')).toHaveAttribute('data-axis', 'time');
  await page.goto(`./#/lesson/${LESSON}`);
  await page.locator(`[data-testid="lesson-view"][data-lesson="${LESSON}"]`).waitFor();
  await expect(page.locator('[data-testid="lesson-view"] [data-testid="diagram"]')).toHaveAttribute('data-axis', 'time');
  await expect(page.locator('[data-testid="lesson-view"]').getByTestId('diagram-axis-time')).toBeChecked();
  // And back by step.
  await page.locator('[data-testid="lesson-view"]').getByTestId('diagram-axis-step').check();
  await expect(page.locator('[data-testid="lesson-view"] [data-testid="diagram"]')).toHaveAttribute('data-axis', 'step');
  await expect(page.locator('[data-testid="lesson-view"] [data-testid="diagram-gap"]')).toHaveCount(0);
});

test('time axis: the sandbox diagram has the switch too', async ({ page }) => {
  await useEnglish(page);
  await page.goto(`./#/lesson/${LESSON}`);
  await page.locator('body[data-ready="true"]').waitFor();
  const code = await page.evaluate(async (id) => {
    const l = window.__idemlab.lesson(id);
    const out = await window.__idemlab.call('scenario', { file: l.file, text: l.text });
    return window.__idemlab.sandboxCode({ v: 1, s: out.scenario, from: id });
  }, LESSON);
  await page.goto(`./#/sandbox/${code}`);
  await sandboxReady(page);
  await page.getByTestId('diagram-axis-time').check();
  await expect(page.getByTestId('diagram')).toHaveAttribute('data-axis', 'time');
});

test('side by side: at the end, a column names what its run broke on the way, not only what still fails at its last step', async ({ page }) => {
  await useEnglish(page);
  const all = await allCompares(page);
  // A run whose verdict names an invariant that holds again at its last step (two copies of
  // the work at once, over before the end).
  let pick = null;
  for (const { id, data } of all) {
    data.policies.forEach((p, k) => {
      const last = p.steps[p.steps.length - 1].invariants || {};
      const healed = (p.verdict.violations || []).find((v) => last[v.invariant] === false);
      if (!pick && healed) pick = { id, data, k, invariant: healed.invariant };
    });
    if (pick) break;
  }
  expect(pick, 'a compared run that breaks an invariant only on the way').not.toBeNull();
  const times = timesOf(pick.data);
  await openCompare(page, pick.id, times.length - 1);
  const col = page.getByTestId('compare-timeline').nth(pick.k);
  const verdict = col.getByTestId('compare-verdict');
  await expect(verdict).toHaveAttribute('data-shown', 'true');
  await expect(verdict.locator(`[data-invariant="${pick.invariant}"]`)).toHaveClass(/inv-broken/);
});

test('side by side: retry layers read as layers, not as JSON', async ({ page }) => {
  await useEnglish(page);
  const withLayers = compareLessons().filter((l) => JSON.parse(l.text).compare.policies.some((p) => p.client && Array.isArray(p.client.retry_layers)));
  expect(withLayers.length).toBeGreaterThan(0);
  for (const lesson of withLayers) {
    await openCompare(page, lesson.id, 0);
    const knobs = page.getByTestId('compare-knobs');
    await expect(knobs.first()).toContainText('retry_layers: ');
    for (const text of await knobs.allInnerTexts()) {
      expect(text).not.toContain('{"');
      expect(text).toMatch(/retry_layers: \S+ × \d/);
    }
  }
});

test('a side-by-side link to a moment that is not a number, or past the end, says so beside the moment it shows; the next move takes the notice away', async ({ page }) => {
  await useEnglish(page);
  const [{ id }] = compareLessons();
  await page.goto(`./#/lesson/${id}/compare/step/-3`);
  const view = page.locator(`[data-testid="compare-view"][data-lesson="${id}"]`);
  await view.waitFor();
  // The view's first moment, as its scrubber starts.
  const start = await page.getByTestId('compare-scrubber').getAttribute('min');
  await expect(view).toHaveAttribute('data-step', start);
  await expect(page.getByTestId('notice-bad-step')).toContainText('“-3”');
  await expect(page.getByTestId('notice-bad-step')).toContainText(`moment ${start} is shown (time ${Number(start) + 1} of ${Number(await view.getAttribute('data-last')) + 1})`);
  await expect(page).toHaveURL(new RegExp(`#/lesson/${id}/compare/step/${start}$`));

  // Typed into the address of the open view: past its end.
  const last = await view.getAttribute('data-last');
  await page.evaluate(() => { window.location.hash = window.location.hash.replace(/step\/\d+$/, 'step/999'); });
  await expect(view).toHaveAttribute('data-step', last);
  await expect(page.getByTestId('notice-bad-step')).toHaveCount(0);
  const past = page.getByTestId('notice-past-end');
  await expect(past).toContainText('moment 999');
  await expect(past).toContainText(`0 to ${last}`);
  await expect(page).toHaveURL(new RegExp(`#/lesson/${id}/compare/step/${last}$`));

  await page.getByTestId('compare-first').click();
  await expect(view).toHaveAttribute('data-step', start);
  await expect(past).toHaveCount(0);
});

test('a side-by-side link\'s notice stays through a language switch, said in the new language', async ({ page }) => {
  await useEnglish(page);
  const [{ id }] = compareLessons();
  await page.goto(`./#/lesson/${id}/compare/step/-3`);
  await expect(page.getByTestId('notice-bad-step')).toContainText('“-3”');
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('notice-bad-step')).toContainText('“-3”不是有效的时刻编号');
});

test('the same notice in Chinese', async ({ page }) => {
  const [{ id }] = compareLessons();
  await page.goto(`./?lang=zh-CN#/lesson/${id}/compare/step/abc`);
  await page.locator(`[data-testid="compare-view"][data-lesson="${id}"]`).waitFor();
  await expect(page.getByTestId('notice-bad-step')).toContainText('“abc”不是有效的时刻编号');
});
