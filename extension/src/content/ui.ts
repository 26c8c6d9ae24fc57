// The extension's own layer on a page: the Capture button, the toast, the bilingual/original
// switch with its status, and the underlines of known expressions with their hover cards. All
// of it lives in a *closed* shadow root on a plain `div` (a custom element's tag could be
// defined by the page first and its root taken through attachInternals), and the root is held
// only in this closure. Every handler ignores untrusted events, so a page's script can neither
// press a button nor read an answer; what is only to be read (toast text, cards, underlines) lets
// the pointer through and cannot be selected, so the page cannot find it by hit-testing or read it
// from the selection.
import { freeSpot } from './free-spot.ts';

const STYLE = `
  :host { all: initial !important; position: absolute !important; top: 0 !important; left: 0 !important; width: 0 !important; height: 0 !important;
    display: block !important; overflow: visible !important; z-index: 2147483647 !important; contain: style !important; }
  * { box-sizing: border-box; }
  .capture, .toast, .switch { position: fixed; z-index: 2147483647; font: 14px/1.4 system-ui, sans-serif; }
  .capture { padding: 3px 10px; border: 0; border-radius: 12px; background: #5b45d6; color: white; cursor: pointer; box-shadow: 0 2px 8px #0004; }
  .capture:focus-visible, button:focus-visible { outline: 2px solid #9d8cff; outline-offset: 2px; }
  .toast { right: 16px; bottom: 16px; max-width: 380px; padding: 10px 14px; border-radius: 8px; background: #1f1b33; color: white; box-shadow: 0 4px 16px #0005;
    pointer-events: none; user-select: none; -webkit-user-select: none; }
  .toast[data-state='failed'] { background: #7a1f2b; }
  .toast .actions:empty { display: none; }
  .toast .actions { margin-top: 6px; display: flex; gap: 8px; }
  .toast button, .switch .retry, .switch .link { pointer-events: auto; font: inherit; font-size: 13px; padding: 2px 10px; border: 1px solid #fff8;
    border-radius: 4px;
    background: transparent; color: inherit; cursor: pointer; }
  .switch { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: 6px 8px; max-width: 300px; padding: 4px 6px 4px 10px;
    border: 1px solid #5b45d655; border-right: 0; border-radius: 14px 0 0 14px; background: #fffffff2; color: #2d2170; box-shadow: 0 1px 6px #0002;
    font-size: 13px; user-select: none; -webkit-user-select: none; }
  .switch:has(.status:not(:empty)) { border-radius: 10px 0 0 10px; padding: 8px 8px 6px 12px; }
  .switch .status { flex: 1 1 100%; line-height: 1.35; }
  .switch .toggle { font: inherit; padding: 2px 8px; border: 1px solid #5b45d6; border-radius: 10px; background: #5b45d6; color: white; cursor: pointer;
    white-space: nowrap; }
  .switch .toggle[aria-pressed='true'] { background: white; color: #2d2170; }
  .switch .status { pointer-events: none; }
  .switch .status:empty { display: none; }
  .switch .retry, .switch .link { border-color: #5b45d6; color: #2d2170; }
  .switch[data-state='trouble'] { border-color: #b7791f88; }
  .switch[data-state='failed'] { border-color: #a1283888; }
  .marks { position: absolute; top: 0; left: 0; width: 0; height: 0; pointer-events: none; }
  .mark { position: absolute; pointer-events: none; border-bottom: 2px dotted #7b61ffcc; }
  .card { position: absolute; width: max-content; max-width: 320px; padding: 6px 10px; border-radius: 6px; background: #1f1b33; color: white;
    font: 13px/1.4 system-ui, sans-serif;
    box-shadow: 0 2px 10px #0004; pointer-events: none; user-select: none; -webkit-user-select: none; }
  [hidden] { display: none !important; }
`;

export interface ToastAction {
  label: string;
  run: () => void;
}

// The switch: which view is on, and a status line (with an action) while something is wrong or under way.
interface SwitchState {
  showingOriginal: boolean;
  status?: string;
  state?: 'ok' | 'trouble' | 'failed';
  action?: ToastAction;
}

// An expression of the library found in the page's text, to underline, with its card's translation.
export interface Underline {
  range: Range;
  label: string;
}

export interface Ui {
  // Shows the Capture button beside the selection's last line, outside the text; null when no spot fits.
  showCaptureButton(selection: Range, onCapture: () => void): void;
  hideCaptureButton(): void;
  toast(message: string, options?: { state?: string; actions?: ToastAction[]; sticky?: boolean }): void;
  showSwitch(state: SwitchState, onToggle: () => void): void;
  underline(marks: readonly Underline[]): void;
  // Draws underlines again (the page's layout changed).
  redraw(): void;
  // Whether `node` is the extension's layer (its host, the only part a page can see).
  owns(node: unknown): boolean;
  // A part of the layer of its own (the captions'), styled by `css`, inside the same closed root.
  part(css: string): LayerPart;
}

interface LayerPart {
  box: HTMLDivElement;
  // The text the learner selected inside `within` (a part of this layer), or ''.
  selectedIn: (within: Node) => string;
}

export function createUi(): Ui {
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'closed' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLE);
  root.adoptedStyleSheets = [sheet];
  root.innerHTML =
    `
    <button class="capture" type="button" title="Capture to your library" hidden>Capture</button>
    <div class="toast" role="status" aria-live="polite" hidden><div class="text"></div><div class="actions"></div></div>
    <div class="switch" hidden><span class="status" role="status" aria-live="polite"></span>` +
    `<button class="action retry" type="button" hidden></button><button class="toggle" type="button"></button></div>
    <div class="marks"></div><div class="card" hidden></div>`;
  const $ = <E extends Element>(selector: string) => root.querySelector<E>(selector)!;
  const captureButton = $<HTMLButtonElement>('.capture');
  const toastBox = $<HTMLDivElement>('.toast');
  const switchBox = $<HTMLDivElement>('.switch');
  const switchToggle = $<HTMLButtonElement>('.switch .toggle');
  const switchAction = $<HTMLButtonElement>('.switch .action');
  const marksLayer = $<HTMLDivElement>('.marks');
  const card = $<HTMLDivElement>('.card');
  let toastTimer: ReturnType<typeof setTimeout> | undefined;
  let onCapture = () => {};
  let onToggle = () => {};
  let onSwitchAction = () => {};
  let underlines: Underline[] = [];
  // Underlines in page coordinates, for the hover card.
  let drawn: { box: DOMRect; label: string }[] = [];

  // A handler that runs only for what the learner did: a page's dispatched or scripted event is ignored.
  const trusted =
    <E extends Event>(run: (event: E) => void) =>
    (event: E) => {
      if (event.isTrusted) run(event);
    };
  // Keep the selection: a press on the button must not clear it before the click.
  captureButton.addEventListener(
    'mousedown',
    trusted((event) => event.preventDefault()),
  );
  captureButton.addEventListener(
    'click',
    trusted(() => onCapture()),
  );
  switchToggle.addEventListener(
    'click',
    trusted(() => onToggle()),
  );
  switchAction.addEventListener(
    'click',
    trusted(() => onSwitchAction()),
  );
  const attach = () => {
    if (!host.isConnected) document.documentElement.append(host);
  };

  // The toast sits above the switch when both would share the corner.
  function keepToastOffSwitch(): void {
    toastBox.style.bottom = '';
    if (switchBox.hidden || toastBox.hidden) return;
    const toast = toastBox.getBoundingClientRect();
    const docked = switchBox.getBoundingClientRect();
    if (toast.bottom > docked.top && toast.top < docked.bottom && toast.right > docked.left) toastBox.style.bottom = `${innerHeight - docked.top + 8}px`;
  }

  function placeSwitch(): void {
    switchBox.style.right = '0px';
    switchBox.style.bottom = '';
    const { width, height } = switchBox.getBoundingClientRect();
    const spot = freeSpot(width, height, host);
    switchBox.style.top = `${spot.top}px`;
    keepToastOffSwitch();
  }
  let placeTimer: ReturnType<typeof setTimeout> | undefined;
  addEventListener(
    'scroll',
    () => {
      if (switchBox.hidden) return;
      clearTimeout(placeTimer);
      placeTimer = setTimeout(placeSwitch, 200);
    },
    { passive: true },
  );

  function redraw(): void {
    underlines = underlines.filter(({ range }) => range.startContainer.isConnected && !range.collapsed);
    drawn = [];
    const fragment = document.createDocumentFragment();
    for (const { range, label } of underlines)
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width === 0) continue;
        const box = new DOMRect(rect.left + scrollX, rect.top + scrollY, rect.width, rect.height);
        drawn.push({ box, label });
        const mark = document.createElement('div');
        mark.className = 'mark';
        Object.assign(mark.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height + 1}px` });
        fragment.append(mark);
      }
    marksLayer.replaceChildren(fragment);
  }
  let redrawFrame = 0;
  const redrawSoon = () => {
    if (underlines.length === 0 || redrawFrame) return;
    redrawFrame = requestAnimationFrame(() => {
      redrawFrame = 0;
      redraw();
    });
  };
  addEventListener('resize', redrawSoon, { passive: true });
  new ResizeObserver(redrawSoon).observe(document.documentElement);
  document.addEventListener(
    'mousemove',
    trusted((event: MouseEvent) => {
      if (drawn.length === 0) return;
      const x = event.clientX + scrollX;
      const y = event.clientY + scrollY;
      const over = drawn.find(({ box }) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom + 2);
      if (!over) {
        card.hidden = true;
        return;
      }
      card.textContent = over.label;
      card.hidden = false;
      card.style.left = `${Math.max(scrollX + 4, Math.min(over.box.left, scrollX + innerWidth - card.offsetWidth - 8))}px`;
      const below = over.box.bottom + 6;
      card.style.top = `${below + card.offsetHeight > scrollY + innerHeight ? over.box.top - card.offsetHeight - 6 : below}px`;
    }),
    { passive: true, capture: true },
  );

  return {
    showCaptureButton(selection, callback) {
      attach();
      onCapture = callback;
      captureButton.style.visibility = 'hidden';
      captureButton.hidden = false;
      const { width, height } = captureButton.getBoundingClientRect();
      const { left, top } = captureSpot(selection, width, height);
      captureButton.style.left = `${left}px`;
      captureButton.style.top = `${top}px`;
      captureButton.style.visibility = '';
    },
    hideCaptureButton() {
      captureButton.hidden = true;
    },
    toast(message, { state = 'info', actions = [], sticky = false } = {}) {
      attach();
      toastBox.querySelector('.text')!.textContent = message;
      toastBox.dataset.state = state;
      toastBox.querySelector('.actions')!.replaceChildren(
        ...actions.map(({ label, run }) => {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = label;
          button.addEventListener(
            'click',
            trusted(() => {
              toastBox.hidden = true;
              run();
            }),
          );
          return button;
        }),
      );
      toastBox.hidden = false;
      keepToastOffSwitch();
      clearTimeout(toastTimer);
      if (!sticky)
        toastTimer = setTimeout(() => {
          toastBox.hidden = true;
        }, 8_000);
    },
    showSwitch({ showingOriginal, status = '', state = 'ok', action }, callback) {
      attach();
      onToggle = callback;
      switchToggle.textContent = showingOriginal ? 'Show translation' : 'Show original only';
      switchToggle.setAttribute('aria-pressed', String(showingOriginal));
      switchBox.querySelector('.status')!.textContent = status;
      switchBox.dataset.state = state;
      switchAction.hidden = !action;
      switchAction.textContent = action?.label ?? '';
      onSwitchAction = action?.run ?? (() => {});
      switchBox.hidden = false;
      placeSwitch();
    },
    underline(marks) {
      attach();
      underlines.push(...marks);
      redraw();
    },
    redraw,
    owns: (node) => node === host,
    part(css) {
      attach();
      const own = new CSSStyleSheet();
      own.replaceSync(css);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, own];
      const box = document.createElement('div');
      root.append(box);
      return { box, selectedIn: (within) => selectedIn(root, within) };
    },
  };
}

// The selection inside the closed root, read through the root itself: getComposedRanges where the
// browser has it (the standard), else Chromium's ShadowRoot.getSelection.
function selectedIn(root: ShadowRoot, within: Node): string {
  const selection = getSelection();
  const ranges: AbstractRange[] = selection && 'getComposedRanges' in selection ? selection.getComposedRanges({ shadowRoots: [root] }) : [];
  if (ranges.length === 0) {
    const own = (root as ShadowRoot & { getSelection?: () => Selection | null }).getSelection?.();
    if (own && own.rangeCount > 0) ranges.push(own.getRangeAt(0));
  }
  const range = ranges[0];
  if (!range || range.collapsed || !within.contains(range.startContainer) || !within.contains(range.endContainer)) return '';
  const live = document.createRange();
  live.setStart(range.startContainer, range.startOffset);
  live.setEnd(range.endContainer, range.endOffset);
  return live.toString().replace(/\s+/gu, ' ').trim();
}

// Where the Capture button goes: in the margin beside the selection's last line (its block's
// inline-end side, else the start side), so that it covers no text; only on a page with no side
// margin, just above the selection's first line.
function captureSpot(selection: Range, width: number, height: number): { left: number; top: number } {
  const lines = Array.from(selection.getClientRects()).filter((rect) => rect.width > 0);
  const first = lines[0] ?? selection.getBoundingClientRect();
  const last = lines.at(-1) ?? first;
  let container: Node | null = selection.endContainer;
  while (container && !(container instanceof Element)) container = container.parentNode;
  const block = container instanceof Element ? blockOf(container) : null;
  const bounds = block?.getBoundingClientRect() ?? last;
  const top = Math.max(4, Math.min(last.top + (last.height - height) / 2, innerHeight - height - 4));
  const gap = 8;
  const rtl = block ? getComputedStyle(block).direction === 'rtl' : false;
  const endRoom = rtl ? bounds.left : innerWidth - bounds.right;
  const startRoom = rtl ? innerWidth - bounds.right : bounds.left;
  if (endRoom >= width + 2 * gap) return { left: rtl ? bounds.left - gap - width : bounds.right + gap, top };
  if (startRoom >= width + 2 * gap) return { left: rtl ? bounds.right + gap : bounds.left - gap - width, top };
  return { left: Math.max(4, Math.min(first.left, innerWidth - width - 4)), top: Math.max(4, first.top - height - 4) };
}

// The nearest ancestor laid out as a block (its box bounds the text's lines).
function blockOf(element: Element): Element {
  for (let at: Element | null = element; at; at = at.parentElement) {
    const display = getComputedStyle(at).display;
    if (!display.startsWith('inline') && display !== 'contents') return at;
  }
  return element;
}
