import { useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { ChartFigure, DataTable, Lines } from '../charts.tsx';
import { trpc } from '../trpc.ts';

type Choice = inferOutput<typeof trpc.progress.retention>;

const pct = (r: number) => `${Math.round(r * 100)} %`;
const one = (n: number) => (Math.round(n * 10) / 10).toLocaleString();
const whole = (n: number) => Math.round(n).toLocaleString();

/**
 * Desired retention chosen by its effect: the reviews a day and the expressions remembered after a
 * year at each value from 80 % to 97 %, from the learner's own weights or the defaults; then the
 * personal optimiser, made visible. Shown beside the setting and on the Progress screen.
 */
export function RetentionEffect() {
  const choice = useQuery(trpc.progress.retention.queryOptions());
  if (choice.isError) return <p className="form-error">The effect of each choice could not be loaded.</p>;
  if (!choice.data) return <p className="muted">Working out what each choice costs…</p>;
  return (
    <div className="retention-effect">
      <WorkloadCharts choice={choice.data} />
      <Optimiser choice={choice.data} />
    </div>
  );
}

function WorkloadCharts({ choice }: { choice: Choice }) {
  const { points, desiredRetention, bestForTime, bestIsLowest, newPerDay, source } = choice;
  const at = (dr: number) => points.find((p) => Math.abs(p.desiredRetention - dr) < 1e-9)!;
  const labels = points.map((p) => pct(p.desiredRetention));
  const current = at(desiredRetention) ?? at(0.9);
  const best = at(bestForTime);
  const from = at(0.9);
  const to = at(0.95);
  const whose = source === 'personal' ? 'your own memory model' : 'the default memory model (until Replay has fitted yours)';
  const basis = `For ${one(newPerDay)} new ${newPerDay === 1 ? 'expression' : 'expressions'} a day over a year, from ${whose}.`;
  const reviewsTitle = 'Reviews a day at each desired retention';
  const reviewsSummary =
    `${basis} At ${pct(current.desiredRetention)} (yours): about ${one(current.reviewsPerDay)} reviews and ` + `${one(current.minutesPerDay)} minutes a day.`;
  const keptTitle = 'Expressions remembered after a year';
  const keptSummary =
    `At ${pct(current.desiredRetention)}: about ${whole(current.rememberedAfterYear)}. Going from 90 % to 95 % costs ` +
    `${Math.round((to.reviewsPerDay / from.reviewsPerDay - 1) * 100)} % more reviews for ` +
    `${one((to.rememberedAfterYear / from.rememberedAfterYear - 1) * 100)} % more remembered.`;
  const maxReviews = Math.max(...points.map((p) => p.reviewsPerDay));
  const topReviews = Math.ceil(maxReviews / 5) * 5 || 5;
  const maxKept = Math.max(...points.map((p) => p.rememberedAfterYear));
  const minKept = Math.min(...points.map((p) => p.rememberedAfterYear));
  const keptStep = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(maxKept - minKept, 1))));
  const keptFloor = Math.floor(minKept / keptStep) * keptStep;
  const keptTop = Math.ceil(maxKept / keptStep) * keptStep;
  const table = (
    <DataTable
      caption="Each desired retention’s effect"
      head={['Desired retention', 'Reviews a day', 'Minutes a day', 'Remembered after a year', 'Remembered per minute']}
      rows={points.map((p) => [
        pct(p.desiredRetention) +
          (p.desiredRetention === bestForTime ? ' (most per minute)' : '') +
          (p.desiredRetention === desiredRetention ? ' (yours)' : ''),
        one(p.reviewsPerDay),
        one(p.minutesPerDay),
        whole(p.rememberedAfterYear),
        (Math.round(p.rememberedPerMinute * 1000) / 1000).toLocaleString(),
      ])}
    />
  );
  return (
    <>
      <p className="hint">
        {bestIsLowest || bestForTime <= 0.83
          ? `The most expressions per minute of review comes at ${pct(bestForTime)}, near the lowest choice: with this memory model every step up costs ` +
            `more time than it keeps expressions, so there is no sweet spot, only a trade. Choose by how much time you have and how much you want to keep.`
          : `${pct(bestForTime)} keeps the most expressions per minute of review.`}
      </p>
      <ChartFigure title={reviewsTitle} summary={reviewsSummary} table={table}>
        {(width, ids) => (
          <Lines
            xLabels={labels}
            series={[{ name: 'Reviews a day', color: 'var(--chart-1)', values: points.map((p) => p.reviewsPerDay) }]}
            width={width}
            labels={ids}
            title={reviewsTitle}
            summary={reviewsSummary}
            yDomain={[0, topReviews]}
            yTicks={[0, topReviews / 2, topReviews]}
            format={one}
            height={160}
            marker={{ at: pct(current.desiredRetention), text: 'yours' }}
          />
        )}
      </ChartFigure>
      <ChartFigure title={keptTitle} summary={keptSummary} table={table}>
        {(width, ids) => (
          <Lines
            xLabels={labels}
            series={[{ name: 'Remembered', color: 'var(--chart-2)', values: points.map((p) => p.rememberedAfterYear) }]}
            width={width}
            labels={ids}
            title={keptTitle}
            summary={keptSummary}
            yDomain={[keptFloor, keptTop]}
            yTicks={[keptFloor, (keptFloor + keptTop) / 2, keptTop]}
            format={whole}
            height={160}
            marker={{ at: pct(best.desiredRetention), text: 'most per minute' }}
          />
        )}
      </ChartFigure>
    </>
  );
}

function Optimiser({ choice }: { choice: Choice }) {
  const o = choice.optimiser;
  const curve = choice.recallCurve;
  const hasPersonal = curve.some((p) => p.personal !== null);
  const series = [
    ...(hasPersonal ? [{ name: 'Your memory model', color: 'var(--chart-1)', values: curve.map((p) => p.personal) }] : []),
    { name: 'Default model', color: 'var(--chart-3)', dashed: true, values: curve.map((p) => p.defaults) },
  ];
  const dayWhen = (values: readonly (number | null)[], level: number) => curve.find((_, i) => (values[i] ?? 1) <= level)?.days;
  const title = 'Forecast recall after a first “good”';
  const week = curve.find((p) => p.days >= 7)!;
  const summary = hasPersonal
    ? `${week.days} days after a first good answer, your model expects ${pct(week.personal!)} recall; the default model ${pct(week.defaults)}.`
    : `${week.days} days after a first good answer, the default model expects ${pct(week.defaults)} recall.`;
  let status: string;
  const counted = o.longTermReviews ?? 0;
  if (!o.lastRun && counted < o.reviewsNeeded)
    status =
      `Replay fits a memory model to you once you have ${o.reviewsNeeded} reviews made a day or more apart: you have ${counted}. Until then the ` +
      `charts use the default model.`;
  else if (!o.lastRun)
    status =
      `You have ${counted.toLocaleString()} reviews made a day or more apart, enough for Replay to fit a memory model to you: it does so every ` +
      `week, or now from Settings.`;
  else
    status =
      `Last fitted ${new Date(o.lastRun).toLocaleDateString()} on ${(o.trainSize ?? 0).toLocaleString()} reviews` +
      (o.heldOutSize ? `, judged on your ${o.heldOutSize.toLocaleString()} most recent ones` : '') +
      (o.logLoss !== null && o.defaultLogLoss !== null
        ? `: log loss ${o.logLoss.toFixed(3)} against the defaults’ ${o.defaultLogLoss.toFixed(3)} (lower predicts better)`
        : '') +
      (o.applied ? '. Replay schedules with it.' : '. It did not beat the model in use, so Replay kept that.');
  return (
    <section className="optimiser" aria-labelledby="optimiser-title">
      <h3 id="optimiser-title">Your memory model</h3>
      <p className="hint">{status}</p>
      <ChartFigure
        title={title}
        summary={summary}
        legend={series}
        table={
          <DataTable
            caption={title}
            head={['Days later', ...(hasPersonal ? ['Your model'] : []), 'Default model']}
            rows={curve.map((p) => [p.days, ...(hasPersonal ? [pct(p.personal!)] : []), pct(p.defaults)])}
          />
        }
      >
        {(width, ids) => (
          <Lines
            xLabels={curve.map((p) => String(p.days))}
            series={series}
            width={width}
            labels={ids}
            title={title}
            summary={summary}
            yDomain={[0.4, 1]}
            yTicks={[0.4, 0.6, 0.8, 1]}
            format={(v) => `${Math.round(v * 100)} %`}
            height={160}
          />
        )}
      </ChartFigure>
      <p className="hint">
        Recall falls to 90 % after about {dayWhen(hasPersonal ? curve.map((p) => p.personal) : curve.map((p) => p.defaults), 0.9) ?? 60} days and to 80 % after
        about {dayWhen(hasPersonal ? curve.map((p) => p.personal) : curve.map((p) => p.defaults), 0.8) ?? 'over 60'} days (x axis: days after the first answer).
      </p>
    </section>
  );
}
