// Replay: rebuild each expression from its translation, with the service's mask ('_' hidden,
// '.' shown). One input per hidden run; checks are case-insensitive. The evidence sent back:
// usedHint (a letter was revealed), autoFilled ("show answer"), unaidedErrors (letters wrong or
// missing, summed over the checks that failed).
import { busy, byId, codePoints, formatDateTime, fromNow, h } from './dom.js';
import { mutate, query } from './trpc.js';

const RATING_HEADLINE = {
  easy: 'Perfect: effortless recall.',
  good: 'Good recall.',
  hard: 'Got it, with some help.',
  again: 'This one comes back soon.',
};

/** The answer as shown text and hidden runs: [{ shown: 'b' }, { hidden: 'rea' }, …]. */
export function segmentsOf(answer, mask) {
  const chars = codePoints(answer);
  const flags = codePoints(mask);
  const segments = [];
  chars.forEach((char, i) => {
    const kind = flags[i] === '_' ? 'hidden' : 'shown';
    const last = segments.at(-1);
    if (last && kind in last) last[kind] += char;
    else segments.push({ [kind]: char });
  });
  return segments;
}

const same = (a, b) => a.normalize('NFC').toLocaleLowerCase() === b.normalize('NFC').toLocaleLowerCase();

/** Letters typed wrong or left out: the service weighs errors against the number of hidden letters. */
function mistakes(typed, expected) {
  const a = codePoints(typed.trim());
  const b = codePoints(expected);
  let count = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) if (!same(a[i] ?? '', b[i] ?? '')) count += 1;
  return count;
}

export function createReplay(ctx) {
  const root = byId('replay-root');
  let session = null; // { items, index, done }
  let generation = 0;

  function renderStart(note = '') {
    session = null;
    const form = h('form', { class: 'replay-start' },
      note && h('p', { class: 'note', role: 'status' }, note),
      h('p', {}, 'Rebuild the expressions you captured from their translation. Hidden letters are yours to fill in.'),
      h('div', { class: 'row' },
        h('label', { for: 'replay-count' }, 'Items'),
        h('select', { id: 'replay-count', name: 'count' }, ['10', '20', '50'].map((n) => h('option', { value: n }, n))),
        h('button', { type: 'submit', class: 'primary' }, 'Start Replay')),
      h('p', { class: 'form-error', role: 'alert' }));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void busy(form, () => open(form.count.value, form.querySelector('.form-error')));
    });
    root.replaceChildren(form);
  }

  async function open(count, errorBox) {
    const mine = generation;
    try {
      const opened = await query('replay.session', { count });
      if (mine !== generation) return;
      if (opened.items.length === 0) return renderStart('Nothing to practise yet: expressions join Replay once their preparation is ready.');
      session = { items: opened.items, index: 0, resumed: opened.resumed };
      renderItem();
    } catch (error) {
      ctx.fail(error, errorBox);
    }
  }

  function renderItem() {
    const item = session.items[session.index];
    const evidence = { usedHint: false, autoFilled: false, unaidedErrors: 0 };
    const runs = [];
    const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    const hiddenCount = segmentsOf(item.answer, item.mask).filter((s) => 'hidden' in s).length;
    const line = h('p', { class: 'masked', lang: 'en' }, segmentsOf(item.answer, item.mask).map((segment) => {
      if ('shown' in segment) return h('span', { class: 'shown', 'aria-hidden': 'true' }, segment.shown);
      const length = codePoints(segment.hidden).length;
      const input = h('input', {
        type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: length,
        'aria-label': `Missing letters ${runs.length + 1} of ${hiddenCount} (${length} letter${length === 1 ? '' : 's'})`,
      });
      input.style.width = `${length + 1.5}ch`;
      runs.push({ expected: segment.hidden, input });
      return input;
    }));
    // Screen readers get the pattern in words: the shown letters are aria-hidden in the line itself.
    const pattern = segmentsOf(item.answer, item.mask).map((s) => ('shown' in s ? s.shown : '…')).join('');
    runs.forEach((run, i) => {
      run.input.addEventListener('input', () => {
        run.input.removeAttribute('aria-invalid');
        if (codePoints(run.input.value).length >= codePoints(run.expected).length) runs[i + 1]?.input.focus();
      });
      run.input.addEventListener('keydown', (event) => {
        if (event.key === 'Backspace' && run.input.value === '' && i > 0) { event.preventDefault(); runs[i - 1].input.focus(); }
      });
    });

    const hint = () => {
      const run = runs.find((r) => !same(r.input.value, r.expected));
      if (!run) return void (status.textContent = 'Everything is filled in: press Check.');
      const typed = codePoints(run.input.value);
      const expected = codePoints(run.expected);
      let keep = 0;
      while (keep < typed.length && same(typed[keep], expected[keep])) keep += 1;
      run.input.value = expected.slice(0, keep + 1).join('');
      run.input.removeAttribute('aria-invalid');
      evidence.usedHint = true;
      run.input.focus();
      status.textContent = `Hint: the next letter is “${expected[keep]}”.`;
    };
    const showAnswer = () => {
      for (const run of runs) run.input.value = run.expected;
      evidence.autoFilled = true;
      void busy(form, () => complete(item, evidence, status));
    };
    const form = h('form', { class: 'replay-item', novalidate: true },
      h('p', { class: 'progress muted' }, `Item ${session.index + 1} of ${session.items.length}${session.resumed ? ' (resumed session)' : ''}`),
      h('p', { class: 'prompt-label' }, 'Say it in English:'),
      h('blockquote', { class: 'prompt', lang: ctx.account?.nativeLanguage ?? undefined }, item.prompt),
      h('fieldset', {},
        h('legend', {}, 'Fill in the missing letters'),
        h('p', { class: 'visually-hidden' }, `Pattern: ${pattern}`),
        line),
      status,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Check'),
        h('button', { type: 'button', onclick: hint }, 'Hint'),
        h('button', { type: 'button', class: 'quiet', onclick: showAnswer }, 'Show answer')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const wrong = runs.filter((r) => !same(r.input.value.trim(), r.expected));
      if (wrong.length === 0) return void busy(form, () => complete(item, evidence, status));
      evidence.unaidedErrors += wrong.reduce((sum, run) => sum + mistakes(run.input.value, run.expected), 0);
      for (const run of runs) {
        if (wrong.includes(run)) run.input.setAttribute('aria-invalid', 'true');
        else run.input.removeAttribute('aria-invalid');
      }
      wrong[0].input.focus();
      status.textContent = `Not quite: ${wrong.length === 1 ? 'one part is' : `${wrong.length} parts are`} off. Try again, or take a hint.`;
    });
    root.replaceChildren(form);
    runs[0]?.input.focus();
  }

  async function complete(item, evidence, status) {
    const mine = generation;
    try {
      const result = await mutate('replay.complete', { itemId: item.itemId, ...evidence });
      if (mine !== generation) return;
      renderFeedback(result);
    } catch (error) {
      if (error.code === 'not_found') {
        status.textContent = 'This expression was deleted meanwhile; moving on.';
        return next();
      }
      ctx.fail(error, status);
    }
  }

  function renderFeedback(result) {
    const last = session.index === session.items.length - 1;
    const heading = h('h3', { tabindex: '-1', class: `rating rating-${result.rating}` }, RATING_HEADLINE[result.rating] ?? 'Recorded.');
    const usage = result.feedback.usage;
    root.replaceChildren(h('div', { class: 'feedback', role: 'region', 'aria-label': 'Feedback' },
      heading,
      h('p', { class: 'answer', lang: 'en' }, result.feedback.text),
      h('p', { class: 'translation', lang: ctx.account?.nativeLanguage ?? undefined }, result.feedback.translation),
      h('p', { class: 'usage' }, h('span', { class: 'register' }, usage.register), ' ', usage.guidance),
      usage.examples.length > 0 && h('ul', { class: 'examples', 'aria-label': 'Examples' }, usage.examples.map((x) => h('li', { lang: 'en' }, x))),
      h('p', { class: 'muted' }, 'Next review ', h('time', { datetime: result.nextReviewAt, title: formatDateTime(result.nextReviewAt) }, fromNow(result.nextReviewAt)), '.'),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: next }, last ? 'Finish' : 'Next item'))));
    heading.focus();
  }

  function next() {
    session.index += 1;
    if (session.index < session.items.length) return renderItem();
    const done = session.items.length;
    renderStart(`Session complete: you practised ${done} expression${done === 1 ? '' : 's'}.`);
    root.querySelector('button[type=submit]')?.focus();
  }

  return {
    show() { if (!session && !root.firstChild) renderStart(); },
    reset() { generation += 1; session = null; root.replaceChildren(); },
  };
}
