import type { inferOutput } from '@trpc/tanstack-react-query';
import { useRef, useState } from 'react';
import { explain } from '../errors.ts';
import { trpc, trpcClient } from '../trpc.ts';
import { refreshCredits } from './Credits.tsx';

type Subject = { cardId: string } | { sentenceId: string };
type Audio = inferOutput<typeof trpc.audio.get>['audio'];

/** How often a clip being generated is asked after, and for how long at most. */
const POLL_MS = 1_000;
const GIVE_UP_MS = 60_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for a clip being generated; the same clip afterwards is ready at once and free. */
async function readyClip(subject: Subject): Promise<Audio> {
  let { audio } = await trpcClient.audio.request.mutate(subject);
  const giveUp = Date.now() + GIVE_UP_MS;
  while (audio.status === 'pending' && Date.now() < giveUp) {
    await pause(POLL_MS);
    ({ audio } = await trpcClient.audio.get.query({ audioId: audio.audioId }));
  }
  return audio;
}

/** Play: asks for the clip, says "Generating…" while it is made, then plays it. */
export function PlayAudio({ subject, label }: { subject: Subject; label: string }) {
  const [state, setState] = useState<'idle' | 'generating' | 'playing'>('idle');
  const [message, setMessage] = useState('');
  const player = useRef<HTMLAudioElement | null>(null);
  const play = async () => {
    setMessage('');
    setState('generating');
    try {
      const audio = await readyClip(subject);
      if (audio.status !== 'ready') {
        setState('idle');
        return setMessage(audio.status === 'failed' ? 'The audio could not be made. Try again.' : 'The audio is taking long. Try again in a minute.');
      }
      void refreshCredits();
      player.current?.pause();
      player.current = new Audio(audio.url);
      player.current.onended = () => setState('idle');
      setState('playing');
      await player.current.play();
    } catch (error) {
      setState('idle');
      setMessage(error instanceof DOMException ? 'This browser could not play the audio.' : explain(error).message);
    }
  };
  const words = { idle: 'Play', generating: 'Generating…', playing: 'Playing…' } as const;
  return (
    <span className="play">
      <button type="button" className="quiet" onClick={() => void play()} disabled={state !== 'idle'} aria-label={`${words[state]} “${label}”`}>
        <span aria-hidden="true">▶ </span>
        {words[state]}
      </button>
      {message && (
        <span className="error-text" role="status">
          {message}
        </span>
      )}
    </span>
  );
}
