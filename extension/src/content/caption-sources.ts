// Where a page's captions are read from, and the only place that knows the sites' markup.
// - A `<video>`'s own text tracks (WebVTT `<track>`, or cues a player adds), through the TextTrack
// API: the line is the active cues of the track the learner turned on (`showing`), so what is read
// is what the learner sees. Upcoming cues come from the same track, already in memory: no subtitle
// file is ever downloaded by the extension.
// - Caption overlays a site draws in its page. YouTube's: the player `#movie_player`, its
// `video.html5-main-video`, and each line a `.caption-window` > `.captions-text` of
// `.ytp-caption-segment`s inside `.ytp-caption-window-container`, as the live player's markup is
// recorded in Binbasri-in/learn-english-chrome-extension (scripts/videos.js) and styled by
// raingart/Nova-YouTube-extension (plugins/player/subtitle-transparent.js). (asbplayer fetches
// YouTube's timedtext files instead: a download this extension does not make.)
// test/integration/extension/fixtures/youtube-captions.html reproduces that markup.

const YOUTUBE = {
  player: '#movie_player',
  video: 'video.html5-main-video',
  container: '.ytp-caption-window-container',
  window: '.caption-window',
  text: '.captions-text',
  segment: '.ytp-caption-segment',
} as const;

// One place a video's captions come from.
export interface CaptionSource {
  video: HTMLVideoElement;
  // The line shown now ('' when none).
  current(): string;
  // Lines coming next, in order, for translating ahead (overlays cannot say: empty).
  upcoming(count: number): string[];
  // Where the line is drawn, when the site draws it (an overlay), in the viewport.
  drawnAt(): DOMRect | null;
  // The site's drawn caption (an overlay's), to find known expressions in.
  drawnElement(): Element | null;
  // Called on every change of line (and of the learner's choice of track).
  watch(changed: () => void): () => void;
  // The extension draws the line from now on (a text track's: the browser stops drawing it, the cues stay readable).
  take(): void;
  // The browser draws it again.
  release(): void;
  // Whether the captions are still there and on (the learner may turn them off, the page remove the video).
  alive(): boolean;
}

// A cue's text as shown: WebVTT tags (<i>, <c.yellow>, <v Speaker>) dropped, lines joined.
function cueText(cue: TextTrackCue): string {
  const vtt = cue as VTTCue;
  const text = typeof vtt.getCueAsHTML === 'function' ? (vtt.getCueAsHTML().textContent ?? '') : (vtt.text ?? '');
  return text.replace(/\s+/gu, ' ').trim();
}

const isCaptionTrack = (track: TextTrack) => track.kind === 'subtitles' || track.kind === 'captions';

// The caption track the learner sees on `video`, if any.
function showingTrack(video: HTMLVideoElement): TextTrack | null {
  return Array.from(video.textTracks).find((track) => isCaptionTrack(track) && track.mode === 'showing') ?? null;
}

function textTrackSource(video: HTMLVideoElement, track: TextTrack): CaptionSource {
  const lines = (cues: ArrayLike<TextTrackCue> | null | undefined) => Array.from(cues ?? [], cueText).filter(Boolean);
  return {
    video,
    current: () => lines(track.activeCues).join(' '),
    upcoming(count) {
      const now = video.currentTime;
      return lines(Array.from(track.cues ?? []).filter((cue) => cue.startTime > now)).slice(0, count);
    },
    drawnAt: () => null,
    drawnElement: () => null,
    watch(changed) {
      track.addEventListener('cuechange', changed);
      video.textTracks.addEventListener('change', changed);
      return () => {
        track.removeEventListener('cuechange', changed);
        video.textTracks.removeEventListener('change', changed);
      };
    },
    take() {
      if (track.mode === 'showing') track.mode = 'hidden';
    },
    release() {
      if (track.mode === 'hidden') track.mode = 'showing';
    },
    // Hidden is the extension's doing; disabled (or another track shown) is the learner's.
    alive: () => video.isConnected && track.mode === 'hidden' && !showingTrack(video),
  };
}

function overlaySource(video: HTMLVideoElement, player: Element): CaptionSource {
  const windows = () => Array.from(player.querySelectorAll(`${YOUTUBE.container} ${YOUTUBE.window}`));
  return {
    video,
    current: () =>
      windows()
        .map((line) =>
          Array.from(line.querySelectorAll(YOUTUBE.segment), (segment) => segment.textContent ?? '')
            .join(' ')
            .replace(/\s+/gu, ' ')
            .trim(),
        )
        .filter(Boolean)
        .join(' '),
    upcoming: () => [],
    drawnElement: () => player.querySelector(YOUTUBE.container),
    take: () => {},
    release: () => {},
    alive: () => video.isConnected,
    drawnAt() {
      const boxes = windows()
        .map((line) => line.getBoundingClientRect())
        .filter((box) => box.width > 0);
      if (boxes.length === 0) return null;
      const [left, top] = [Math.min(...boxes.map((b) => b.left)), Math.min(...boxes.map((b) => b.top))];
      return new DOMRect(left, top, Math.max(...boxes.map((b) => b.right)) - left, Math.max(...boxes.map((b) => b.bottom)) - top);
    },
    watch(changed) {
      let last = '';
      const observer = new MutationObserver(() => {
        const line = this.current();
        if (line === last) return;
        last = line;
        changed();
      });
      observer.observe(player, { childList: true, characterData: true, subtree: true });
      return () => observer.disconnect();
    },
  };
}

// The captions of `video`, or null when it has none the learner sees.
export function captionSourceOf(video: HTMLVideoElement): CaptionSource | null {
  const player = video.matches(YOUTUBE.video) ? video.closest(YOUTUBE.player) : null;
  if (player) return overlaySource(video, player);
  const track = showingTrack(video);
  return track ? textTrackSource(video, track) : null;
}

// Whether `node` is part of a caption a site draws (hovering it pauses the video).
export function isDrawnCaption(node: unknown): node is Element {
  return node instanceof Element && node.closest(`${YOUTUBE.container} ${YOUTUBE.window}`) !== null;
}
