import { useMutation, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { explain } from '../errors.ts';
import { queryClient, trpc } from '../trpc.ts';
import { FormError, SelectField, useNotify } from '../ui.tsx';
import { refreshForecast } from './ReplayOverview.tsx';

/** The effect of each choice, as charts: loaded when the form shows, with the chart library. */
const RetentionEffect = lazy(() => import('./RetentionEffect.tsx').then((m) => ({ default: m.RetentionEffect })));

/** The recall chances a learner may choose (the service takes 0.80–0.97). */
const RETENTION_CHOICES = [
  [0.8, 'About 80 % (fewest reviews)'],
  [0.85, 'About 85 %'],
  [0.9, 'About 90 % (default)'],
  [0.95, 'About 95 %'],
  [0.97, 'About 97 % (most reviews)'],
] as const;

/** How often Replay brings cards back: the recall chance at which a card falls due. */
export function ReplaySettingsForm() {
  const notify = useNotify();
  const [message, setMessage] = useState('');
  const settings = useQuery(trpc.replay.settings.queryOptions());
  const save = useMutation(
    trpc.replay.updateSettings.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.replay.settings.queryKey(), saved);
        void refreshForecast();
        notify('Replay setting saved. It applies from each card’s next review.', 'ok');
      },
      onError: (error) => setMessage(explain(error).message),
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage('');
    save.mutate({ desiredRetention: Number(new FormData(event.currentTarget).get('desiredRetention')) });
  };
  if (!settings.data) return null;
  return (
    <form onSubmit={onSubmit} noValidate>
      <SelectField label="How much to remember" name="desiredRetention" defaultValue={String(settings.data.desiredRetention)}>
        {RETENTION_CHOICES.map(([value, label]) => (
          <option key={value} value={String(value)}>
            {label}
          </option>
        ))}
      </SelectField>
      <p className="hint">A higher share means more reviews and fewer forgotten expressions.</p>
      <Suspense fallback={null}>
        <RetentionEffect />
      </Suspense>
      <FormError message={message} />
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save Replay setting'}
        </button>
      </div>
      <PersonalSchedule schedule={settings.data.personalSchedule} />
    </form>
  );
}

type Schedule = inferOutput<typeof trpc.replay.settings>['personalSchedule'];

/** Where the learner stands with their own FSRS weights, and a way to fit them now once the log allows. */
function PersonalSchedule({ schedule }: { schedule: Schedule }) {
  const [message, setMessage] = useState('');
  const optimise = useMutation(
    trpc.replay.optimise.mutationOptions({
      onSuccess: () => {
        // The fit takes seconds in the background; the settings answer carries its result.
        setTimeout(() => void queryClient.invalidateQueries(trpc.replay.settings.pathFilter()), 3_000);
      },
      onError: (error) => setMessage(explain(error).message),
    }),
  );
  const { latest, longTermReviews, reviewsNeeded } = schedule;
  const ready = longTermReviews >= reviewsNeeded;
  return (
    <section className="personal-schedule" aria-labelledby="personal-schedule">
      <h3 id="personal-schedule">Your own schedule</h3>
      <p className="hint">
        {!latest && !ready && `Replay learns how you remember once you have ${reviewsNeeded} reviews made a day or more apart: you have ${longTermReviews}.`}
        {latest?.applied &&
          `Replay schedules with weights fitted to your ${latest.logSize} reviews (${new Date(latest.fittedAt).toLocaleDateString()}): they predicted your ` +
            `latest reviews better than the ones before.`}
        {latest &&
          !latest.applied &&
          `The last fit (${new Date(latest.fittedAt).toLocaleDateString()}) did not predict your latest reviews better, so Replay kept its schedule.`}
        {!latest && ready && 'You have enough reviews for Replay to learn how you remember. It does so every week, or now.'}
      </p>
      {ready && (
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              setMessage('');
              optimise.mutate();
            }}
            disabled={optimise.isPending}
          >
            Fit my schedule now
          </button>
        </div>
      )}
      {optimise.isSuccess && (
        <p role="status" className="hint">
          Fitting your schedule to your reviews: the result shows here in a moment.
        </p>
      )}
      <FormError message={message} />
    </section>
  );
}
