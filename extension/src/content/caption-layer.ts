import type { ToastAction, Ui } from './ui.ts';

const STYLE = `
  .captions { position: fixed; z-index: 2147483646; pointer-events: none; font: 20px/1.35 system-ui, sans-serif; }
  .captions .line, .captions .translation { position: absolute; left: 50%; transform: translateX(-50%); width: max-content; max-width: 90%;
    padding: 2px 10px; border-radius: 4px; text-align: center; color: white; background: #000c; }
  .captions .line { pointer-events: auto; user-select: text; -webkit-user-select: text; cursor: text; }
  .captions .line u { text-decoration: underline dotted #b9a8ff 2px; text-underline-offset: 3px; }
  .captions .translation { pointer-events: none; user-select: none; -webkit-user-select: none; color: #ffe9a8; font-size: 0.85em; }
  .captions .translation:empty, .captions .line:empty { display: none; }
  .captions .bar { position: absolute; top: 8px; right: 8px; display: flex; flex-wrap: wrap; justify-content: flex-end; align-items: center; gap: 6px;
    max-width: 70%; font-size: 13px; pointer-events: auto; user-select: none; -webkit-user-select: none; }
  .captions .bar button { font: inherit; padding: 3px 10px; border: 1px solid #9d8cff; border-radius: 12px; background: #1f1b33e6; color: white;
    cursor: pointer; }
  .captions .bar .bilingual[aria-pressed='true'] { background: #5b45d6; }
  .captions .bar .capture-caption { background: #5b45d6; border-color: white; }
  .captions .status { padding: 3px 8px; border-radius: 8px; background: #1f1b33e6; color: white; pointer-events: none; }
  .captions .status:empty { display: none; }
  .captions .bar[data-state='failed'] .status { background: #7a1f2bee; }
`;

// What the bar says about bilingual captions: on or off, and a status (with its fix) while something is wrong.
export interface BarState {
  bilingual: boolean;
  status: string;
  state: 'ok' | 'trouble' | 'failed';
  action?: ToastAction;
}

// The captions' part of the extension's closed layer, over the video: the line (the learner
// selects in it), its translation under it (only to be read: the pointer passes through and it
// cannot be selected), and a bar with the bilingual switch, its status, and Capture once
// something in the line is selected. Every handler takes the learner's own (trusted) events only.
export class CaptionLayer {
  private readonly box: HTMLDivElement;
  private readonly line: HTMLDivElement;
  private readonly translation: HTMLDivElement;
  private readonly bar: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly action: HTMLButtonElement;
  private readonly capture: HTMLButtonElement;
  private readonly bilingual: HTMLButtonElement;
  private readonly selectedIn: (within: Node) => string;
  private onAction = () => {};

  constructor(ui: Ui, handlers: { toggle(): void; capture(text: string): void; hover(over: boolean): void }) {
    const { box, selectedIn } = ui.part(STYLE);
    this.selectedIn = selectedIn;
    this.box = box;
    this.box.className = 'captions';
    this.box.hidden = true;
    this.box.innerHTML =
      '<div class="line" translate="no"></div><div class="translation" translate="no"></div>' +
      '<div class="bar"><span class="status" role="status" aria-live="polite"></span><button type="button" class="action" hidden></button>' +
      '<button type="button" class="capture-caption" hidden>Capture</button>' +
      '<button type="button" class="bilingual" aria-pressed="false">Bilingual captions</button></div>';
    const $ = <E extends Element>(selector: string) => this.box.querySelector<E>(selector)!;
    this.line = $('.line');
    this.translation = $('.translation');
    this.bar = $('.bar');
    this.status = $('.status');
    this.action = $('.action');
    this.capture = $('.capture-caption');
    this.bilingual = $('.bilingual');
    const trusted =
      <E extends Event>(run: (event: E) => void) =>
      (event: E) => {
        if (event.isTrusted) run(event);
      };
    this.bilingual.addEventListener(
      'click',
      trusted(() => handlers.toggle()),
    );
    this.action.addEventListener(
      'click',
      trusted(() => this.onAction()),
    );
    // Keep the selection: a press on Capture must not clear it before the click.
    this.capture.addEventListener(
      'mousedown',
      trusted((event) => event.preventDefault()),
    );
    this.capture.addEventListener(
      'click',
      trusted(() => {
        const text = this.selectedIn(this.line);
        this.capture.hidden = true;
        if (text) handlers.capture(text);
      }),
    );
    this.line.addEventListener(
      'pointerenter',
      trusted(() => handlers.hover(true)),
    );
    this.box.addEventListener(
      'pointerleave',
      trusted(() => handlers.hover(false)),
    );
    const armSoon = trusted(() => setTimeout(() => (this.capture.hidden = !this.selectedIn(this.line)), 50));
    this.line.addEventListener('pointerup', armSoon);
    this.line.addEventListener('keyup', armSoon);
  }

  // Covers `video`'s box (the layer follows it on every change of line, scroll and resize).
  place(video: HTMLVideoElement): void {
    const rect = video.getBoundingClientRect();
    this.box.hidden = rect.width === 0;
    Object.assign(this.box.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  }

  // The line (null: the site draws it, and the layer shows it only while the learner holds it) and
  // its translation, placed at the bottom of the video or, for a drawn line, over it.
  show(line: Node | null, translation: Node | null, drawnAt: DOMRect | null): void {
    if (line) this.line.replaceChildren(line);
    else if (line === null && !drawnAt) this.line.replaceChildren();
    this.translation.replaceChildren(...(translation ? [translation] : []));
    if (!this.selectedIn(this.line)) this.capture.hidden = true;
    const video = this.box.getBoundingClientRect();
    if (drawnAt) {
      this.line.style.top = `${drawnAt.top - video.top}px`;
      this.line.style.bottom = '';
      this.translation.style.top = `${drawnAt.bottom - video.top + 4}px`;
      this.translation.style.bottom = '';
      return;
    }
    this.line.style.top = '';
    this.translation.style.top = '';
    const translationHeight = translation ? this.translation.offsetHeight + 4 : 0;
    this.translation.style.bottom = '6%';
    this.line.style.bottom = `calc(6% + ${translationHeight}px)`;
  }

  // The line the learner holds: a drawn caption, shown in the layer so that it can be selected.
  hold(text: string, drawnAt: DOMRect): void {
    this.line.textContent = text;
    this.show(null, this.translation.firstChild, drawnAt);
  }

  release(): void {
    this.line.replaceChildren();
    this.capture.hidden = true;
  }

  // The line's own element, to find known expressions in.
  get lineElement(): HTMLElement {
    return this.line;
  }

  showBar({ bilingual, status, state, action }: BarState): void {
    this.bilingual.setAttribute('aria-pressed', String(bilingual));
    this.status.textContent = status;
    this.bar.dataset.state = state;
    this.action.hidden = !action;
    this.action.textContent = action?.label ?? '';
    this.onAction = action?.run ?? (() => {});
  }

  hide(): void {
    this.box.hidden = true;
  }
}
