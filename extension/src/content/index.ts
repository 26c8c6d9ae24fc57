import { ask, type CaptureOutcome, type PageCommand } from '../shared/messages.ts';
import { Captions } from './captions.ts';
import { linkActions } from './links.ts';
import { PageTranslation } from './page-translation.ts';
import { sentenceAround } from './sentence.ts';
import { createUi } from './ui.ts';

// (Comments in content/ are line comments: the build is not minified and keeps doc comments, and this script loads into every page;
// its size has a budget, bench/scenarios/captions.ts.)
//
// The content script: the Capture button and toast, and page translation when asked. Only the
// learner's own acts count: the button is armed by a trusted pointer or key release that left a
// selection, and a capture reads the live selection at the trusted click (or at the browser's
// shortcut or context menu), never text a page's script prepared or announced.

const ui = createUi();
const translation = new PageTranslation(ui);
new Captions(ui, (text, line, seconds) => void captureText(text, { line, seconds }));
// How long the toast follows a new card's preparation.
const FOLLOW_SECONDS = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function selectedText(): string {
  return getSelection()?.toString().trim() ?? '';
}

// The sentence around the live selection: sent only if the learner turned it on (the service worker decides, where the settings are).
function selectedSentence(): string | null {
  const selection = getSelection();
  return selection && selection.rangeCount > 0 ? sentenceAround(selection.getRangeAt(0)) : null;
}

// `from`: a caption's line and moment (its seconds into the video), else the sentence is read around the page's selection.
async function captureText(text: string, from?: { line: string; seconds: number }): Promise<void> {
  const sentence = from ? from.line : selectedSentence();
  disarm();
  ui.toast('Saving…', { sticky: true });
  try {
    showOutcome(await ask({ type: 'capture', text, ...(sentence ? { sentence } : {}), ...(from ? { seconds: from.seconds } : {}) }));
  } catch {
    ui.toast('The extension was updated: reload this page to capture from it.', { state: 'failed' });
  }
}

function showOutcome(outcome: CaptureOutcome): void {
  ui.toast(outcome.message, { state: outcome.state, sticky: outcome.cardId !== undefined, actions: linkActions(outcome.link) });
  if (outcome.cardId) void follow(outcome.cardId);
}

// Follows a new card until its translation is ready, then shows it.
async function follow(cardId: string): Promise<void> {
  for (let second = 0; second < FOLLOW_SECONDS; second++) {
    await sleep(1000);
    const progress = await ask({ type: 'card-progress', cardId });
    if (progress.status === 'ready') return ui.toast(`Saved: ${progress.translation ?? ''}`.trim(), { state: 'saved' });
    if (progress.status === 'failed' && progress.failure)
      return ui.toast(progress.failure.message, { state: 'failed', sticky: true, actions: linkActions(progress.failure.link) });
    if (progress.status === 'failed') return ui.toast('Saved, but preparing it failed. You can retry it from your library.', { state: 'failed' });
    if (progress.status === 'gone') return;
  }
  ui.toast('Saved. Its translation is still being prepared.', { state: 'saved' });
}

// The text the Capture button was armed with; a capture goes ahead only if the live selection still says it.
let armed = '';
// The text just captured: the button does not come back for it until the learner selects something else.
let captured = '';

function disarm(): void {
  armed = '';
  ui.hideCaptureButton();
}

// After the learner's own pointer or key release: shows the button beside a fresh selection.
function arm(): void {
  const selection = getSelection();
  const text = selectedText();
  if (!text || !selection || selection.rangeCount === 0 || text === captured) return disarm();
  const range = selection.getRangeAt(0);
  const rect = range.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return disarm();
  armed = text;
  ui.showCaptureButton(range, () => {
    const live = selectedText();
    if (!armed || live !== armed) return disarm();
    captured = live;
    void captureText(live);
  });
}

let armTimer: ReturnType<typeof setTimeout> | undefined;
const armSoon = (event: Event) => {
  if (!event.isTrusted || ui.owns(event.target)) return;
  clearTimeout(armTimer);
  armTimer = setTimeout(arm, 120);
};
addEventListener('pointerup', armSoon, { capture: true, passive: true });
addEventListener('keyup', armSoon, { capture: true, passive: true });
// A collapsed selection (a click elsewhere, a script's removeAllRanges) hides the button; nothing ever shows it.
document.addEventListener('selectionchange', () => {
  const text = selectedText();
  if (!text) captured = '';
  if (armed && text !== armed) disarm();
});

chrome.runtime.onMessage.addListener((command: PageCommand, sender) => {
  if (sender.id !== chrome.runtime.id) return;
  switch (command.type) {
    case 'capture-selection': {
      const text = selectedText();
      if (text) {
        captured = text;
        void captureText(text);
      } else ui.toast('Select some text first, then capture it.');
      break;
    }
    case 'show-capture':
      disarm();
      showOutcome(command.outcome);
      break;
    case 'translate-page':
      translation.translateOrToggle();
      break;
    case 'toggle-translation':
      translation.toggle();
      break;
  }
});

void ask({ type: 'page-opened' })
  .then(({ autoTranslate }) => {
    if (autoTranslate) translation.start();
  })
  .catch(() => {});
