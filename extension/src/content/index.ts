import { ask, type CaptureOutcome, type PageCommand } from '../shared/messages.ts';
import { PageTranslation } from './page-translation.ts';
import { createUi } from './ui.ts';

/** The content script: the Capture button and toast, and page translation when asked. */

const ui = createUi();
const translation = new PageTranslation(ui);
/** How long the toast follows a new card's preparation. */
const FOLLOW_SECONDS = 60;

const openOptions = () => void ask({ type: 'open-options' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function selectedText(): string {
  return getSelection()?.toString().trim() ?? '';
}

async function captureText(text: string): Promise<void> {
  ui.hideCaptureButton();
  ui.toast('Saving…', { sticky: true });
  try {
    showOutcome(await ask({ type: 'capture', text }));
  } catch {
    ui.toast('The extension was updated: reload this page to capture from it.', { state: 'failed' });
  }
}

function showOutcome(outcome: CaptureOutcome): void {
  ui.toast(outcome.message, { state: outcome.state, sticky: outcome.cardId !== undefined, ...(outcome.openOptions ? { openOptions } : {}) });
  if (outcome.cardId) void follow(outcome.cardId);
}

/** Follows a new card until its translation is ready, then shows it. */
async function follow(cardId: string): Promise<void> {
  for (let second = 0; second < FOLLOW_SECONDS; second++) {
    await sleep(1000);
    const progress = await ask({ type: 'card-progress', cardId });
    if (progress.status === 'ready') return ui.toast(`Saved: ${progress.translation ?? ''}`.trim(), { state: 'saved' });
    if (progress.status === 'failed') return ui.toast('Saved, but preparing it failed. You can retry it from your library.', { state: 'failed' });
    if (progress.status === 'gone') return;
  }
  ui.toast('Saved. Its translation is still being prepared.', { state: 'saved' });
}

/** The Capture button follows the selection: shown near it, hidden when there is none. */
function followSelection(): void {
  const selection = getSelection();
  const text = selectedText();
  if (!text || !selection || selection.rangeCount === 0) return ui.hideCaptureButton();
  const rect = selection.getRangeAt(0).getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return ui.hideCaptureButton();
  ui.showCaptureButton(rect, () => void captureText(text));
}

let selectionTimer: ReturnType<typeof setTimeout> | undefined;
document.addEventListener('selectionchange', () => {
  clearTimeout(selectionTimer);
  selectionTimer = setTimeout(followSelection, 150);
});
// Text selected while the page was still loading, before this script ran.
followSelection();

chrome.runtime.onMessage.addListener((command: PageCommand) => {
  switch (command.type) {
    case 'capture-selection': {
      const text = selectedText();
      if (text) void captureText(text);
      else ui.toast('Select some text first, then capture it.');
      break;
    }
    case 'show-capture':
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
