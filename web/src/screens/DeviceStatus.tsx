import { dismissNotes, sendQueued, useOffline } from '../offline-sync.ts';
import { reloadIntoUpdate, useUpdateReady } from '../pwa.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What waits on this device ("Offline: 12 answers will be sent"), and what could not be counted. */
export function OfflineStatus() {
  const { online, answers, captures, notes, held } = useOffline();
  const waiting = [answers && plural(answers, 'answer'), captures.length && plural(captures.length, 'capture')].filter(Boolean).join(' and ');
  const line = !online
    ? `Offline: ${waiting ? `${waiting} will be sent` : 'what you do here is sent'} when you are back online.`
    : waiting && (held ? `Kept on this device, not sent yet: ${waiting}. ${held}` : `Sending ${waiting}…`);
  return (
    <>
      <p className="device-status" role="status" aria-live="polite" hidden={!line}>
        {line}{' '}
        {online && waiting && held && (
          <button type="button" className="quiet" onClick={() => void sendQueued()}>
            Send now
          </button>
        )}
      </p>
      {notes.length > 0 && (
        <div className="device-notes" role="alert">
          <ul>
            {notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
          <button type="button" className="quiet" onClick={dismissNotes}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}

/** The quiet offer of a new version (held back during a Replay session, web/src/pwa.ts). */
export function UpdateReady() {
  const ready = useUpdateReady();
  if (!ready) return null;
  return (
    <div className="update-ready" role="status">
      <span>Update ready</span>
      <button type="button" onClick={reloadIntoUpdate}>
        Reload
      </button>
    </div>
  );
}
