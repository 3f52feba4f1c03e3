// The lesson view: controls, narration, question cards, diagram, panels,
// knowledge grid, text timeline and self-check, all kept on one current step.
// Everything shown comes from the engine's timeline and verdicts; what stays hidden
// while a question is open is the engine's too (each question's "hides").

import { h, replaceChildren, rebuildKeepingFocus, stickyBar } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { challengesHash, codeHash, lessonHash, listHash, replaceHash, sandboxHash, shortText } from '../router.js';
import { ExerciseStore } from '../exercises.js';
import { isOfflineCopy } from '../bundled.js';
// The sandbox's link codec (with fflate) is not on a lesson's way: loaded for a link to the sandbox.
const codec = () => import('../sandbox/codec.js');
import { clampStep, blockingStep, questionsAt, hiddenAt, momentAt } from '../gating.js';
import { postAnswerChecked, postRevealed, postLessonCompleted, postStep } from '../embed.js';
import { questionShown } from '../lms-launch.js';
import { renderDiagram } from './diagram.js';
import { clientPanel, servicePanel, networkStrip, providerPanel } from './panels.js';
import { knowledgeGrid, truthSummary, worldList } from './knowledge.js';
import { questionCard } from './questions.js';
import { renderTimeline, stepLine } from './timeline.js';
import { selfCheck } from './selfcheck.js';
import { shownAgainst } from '../progress.js';
import { scoreLine, challengeLine, challengeState } from './score.js';
import { icon } from '../icons.js';
import { stepKeyTarget, letterKey } from '../keys.js';
import { stepButtons, enableStepButtons, scrubber, focusWhenLaidOut, playControls, STEP_KEYS } from './stepcontrols.js';
import { lessonTabs } from './tabs.js';
import { incidentPanel } from './incident.js';
import { renderNotices, linkNotices } from './notices.js';

// A hidden cell names its question by the start of the prompt, in at most this many
// characters (half as many in text without spaces).
const PROMPT_START = 36;

/** `hidden` with each hiding question given its number in the lesson ({...q, number}). */
function numbered(hidden, questions) {
  const sides = new Map();
  for (const [side, q] of hidden.sides) sides.set(side, { ...q, number: questions.indexOf(q) + 1 });
  return { ...hidden, sides };
}

// The code exercises' index (lessons/exercises/index.json), read once when a lesson ends.
const exerciseIndex = new ExerciseStore();

/** The code exercise that follows lesson `id` (its `after`), as a link on the end card,
 *  filled in when the index comes; nothing when none follows, the index is not there, or
 *  this is the offline copy. */
function exerciseLink(id) {
  // The offline copy and LMS packages carry no exercises (and their policy forbids the fetch).
  if (isOfflineCopy()) return null;
  const slot = h('p', { class: 'end-exercise', 'data-testid': 'end-exercise-slot' });
  exerciseIndex
    .loadIndex()
    .then((entries) => {
      const ex = entries.find((e) => e.status === 'ok' && e.after === id);
      if (ex) replaceChildren(slot, h('a', { class: 'btn btn-small', href: codeHash(ex.id), 'data-testid': 'end-exercise' }, t('lesson.endExercise', { title: l(ex.title) })));
    })
    .catch(() => {});
  return slot;
}

export class LessonView {
  constructor(root, { rec, store, progress, initialStep, stepText = null, extra = null, focus = false, drafts = null, notices = [] }) {
    this.kind = 'lesson';
    this.root = root;
    this.rec = rec;
    this.run = rec.run;
    this.id = rec.id;
    this.store = store;
    this.progress = progress;
    this.last = this.run.steps.length - 1;
    // A question that is tied to no moment (a concept question) is asked at the end.
    this.lesson = {
      ...rec.run.lesson,
      questions: (rec.run.lesson.questions || []).map((q) =>
        Number.isInteger(q.step) && q.step >= 0 && q.step <= this.last ? q : { ...q, step: this.last },
      ),
    };
    this.drafts = drafts || new Map(); // table cells chosen but not yet checked
    this.playing = null; // Play, its speed and its animation on the diagram (mount())
    this.step = -1;
    this.cardsStep = -1;
    this.showTruth = progress.getPref('showTruth', true);
    this.seed = progress.learnerSeed();
    this.notices = [...notices];
    this.justCompleted = false; // the last check completed the lesson: the end takes the focus
    this.confirmRetake = false;

    const answered = (qid) => this.progress.isSettled(this.id, qid);
    let start = initialStep;
    if (start === null || start === undefined) {
      const lp = progress.peek(this.id);
      start = lp && Number.isInteger(lp.step) ? lp.step : 0;
    }
    const allowed = clampStep(start, this.last, this.lesson.questions, answered);
    this.notices.push(...linkNotices(this.linkNotice(initialStep, stepText, allowed), extra));
    this.mount();
    this.go(allowed, { force: true, fromLink: true });
    document.title = `${l(this.lesson.title)} · idemlab`;
    if (focus) focusWhenLaidOut(this.root.querySelector('[data-testid="lesson-title"]'));
  }

  /** Settled: answered right, or its answer shown; the timeline and the hidden cells wait for it. */
  isAnswered(qid) {
    return this.progress.isSettled(this.id, qid);
  }

  /**
   * "question 3 (“Does the client know…”)": a question by its number and the start of its
   * prompt; a question whose card the learner cannot reach yet by its number alone (its
   * prompt often says what happens before it: "The client now holds a receipt").
   */
  questionRef(q) {
    const n = this.lesson.questions.findIndex((x) => x.id === q.id) + 1;
    if (!Number.isInteger(q.step) || q.step > this.gate()) return t('q.refNumber', { n });
    const prompt = l(q.prompt);
    // Cut at a word's end in spaced text; text without spaces (Chinese) says as much in
    // half as many characters.
    const spaced = prompt.includes(' ');
    const max = spaced ? PROMPT_START : PROMPT_START / 2;
    let start = prompt;
    if (prompt.length > max) {
      const cut = prompt.slice(0, max);
      const space = spaced ? cut.lastIndexOf(' ') : -1;
      start = `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
    }
    return t('q.ref', { n, prompt: start });
  }

  /** The next lesson in the list's order, or null (the last one, or an index not read). */
  nextLesson() {
    const entries = (this.store.entries || []).filter((e) => e.status === 'ok');
    const at = entries.findIndex((e) => e.id === this.id);
    return at >= 0 && at + 1 < entries.length ? entries[at + 1] : null;
  }

  gate() {
    return blockingStep(this.lesson.questions, (qid) => this.isAnswered(qid));
  }

  /** The scrubber's ticks: each moment of the narration and each question, at its step. */
  scrubTicks() {
    const lesson = this.lesson;
    return h(
      'div',
      { class: 'ticks', 'aria-hidden': 'true' },
      (lesson.moments || []).filter((m) => Number.isInteger(m.step)).map((m) =>
        h('span', { class: 'tick tick-m', style: `left:${this.last ? (100 * m.step) / this.last : 0}%` }),
      ),
      (lesson.questions || []).map((q) =>
        h('span', { class: 'tick tick-q', style: `left:${this.last ? (100 * q.step) / this.last : 0}%` }),
      ),
    );
  }

  mount() {
    const lesson = this.lesson;
    this.el = stepButtons(STEP_KEYS, { first: 'first', prev: 'prev', next: 'next', last: 'last' }, this, (n) => this.tryGo(n));
    this.el.diagram = h('section', { class: 'card diagram-card', 'aria-labelledby': 'diagram-h' }, h('h3', { id: 'diagram-h', class: 'section-title' }, t('diagram.title')));
    // Play animates the run in virtual time on the diagram, up to the next open question.
    this.playing = playControls(this.el.diagram, {
      progress: this.progress,
      step: () => this.step,
      canStep: (n) => n <= this.last && n <= this.gate(),
      land: (n) => this.go(n),
    });
    this.el.play = this.playing.button;
    this.el.nextQuestion = h('button', { type: 'button', class: 'btn btn-ctl btn-next-q', 'data-testid': 'next-question', onclick: () => this.nextQuestion() }, t('lesson.nextQuestion'));
    this.el.range = scrubber({ last: this.last, label: t('lesson.scrubber'), testid: 'scrubber', id: 'scrubber', go: (n) => this.tryGo(n) });
    this.el.stepLabel = h('p', { class: 'step-label', 'data-testid': 'step-label', 'aria-hidden': 'true' });
    this.el.gateMsg = h('p', { class: 'gate-msg', role: 'status', 'data-testid': 'gate-msg' });
    this.el.notices = h('div', { class: 'notices' });
    // The sandbox runs this scenario to its end: it opens once no question is left to give away.
    this.el.sandboxNote = h('span', { class: 'muted small', id: 'sb-open-note', 'data-testid': 'open-in-sandbox-locked' }, t('sandbox.openLocked'));
    this.el.sandboxBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'open-in-sandbox', title: t('sandbox.openHint'), onclick: () => this.openInSandbox() }, t('sandbox.open'));
    this.el.narration = h('section', { class: 'card narration', 'data-testid': 'narration', 'aria-label': t('lesson.narration') });
    this.el.questions = h('div', { class: 'questions', 'data-testid': 'questions' });
    this.el.panels = h('div', { class: 'panels' });
    this.el.grid = h('div', { class: 'grid-slot' });
    this.el.truth = h('div', { class: 'truth-slot' });
    this.el.timeline = h('section', { class: 'card timeline-card' });
    this.el.completed = h('div', { class: 'completed-slot' });
    this.el.end = h('div', { class: 'end-slot' });
    this.el.challenge = h('div', { class: 'challenge-slot' });
    this.el.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'step-announce' });
    // The lesson's goals, from the start; ticked once every question is settled (update()).
    this.selfCheck = selfCheck(this.id, lesson.self_check, this.progress);
    // Drawn as the learner sees the truth (update()): off and disabled, naming the question,
    // while an open question keeps it hidden; the learner's own choice otherwise.
    const truthToggle = (this.el.truthToggle = h('input', {
      type: 'checkbox',
      id: 'truth-toggle',
      class: 'switch',
      checked: !!this.showTruth,
      'data-testid': 'truth-toggle',
      onchange: (ev) => {
        this.showTruth = ev.target.checked;
        this.progress.setPref('showTruth', this.showTruth);
        this.update();
      },
    }));

    const ticks = this.scrubTicks();

    replaceChildren(
      this.root,
      h(
        'section',
        { class: 'lesson-view', 'data-testid': 'lesson-view', 'data-lesson': this.id },
        h(
          'header',
          { class: 'lesson-head' },
          h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
          h(
            'div',
            { class: 'lesson-title-row' },
            h('h2', { class: 'view-title', 'data-testid': 'lesson-title', tabindex: '-1' }, l(lesson.title)),
            h('span', { class: ['badge', `level-${lesson.level}`] }, nameOf('level', lesson.level)),
          ),
          this.rec.compare ? lessonTabs(this.id, 'lesson') : null,
          h('p', { class: 'lead' }, l(lesson.summary)),
          // An incident: the public report it replays, before its run.
          incidentPanel(lesson.incident),
          h('p', { class: 'sb-open-row' }, this.el.sandboxBtn, ' ', this.el.sandboxNote),
        ),
        this.el.notices,
        stickyBar(
          h(
            'div',
            { class: 'controls', role: 'group', 'aria-label': t('lesson.controls'), 'data-testid': 'controls', tabindex: '-1' },
            h(
              'div',
              { class: 'btn-row' },
              this.el.first,
              this.el.prev,
              this.el.play,
              this.el.next,
              this.el.last,
              this.el.nextQuestion,
              this.playing.speed,
            ),
            h('div', { class: 'scrub' }, h('div', { class: 'scrub-track' }, this.el.range, ticks), this.el.stepLabel),
            h('p', { class: 'keys-hint muted' }, t('lesson.keys')),
            this.el.gateMsg,
          ),
        ),
        this.el.completed,
        h(
          'div',
          { class: 'lesson-body' },
          h(
            'div',
            { class: 'col col-a' },
            this.el.narration,
            this.el.questions,
            this.el.end,
            this.el.panels,
            h(
              'section',
              { class: 'card grid-card', 'aria-labelledby': 'grid-h' },
              h(
                'div',
                { class: 'grid-card-head' },
                h('h3', { id: 'grid-h', class: 'section-title' }, t('grid.title')),
                h('label', { class: 'switch-label', for: 'truth-toggle' }, truthToggle, h('span', null, t('truth.toggle'))),
              ),
              this.el.grid,
              h('p', { class: 'muted small' }, t('grid.witnessHint')),
              worldList(this.run.worlds),
              this.el.truth,
            ),
          ),
          h('div', { class: 'col col-b' }, this.el.diagram, this.el.timeline),
        ),
        this.el.challenge,
        this.selfCheck ? this.selfCheck.el : null,
        this.el.live,
      ),
    );
    this.el.controls = this.root.querySelector('[data-testid="controls"]');
  }

  /**
   * A step change the learner asked for (buttons, scrubber, keys, diagram, timeline):
   * it stops play. Move to step n if the questions allow it; otherwise stop at the
   * question and say so.
   */
  tryGo(n) {
    this.stopPlay();
    const target = Math.max(0, Math.min(this.last, n));
    const gate = this.gate();
    if (target > gate) {
      this.stopPlay();
      if (this.step !== gate) this.go(gate);
      else this.el.range.value = String(this.step);
      this.el.gateMsg.textContent = t('lesson.blocked');
      this.el.gateMsg.classList.add('is-shown');
      const first = this.el.questions.querySelector('.qcard button:not([disabled]), .qcard select:not([disabled])');
      if (first && n !== this.step + 1) first.focus();
      return;
    }
    this.go(target);
  }

  go(n, { force = false, fromLink = false } = {}) {
    const allowed = clampStep(n, this.last, this.lesson.questions, (qid) => this.isAnswered(qid));
    if (allowed === this.step && !force) return;
    // A notice about the step a link asked for is about the step it opened: gone on the next move.
    if (!fromLink && allowed !== this.step) this.notices = this.notices.filter((x) => !x.link);
    this.step = allowed;
    this.progress.reach(this.id, this.step);
    replaceHash(lessonHash(this.id, this.step));
    this.update();
    const m = momentAt(this.lesson.moments, this.step);
    postStep(this.id, this.step, this.last, m ? m.id : null);
    const said = t('announce.step', { i: this.step, line: stepLine(this.run.steps[this.step]) });
    // Narration an open question waits for is not read out either.
    const waits = m && hiddenAt(this.lesson.questions, (qid) => this.isAnswered(qid), this.step, m.step).narration;
    this.el.live.textContent = m && m.step === this.step && !waits ? `${said} ${l(m.label)}: ${l(m.narration)}` : said;
    this.maybeComplete();
    // Completed by stepping to the end: the end shows there, and the keyboard stays on the step controls.
    this.justCompleted = false;
  }

  update() {
    const i = this.step;
    const st = this.run.steps[i];
    const gate = this.gate();
    const atGate = i >= gate;
    const m = momentAt(this.lesson.moments, i);
    const hidden = hiddenAt(this.lesson.questions, (qid) => this.isAnswered(qid), i, m ? m.step : null);

    this.root.firstChild.dataset.step = String(i);
    this.root.firstChild.dataset.last = String(this.last);

    // Controls.
    this.el.range.value = String(i);
    this.el.range.setAttribute('aria-valuetext', `${t('lesson.stepOf', { i, last: this.last })}, t=${st.t}ms`);
    this.el.stepLabel.textContent = `${t('lesson.stepOf', { i, last: this.last })} · t=${st.t}ms`;
    enableStepButtons(this.el, i, this.last);
    this.el.next.setAttribute('aria-disabled', atGate ? 'true' : 'false');
    this.el.next.classList.toggle('is-gated', atGate && i < this.last);
    this.el.last.classList.toggle('is-gated', atGate && i < this.last);
    const open = gate !== Infinity;
    this.el.nextQuestion.disabled = !open;
    this.el.nextQuestion.title = open ? t('lesson.nextQuestionHint') : t('lesson.noNextQuestion');
    this.playing.render();
    if (!atGate) {
      this.el.gateMsg.textContent = '';
      this.el.gateMsg.classList.remove('is-shown');
    } else if (i < this.last) {
      this.el.gateMsg.textContent = t('lesson.blocked');
      this.el.gateMsg.classList.add('is-shown');
    }

    this.renderNotices();

    // Narration: the latest moment reached, unless an open question waits for it (it
    // would say the answer); before the first moment, how to start.
    let text;
    if (hidden.narration) text = h('p', { class: 'narration-text narration-waits', 'data-testid': 'narration-gated', 'data-question': hidden.narration.id }, t('lesson.narrationWaits', { question: this.questionRef(hidden.narration) }));
    else if (m) text = h('p', { class: 'narration-text', 'data-testid': 'narration-text' }, l(m.narration));
    else text = null;
    replaceChildren(
      this.el.narration,
      h('p', { class: 'narration-kicker' }, t('lesson.narration'), ' · ', m ? l(m.label) : t('lesson.beforeMoments'), m && m.step === i ? h('span', { class: 'badge badge-now' }, t('lesson.momentNow')) : null),
      text,
      i === 0 ? h('p', { class: 'start-hint', 'data-testid': 'start-hint' }, t('lesson.startHint')) : null,
    );

    // Question cards: rebuilt only when the step changes, so verdicts can be announced in place.
    if (this.cardsStep !== i) {
      this.cardsStep = i;
      const hadFocus = this.el.questions.contains(document.activeElement);
      rebuildKeepingFocus(this.el.questions, () =>
        replaceChildren(
          this.el.questions,
          questionsAt(this.lesson.questions, i).map((q) => {
            questionShown(this.id, q.id);
            return questionCard(q, {
              lessonId: this.id,
              number: this.lesson.questions.indexOf(q) + 1,
              seed: this.seed,
              isLast: i >= this.last,
              drafts: this.drafts,
              answered: () => this.progress.answerOf(this.id, q.id),
              check: async (answer) => this.check(q, answer),
              reveal: async () => this.reveal(q),
              afterCheck: () => this.focusEnd(),
            });
          }),
        ),
      );
      // The focused card went away with its step: keep the keyboard on the step controls.
      if (hadFocus && !this.el.questions.contains(document.activeElement)) this.el.controls.focus({ preventScroll: true });
    }

    renderDiagram(this.el.diagram, this.run, i, (n) => this.tryGo(n));

    rebuildKeepingFocus(this.el.panels, () =>
      replaceChildren(this.el.panels, clientPanel(st.client), networkStrip(st.network, this.run.messages, st.provider && st.provider.effect), servicePanel(st.service, st.provider && st.provider.effect), st.provider ? providerPanel(st.provider) : null),
    );

    rebuildKeepingFocus(this.el.grid, () => replaceChildren(this.el.grid, knowledgeGrid(this.lesson, st, numbered(hidden, this.lesson.questions), this.showTruth, this.run.worlds, (q) => this.questionRef(q))));
    // While an open question hides the truth, the switch is off and disabled, and the note
    // it points to says which question (whatever the learner chose: that choice is kept for
    // when the question is settled).
    const truthLocked = !!hidden.truth;
    this.el.truthToggle.disabled = truthLocked;
    this.el.truthToggle.checked = this.showTruth && !truthLocked;
    if (truthLocked) this.el.truthToggle.setAttribute('aria-describedby', 'truth-gated-note');
    else this.el.truthToggle.removeAttribute('aria-describedby');
    if (truthLocked) replaceChildren(this.el.truth, h('p', { class: 'muted truth-note', id: 'truth-gated-note', 'data-testid': 'truth-gated', 'data-question': hidden.truth.id }, t('truth.gated', { question: this.questionRef(hidden.truth) })));
    else if (!this.showTruth) replaceChildren(this.el.truth, h('p', { class: 'muted truth-note' }, t('truth.hiddenNote')));
    else replaceChildren(this.el.truth, h('h4', { class: 'truth-title' }, t('truth.title')), truthSummary(st));

    renderTimeline(this.el.timeline, this.run, i, (n) => this.tryGo(n));

    this.renderChallenge(i);
    const allSettled = (this.lesson.questions || []).every((q) => this.isAnswered(q.id));
    // The sandbox shows how the run ends: it opens once no question is left to give away.
    this.el.sandboxBtn.disabled = !allSettled;
    if (allSettled) this.el.sandboxBtn.removeAttribute('aria-describedby');
    else this.el.sandboxBtn.setAttribute('aria-describedby', 'sb-open-note');
    this.el.sandboxNote.hidden = allSettled;
    // The goals open for ticking once every question is settled (a retake closes them again).
    if (this.selfCheck) this.selfCheck.setOpen(allSettled);

    const lp = this.progress.peek(this.id);
    const done = !!(lp && lp.completed);
    const stats = this.stats();
    // The score only once the lesson is completed: never "0 of 5" before an answer.
    replaceChildren(
      this.el.completed,
      done ? h('p', { class: 'notice notice-ok', 'data-testid': 'lesson-completed-banner' }, '✓ ', t('lesson.completed')) : null,
      done && stats.questions > 0 ? scoreLine(stats, 'completed-score', 'lesson-score first-try') : null,
    );
    this.renderEnd(i, done, stats);
  }

  /** The step of the lesson's last question card (-1 without questions). */
  lastQuestionStep() {
    return Math.max(-1, ...(this.lesson.questions || []).map((q) => q.step));
  }

  /**
   * The end where the learner is: at the last question's step and at the last step, once
   * every question is settled. Completed: the score, the next lesson, "retake". Settled
   * but the run not yet at its end: go on to the end.
   */
  renderEnd(i, done, stats) {
    const qs = this.lesson.questions || [];
    const allSettled = qs.every((q) => this.isAnswered(q.id));
    const here = i === this.last || i === this.lastQuestionStep();
    if (!here || !allSettled) {
      replaceChildren(this.el.end);
      return;
    }
    if (!done) {
      replaceChildren(this.el.end, h('p', { class: 'notice notice-ok end-go-on', 'data-testid': 'end-go-on' }, t('lesson.allAnsweredGoOn')));
      return;
    }
    const next = this.nextLesson();
    const challenge = this.lesson.challenge ? challengeState(this.progress, this.id) : null;
    const retake = this.confirmRetake
      ? h(
          'div',
          { class: 'retake-confirm', role: 'group', 'aria-labelledby': 'retake-q', 'data-testid': 'retake-confirm' },
          h('p', { id: 'retake-q' }, t('lesson.retakeConfirm')),
          h(
            'div',
            { class: 'btn-row' },
            h('button', { type: 'button', class: 'btn btn-danger', 'data-testid': 'retake-yes', onclick: () => this.retake() }, t('lesson.retakeYes')),
            h('button', { type: 'button', class: 'btn', 'data-testid': 'retake-no', onclick: () => this.askRetake(false) }, t('lesson.retakeNo')),
          ),
        )
      : h('button', { type: 'button', class: 'btn', 'data-testid': 'retake', onclick: () => this.askRetake(true) }, t('lesson.retake'));
    replaceChildren(
      this.el.end,
      h(
        'section',
        { class: 'card end-card', 'data-testid': 'lesson-end', 'aria-labelledby': 'end-h' },
        h('h3', { id: 'end-h', class: 'section-title end-title', tabindex: '-1' }, '✓ ', t('lesson.endTitle')),
        // The lesson's one score and its challenge, in the words of its card in the list.
        stats.questions > 0 ? scoreLine(stats, 'end-score', 'lesson-score end-score') : null,
        challenge
          ? challengeLine(this.lesson.challenge.kind, challenge, {
              testid: 'end-challenge',
              after: [challenge === 'solved' ? null : [' ', this.challengeLink('end-challenge-start', 'btn btn-small')], ' ', h('a', { href: challengesHash(), 'data-testid': 'end-challenges-all' }, t('challenges.all'))],
            })
          : null,
        h(
          'div',
          { class: 'btn-row end-actions' },
          next
            ? h('a', { class: 'btn btn-primary', href: lessonHash(next.id), 'data-testid': 'next-lesson', 'data-lesson': next.id }, t('lesson.nextLesson', { title: l(next.title) }))
            : h('a', { class: 'btn btn-primary', href: listHash(), 'data-testid': 'course-done' }, t('lesson.courseDone')),
          // The lesson's own run, now that no question is left for it to give away: where a
          // learner who just finished goes to play (its button at the top is screens away).
          h('button', { type: 'button', class: 'btn', 'data-testid': 'end-sandbox', onclick: () => this.openInSandbox() }, t('lesson.endSandbox')),
          this.confirmRetake ? null : retake,
        ),
        this.confirmRetake ? retake : null,
        exerciseLink(this.id),
      ),
    );
  }

  /** The lesson was just completed by a check: its end takes the focus. Returns true when it did. */
  focusEnd() {
    if (!this.justCompleted) return false;
    this.justCompleted = false;
    const title = this.el.end.querySelector('.end-title');
    if (!title) return false;
    title.focus({ preventScroll: true });
    title.closest('.end-card').scrollIntoView({ block: 'nearest', behavior: 'auto' });
    return true;
  }

  askRetake(on) {
    this.confirmRetake = on;
    this.update();
    const target = this.el.end.querySelector(on ? '[data-testid="retake-no"]' : '[data-testid="retake"]');
    if (target) target.focus();
  }

  /** Retake: this lesson's answers cleared (after the learner confirmed), from step 0. */
  retake() {
    this.stopPlay();
    this.confirmRetake = false;
    this.progress.resetLesson(this.id);
    this.drafts.clear();
    this.cardsStep = -1;
    this.go(0, { force: true });
    const title = this.root.querySelector('[data-testid="lesson-title"]');
    if (title) {
      title.focus({ preventScroll: true });
      title.scrollIntoView({ block: 'start' });
    }
  }

  /** "Next question": to the step of the first question not yet settled, its first answer focused. */
  nextQuestion() {
    const gate = this.gate();
    if (gate === Infinity) {
      // Nothing left to go to (the button is greyed): said, so that a key press is not met with silence.
      this.el.live.textContent = t('lesson.noNextQuestion');
      return;
    }
    this.stopPlay();
    this.go(gate);
    const q = (this.lesson.questions || []).find((x) => x.step === gate && !this.isAnswered(x.id));
    const card = q && this.el.questions.querySelector(`[data-question="${q.id}"]`);
    if (!card) return;
    const first = card.querySelector('button:not([disabled]), select:not([disabled])');
    (first || card).focus({ preventScroll: true });
    card.scrollIntoView({ block: 'nearest' });
  }

  /** The lesson's scenario, at this step, in the sandbox (the engine normalises it). */
  async openInSandbox() {
    if (!(this.lesson.questions || []).every((q) => this.isAnswered(q.id))) return;
    const step = this.step;
    let out;
    try {
      out = await this.store.call('scenario', { file: this.rec.file, text: this.rec.text });
    } catch (_) {
      return; // the engine's notice says why (stopped), or its card (did not load)
    }
    if (!out || !out.scenario || this.destroyed) return;
    const { encodeState } = await codec();
    if (this.destroyed) return;
    // At step 0 nothing has happened yet: the sandbox then opens at the run's end, where
    // every injection point is drawn.
    window.location.hash = sandboxHash(encodeState({ v: 1, s: out.scenario, from: this.id }), step > 0 ? step : null);
  }

  /** A link that opens the lesson's challenge in the sandbox ("Start the challenge"). */
  challengeLink(testid, cls) {
    const c = this.lesson.challenge;
    // The link's address is written once the codec is in (a few ms); a click before that
    // waits for it and opens the challenge all the same.
    const href = codec().then(({ encodeState }) => sandboxHash(encodeState({ v: 1, s: c.scenario, ch: this.id })));
    const start = h('a', {
      class: cls,
      href: sandboxHash(null),
      'data-testid': testid,
      onclick: (ev) => {
        if (start.dataset.linked) return;
        ev.preventDefault();
        href.then((to) => (window.location.hash = to));
      },
    }, t('challenge.start'));
    href.then((to) => {
      start.href = to;
      start.dataset.linked = 'true';
    });
    return start;
  }

  /** The lesson ends with its challenge (when it has one): shown from the last step on. */
  renderChallenge(i) {
    const c = this.lesson.challenge;
    // Its prompt and its sandbox tell what the lesson's mistakes do: shown once no question
    // is left open (the last step may still hold some).
    const allSettled = (this.lesson.questions || []).every((q) => this.isAnswered(q.id));
    if (!c || i < this.last || !allSettled) {
      replaceChildren(this.el.challenge);
      return;
    }
    const solved = this.progress.isCorrect(this.id, 'challenge');
    const start = this.challengeLink('start-challenge', 'btn btn-primary');
    replaceChildren(
      this.el.challenge,
      h(
        'section',
        { class: 'card challenge-card', 'data-testid': 'challenge-card', 'data-kind': c.kind },
        h('h3', { class: 'section-title' }, t('challenge.endTitle'), ' · ', t(c.kind === 'break' ? 'challenge.break' : 'challenge.fix'), solved ? h('span', { class: 'badge badge-ok', 'data-testid': 'challenge-solved' }, ' ✓ ', t('challenge.solvedBefore')) : null),
        h('p', null, l(c.prompt)),
        start,
      ),
    );
  }

  /** Questions answered right, and right at the first try, for this lesson. */
  stats() {
    return this.progress.stats(this.id, (this.lesson.questions || []).map((q) => q.id));
  }

  renderNotices() {
    renderNotices(this.el.notices, this.notices);
  }

  async check(q, answer) {
    const before = this.progress.answerOf(this.id, q.id);
    const n = (before ? before.tries.length : 0) + 1;
    // After the answer was shown, a try is asked as revealed too: no hint for what is known.
    const verdict = await this.store.answer(this.rec, q.id, answer, { tryNumber: n, reveal: this.progress.isRevealed(this.id, q.id), settled: this.settledIds() });
    this.progress.recordTry(this.id, q.id, answer, verdict);
    postAnswerChecked(this.id, q.id, answer, !!verdict.correct, n, !!verdict.revealed);
    // The notice about a gated deep link has done its job once the question is answered.
    this.notices = this.notices.filter((n) => n.key !== 'notice.deepLinkGated');
    this.update();
    this.maybeComplete();
    return verdict;
  }

  /** The ids of the lesson's questions settled so far (the engine keeps the others' answers back). */
  settledIds() {
    return (this.lesson.questions || []).filter((x) => this.isAnswered(x.id)).map((x) => x.id);
  }

  /**
   * "Show the answer": the engine's answer and why, recorded as shown (not right). A table
   * asks it with its last try, so that the engine marks that try's cells (a wrong try only
   * had each row's count).
   */
  async reveal(q) {
    const before = this.progress.answerOf(this.id, q.id);
    const n = (before ? before.tries.length : 0) + 1;
    const verdict = await this.store.answer(this.rec, q.id, shownAgainst(q.kind, before && before.tries), { tryNumber: n, reveal: true, settled: this.settledIds() });
    this.progress.recordReveal(this.id, q.id, verdict);
    postRevealed(this.id, q.id, n);
    this.notices = this.notices.filter((x) => x.key !== 'notice.deepLinkGated');
    this.update();
    this.maybeComplete();
    return verdict;
  }

  /** Completed: every question settled (right, or its answer shown) and the last step reached. */
  maybeComplete() {
    const qs = this.lesson.questions || [];
    const allSettled = qs.every((q) => this.isAnswered(q.id));
    const lp = this.progress.peek(this.id);
    const reachedEnd = (lp && lp.reached >= this.last) || this.step >= this.last;
    if (allSettled && reachedEnd && this.progress.markCompleted(this.id)) {
      const { questions, first_try_right } = this.stats();
      postLessonCompleted(this.id, { questions, first_try_right });
      this.justCompleted = true;
      this.update();
    }
  }

  /** Stop Play, and take away what was on its way: the learner stepped, scrubbed or left. */
  stopPlay() {
    if (this.playing) this.playing.cancel();
  }

  /** Keyboard: ← → step, Home / End jump, N the next question (in either case). Returns true when the key was used. */
  onKey(ev) {
    if (letterKey(ev.key) === 'n') {
      this.nextQuestion();
      return true;
    }
    const n = stepKeyTarget(ev.key, this.step, this.last);
    if (n === null) return false;
    this.tryGo(n);
    return true;
  }

  /**
   * What the page says about the step a link asked for (`step`: a whole number >= 0 or
   * null; `stepText`: as the address writes it, or null when it names none) when it shows
   * step `shown`: a notice, or null when the link got its step. Not a step (-3, abc, 1.5),
   * past an unanswered question, or past the lesson's end (named as written, not rounded).
   */
  linkNotice(step, stepText, shown) {
    const written = shortText(stepText === null || stepText === undefined ? step : stepText);
    if (step === null || step === undefined) {
      return stepText === null || stepText === undefined ? null : { key: 'notice.stepNotANumber', params: { written, step: shown }, testid: 'notice-bad-step', link: true };
    }
    if (shown < Math.min(step, this.last)) return { key: 'notice.deepLinkGated', params: { target: written, step: shown }, testid: 'notice-gated', link: true };
    if (step > this.last) return { key: 'notice.stepPastEnd', params: { target: written, last: this.last }, testid: 'notice-past-end', link: true };
    return null;
  }

  /** The URL changed to another step of this lesson (typed or pasted). */
  followRoute(step, stepText = null, extra = null) {
    this.stopPlay();
    this.notices = this.notices.filter((x) => !x.link);
    // No step, or not a step (step/-1, step/abc): the step shown stays, and the address names it.
    const allowed = step === null || step === undefined ? this.step : clampStep(step, this.last, this.lesson.questions, (qid) => this.isAnswered(qid));
    this.notices.push(...linkNotices(this.linkNotice(step, stepText, allowed), extra));
    this.go(allowed, { force: true, fromLink: true });
  }

  destroy() {
    this.destroyed = true;
    this.stopPlay();
  }
}
