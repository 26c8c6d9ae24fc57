import { createContext, useContext, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

/** A text field of a submitted form (FormData also carries files; these forms have none). */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A labelled input with its hint and its own error, tied by aria-describedby. */
export function Field({
  label,
  hint,
  error,
  describedBy,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string | undefined; describedBy?: string | undefined }) {
  const id = useId();
  // `describedBy`: a message of the whole form (e.g. a wrong password) that concerns this field too.
  const described = [hint && `${id}-hint`, error && `${id}-error`, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({ label, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}

export function FormError({ message, id }: { message: string; id?: string }) {
  return (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  );
}

export type Tone = 'info' | 'error' | 'ok';
/** A notice may offer one action (e.g. Undo), which also dismisses it. */
export interface NoticeAction {
  label: string;
  run: () => void;
}
export interface NoticeState {
  message: string;
  tone: Tone;
  action?: NoticeAction | undefined;
}

export const NoticeContext = createContext<(message: string, tone?: Tone, action?: NoticeAction) => void>(() => {});
export const useNotify = () => useContext(NoticeContext);

/** The page notice: announced politely, dismissable. */
export function Notice({ notice, onDismiss }: { notice: NoticeState; onDismiss: () => void }) {
  return (
    <div className="notice" data-tone={notice.tone} role="status" aria-live="polite">
      <span>{notice.message}</span>
      {notice.action && (
        <button
          type="button"
          onClick={() => {
            notice.action!.run();
            onDismiss();
          }}
        >
          {notice.action.label}
        </button>
      )}
      {notice.message && (
        <button type="button" className="quiet" onClick={onDismiss} aria-label="Dismiss notice">
          ✕
        </button>
      )}
    </div>
  );
}
