import { ask, type KnownExpression } from '../shared/messages.ts';
import { CaptionLayer } from './caption-layer.ts';
import { captionSourceOf, isDrawnCaption, type CaptionSource } from './caption-sources.ts';
import { CaptionTranslation } from './caption-translation.ts';
import { knownIn } from './known-marks.ts';
import type { Ui } from './ui.ts';

// Lines translated ahead of the one shown (from a text track): by the time each comes, its translation is here.
const LINES_AHEAD = 4;

// What a capture from a caption carries: the line (the card's sentence, if the learner sends sentences) and the moment.
export type CaptionCapture = (text: string, line: string, seconds: number) => void;

// Captions of the video playing on the page, in the extension's layer: the line as the learner
// sees it (a text track's is drawn by the layer instead of the browser, so it can be selected;
// a site's drawn caption is shown in the layer while the learner holds it), hovering it pauses
// the video until the pointer leaves, a selection in it is captured with the line as its
// sentence, and "Bilingual captions" puts each line's translation under it, translated a few
// lines ahead. The learner's known expressions are underlined in the line, and reported (card ids
// only) for "Count when I meet my expressions", which the service worker checks.
export class Captions {
  private source: CaptionSource | null = null;
  private stopWatching = () => {};
  // Made when a captioned video first plays: until then nothing of the extension is in the page.
  private made: CaptionLayer | null = null;
  private readonly translation: CaptionTranslation;
  private known: Promise<KnownExpression[]> | null = null;
  private line = '';
  // The video was paused by the learner's hover (and is played again when it leaves).
  private pausedByHover = false;
  private frame = 0;
  private readonly pageViewId = crypto.randomUUID();
  private readonly metCards = new Set<string>();
  private readonly ui: Ui;
  private readonly capture: CaptionCapture;

  constructor(ui: Ui, capture: CaptionCapture) {
    this.ui = ui;
    this.capture = capture;
    this.translation = new CaptionTranslation({ showBar: (state) => this.made?.showBar(state), arrived: () => this.render(), wanted: () => this.wanted() });
    // `play` does not bubble: heard on the way down. Whatever starts a video (the learner or the page), watching it costs nothing.
    document.addEventListener('play', (event) => event.target instanceof HTMLVideoElement && this.follow(event.target), { capture: true });
    // A video that started before the extension came to the page (autoplay) is followed all the same.
    for (const video of document.querySelectorAll('video')) if (!video.paused) this.follow(video);
    document.addEventListener(
      'mouseover',
      (event) => {
        if (event.isTrusted && this.source?.drawnAt() && isDrawnCaption(event.target)) this.hover(true);
      },
      { capture: true, passive: true },
    );
    const placeSoon = () => (this.frame ||= requestAnimationFrame(() => ((this.frame = 0), this.render())));
    addEventListener('scroll', placeSoon, { passive: true, capture: true });
    addEventListener('resize', placeSoon, { passive: true });
  }

  private get layer(): CaptionLayer {
    return (this.made ??= new CaptionLayer(this.ui, {
      toggle: () => this.translation.toggle(),
      capture: (text) => this.source && this.capture(text, this.line, Math.floor(this.source.video.currentTime)),
      hover: (over) => this.hover(over),
    }));
  }

  // The video just played: its captions are followed (a text track's once the learner turns one on).
  private follow(video: HTMLVideoElement): void {
    if (this.source?.video === video) return;
    const source = captionSourceOf(video);
    if (!source) {
      video.textTracks.addEventListener('change', () => this.follow(video), { once: true });
      return;
    }
    this.stopWatching();
    this.source = source;
    this.known ??= ask({ type: 'known-expressions' }).catch(() => []);
    const stop = source.watch(() => this.changed());
    this.stopWatching = () => {
      stop();
      source.release();
    };
    source.take();
    this.changed();
  }

  // The texts to translate: the line shown and those coming next.
  private wanted(): string[] {
    if (!this.source) return [];
    return [this.source.current(), ...this.source.upcoming(LINES_AHEAD)].filter(Boolean);
  }

  private changed(): void {
    if (!this.source) return;
    if (!this.source.alive()) {
      this.stopWatching();
      this.source = null;
      this.layer.hide();
      return;
    }
    this.line = this.source.current();
    this.translation.want(this.wanted());
    this.render();
    void this.underline();
  }

  private render(): void {
    const source = this.source;
    if (!source) return;
    this.layer.place(source.video);
    const drawnAt = source.drawnAt();
    const translated = this.translation.of(this.line);
    const under = translated === undefined ? null : this.translation.element(translated);
    if (drawnAt) this.layer.show(this.pausedByHover ? document.createTextNode(this.line) : null, under, drawnAt);
    else this.layer.show(document.createTextNode(this.line), under, null);
  }

  // Underlines the learner's expressions in the line (in the layer, or on the site's drawn caption) and reports them once per page view.
  private async underline(): Promise<void> {
    const expressions = (await this.known) ?? [];
    if (expressions.length === 0 || !this.source) return;
    const drawn = this.source.drawnAt() ? this.source.drawnElement() : null;
    const { underlines, cardIds } = knownIn(drawn ?? this.layer.lineElement, expressions);
    if (drawn) this.ui.underline(underlines);
    else
      for (const { range, label } of underlines.reverse()) {
        const mark = document.createElement('u');
        mark.title = label;
        range.surroundContents(mark);
      }
    const fresh = [...cardIds].filter((id) => !this.metCards.has(id));
    for (const id of fresh) this.metCards.add(id);
    if (fresh.length > 0) ask({ type: 'met', pageViewId: this.pageViewId, cardIds: fresh }).catch(() => {});
  }

  // Hovering the line pauses the video; leaving plays it again, if the hover paused it.
  private hover(over: boolean): void {
    const source = this.source;
    if (!source) return;
    if (over && !source.video.paused) {
      this.pausedByHover = true;
      source.video.pause();
    }
    if (over) {
      const drawnAt = source.drawnAt();
      if (drawnAt) this.layer.hold(this.line, drawnAt);
      return;
    }
    if (source.drawnAt()) this.layer.release();
    if (this.pausedByHover) void source.video.play().catch(() => {});
    this.pausedByHover = false;
  }
}
