/**
 * What the extension shows on a page of its own: the floating "Capture" button, the toast and the
 * bilingual/original switch. They live in a shadow root, so the page's styles cannot reach them.
 */
const STYLE = `
  :host { all: initial; }
  .capture, .toast, .switch { position: fixed; z-index: 2147483647; font: 14px/1.4 system-ui, sans-serif; }
  .capture { padding: 4px 10px; border: 0; border-radius: 14px; background: #7b61ff; color: white; cursor: pointer; box-shadow: 0 2px 8px #0004; }
  .toast { right: 16px; bottom: 16px; max-width: 360px; padding: 10px 14px; border-radius: 8px; background: #1f1b33; color: white; box-shadow: 0 4px 16px #0005; }
  .toast[data-state='failed'] { background: #7a1f2b; }
  .toast button { margin-left: 8px; border: 1px solid #fff8; border-radius: 4px; background: transparent; color: white; cursor: pointer; }
  .switch { left: 16px; bottom: 16px; padding: 6px 12px; border: 1px solid #7b61ff; border-radius: 16px; background: white; color: #3f2f9e; cursor: pointer; }
  [hidden] { display: none !important; }
`;

export interface Ui {
  showCaptureButton(at: DOMRect, onCapture: () => void): void;
  hideCaptureButton(): void;
  toast(message: string, options?: { state?: string; openOptions?: () => void; sticky?: boolean }): void;
  showSwitch(showingOriginal: boolean, onToggle: () => void): void;
  /** Whether an event happened inside the extension's own elements. */
  owns(node: EventTarget | null): boolean;
}

export function createUi(): Ui {
  const host = document.createElement('lcs-ui');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>${STYLE}</style>
    <button class="capture" type="button" title="Capture to your library" hidden>Capture</button>
    <div class="toast" role="status" aria-live="polite" hidden><span></span><button type="button" hidden>Open options</button></div>
    <button class="switch" type="button" hidden></button>`;
  const captureButton = root.querySelector<HTMLButtonElement>('.capture')!;
  const toastBox = root.querySelector<HTMLDivElement>('.toast')!;
  const toastText = toastBox.querySelector('span')!;
  const toastAction = toastBox.querySelector('button')!;
  const switchButton = root.querySelector<HTMLButtonElement>('.switch')!;
  let toastTimer: ReturnType<typeof setTimeout> | undefined;
  let onCapture = () => {};
  let onToggle = () => {};
  let openOptions = () => {};
  // Keep the selection: a press on the button must not clear it before the click.
  captureButton.addEventListener('mousedown', (event) => event.preventDefault());
  captureButton.addEventListener('click', () => onCapture());
  switchButton.addEventListener('click', () => onToggle());
  toastAction.addEventListener('click', () => openOptions());
  const attach = () => {
    if (!host.isConnected) document.documentElement.append(host);
  };

  return {
    showCaptureButton(at, callback) {
      attach();
      onCapture = callback;
      captureButton.style.left = `${Math.max(4, Math.min(at.right, innerWidth - 90))}px`;
      captureButton.style.top = `${Math.min(at.bottom + 6, innerHeight - 36)}px`;
      captureButton.hidden = false;
    },
    hideCaptureButton() {
      captureButton.hidden = true;
    },
    toast(message, { state = 'info', openOptions: open, sticky = false } = {}) {
      attach();
      toastText.textContent = message;
      toastBox.dataset.state = state;
      toastAction.hidden = !open;
      openOptions = open ?? (() => {});
      toastBox.hidden = false;
      clearTimeout(toastTimer);
      if (!sticky)
        toastTimer = setTimeout(() => {
          toastBox.hidden = true;
        }, 8_000);
    },
    showSwitch(showingOriginal, callback) {
      attach();
      onToggle = callback;
      switchButton.textContent = showingOriginal ? 'Show translation' : 'Show original only';
      switchButton.hidden = false;
    },
    owns: (node) => node === host,
  };
}
