import type { Account } from '../App.tsx';
import { APP_PATHS } from '../paths.ts';
import { navigate } from '../router.tsx';
import { LanguageForm } from './Languages.tsx';

/** Before the first capture: the language of translations and notes. */
export function Welcome({ account }: { account: Account }) {
  return (
    <section className="panel narrow" aria-labelledby="setup-title">
      <h1 id="setup-title" tabIndex={-1}>
        Set up your language
      </h1>
      <p className="lead">Before your first capture: which language should translations and notes be written in?</p>
      <LanguageForm account={account} submitLabel="Start capturing" onSaved={() => navigate(APP_PATHS.library)} />
    </section>
  );
}
