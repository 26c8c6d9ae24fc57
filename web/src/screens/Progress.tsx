import { useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { BarsFigure, CalendarHeatmap, ChartFigure, DataTable, Lines, StackedBars, type Series } from '../charts.tsx';
import { Link } from '../router.tsx';
import { LEDGER_KINDS } from '../ledger-kinds.ts';
import { APP_PATHS } from '../paths.ts';
import { trpc } from '../trpc.ts';
import { RetentionEffect } from './RetentionEffect.tsx';

/** The learner's time zone, sent with every read: the service counts days from 4 am in it. */
const timeZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
})();

/** `YYYY-MM-DD` as "12 Nov". */
const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10} %`);
const number = (n: number) => n.toLocaleString();
const minutes = (ms: number) => Math.round(ms / 6_000) / 10;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const RATINGS: readonly Series[] = [
  { name: 'Again', color: 'var(--r-again)' },
  { name: 'Hard', color: 'var(--r-hard)' },
  { name: 'Good', color: 'var(--r-good)' },
  { name: 'Easy', color: 'var(--r-easy)' },
];
/** The ledger kinds in the chart's order, each in its colour; their names are every screen's (ledger-kinds.ts). */
const KINDS = (
  [
    ['capture_preparation', 'var(--k-1)'],
    ['work', 'var(--k-2)'],
    ['audio', 'var(--k-3)'],
    ['page_translation', 'var(--k-4)'],
    ['sentence_translation', 'var(--k-5)'],
  ] as const
).map(([kind, color]) => [kind, LEDGER_KINDS[kind].name, color] as const);
const ONE = (name: string, color = 'var(--chart-1)'): Series[] => [{ name, color }];

/** Progress: what is due, how well the learner remembers, what it takes in time and credits. */
export default function Progress() {
  const input = { timeZone };
  const forecast = useQuery(trpc.progress.forecast.queryOptions(input));
  const reviews = useQuery(trpc.progress.reviews.queryOptions(input));
  const library = useQuery(trpc.progress.library.queryOptions(input));
  const credits = useQuery(trpc.progress.credits.queryOptions(input));
  const failed = [forecast, reviews, library, credits].some((q) => q.isError);
  return (
    <section className="panel progress" aria-labelledby="progress-title">
      <h1 id="progress-title" tabIndex={-1}>
        Progress
      </h1>
      <AtAGlance forecast={forecast.data} reviews={reviews.data} />
      {failed && (
        <p className="form-error" role="alert">
          Part of your progress could not be loaded. Reload the page in a moment.
        </p>
      )}
      <h2>What is due</h2>
      {forecast.data ? <ForecastChart forecast={forecast.data} /> : <Loading />}
      <h2>Reviews</h2>
      {reviews.data ? <ReviewCharts reviews={reviews.data} /> : <Loading />}
      <h2>How well you remember</h2>
      {reviews.data ? <RetentionCharts reviews={reviews.data} /> : <Loading />}
      <h2>Your library</h2>
      {library.data ? <LibraryCharts library={library.data} /> : <Loading />}
      <h2>Time in Replay</h2>
      {reviews.data ? <TimeChart reviews={reviews.data} /> : <Loading />}
      <h2>Credits</h2>
      {credits.data ? <CreditCharts credits={credits.data} /> : <Loading />}
      <h2>How much to remember</h2>
      <RetentionEffect />
      <p className="hint">
        Change it in{' '}
        <Link to={APP_PATHS.settings} className="link">
          Settings
        </Link>
        .
      </p>
    </section>
  );
}

const Loading = () => <p className="muted">Loading…</p>;

type Forecast = inferOutput<typeof trpc.progress.forecast>;
type Reviews = inferOutput<typeof trpc.progress.reviews>;
type Library = inferOutput<typeof trpc.progress.library>;
type Credits = inferOutput<typeof trpc.progress.credits>;

function AtAGlance({ forecast, reviews }: { forecast: Forecast | undefined; reviews: Reviews | undefined }) {
  if (!forecast || !reviews) return <p className="lead">Loading your progress…</p>;
  const dueToday = forecast.days[0]?.due ?? 0;
  const r = reviews.retention.last30Days.all;
  return (
    <ul className="glance">
      <li>
        <strong>{number(dueToday)}</strong> due today
      </li>
      <li>
        <strong>{reviews.streak}</strong> {reviews.streak === 1 ? 'day' : 'days'} in a row
      </li>
      <li>
        <strong>{percent(r)}</strong> remembered (30 days)
      </li>
    </ul>
  );
}

function ForecastChart({ forecast }: { forecast: Forecast }) {
  const total = sum(forecast.days.map((d) => d.due));
  const busiest = forecast.days.reduce((a, b) => (b.due > a.due ? b : a));
  const title = 'Reviews due in the next 30 days';
  const summary =
    total === 0
      ? 'Nothing falls due in the next 30 days.'
      : `${number(total)} reviews fall due in the next 30 days, ${number(forecast.days[0]!.due)} of them today; the busiest day is ` +
        `${dayLabel(busiest.date)} (${number(busiest.due)}).`;
  return (
    <BarsFigure
      title={title}
      summary={summary}
      head={['Day', 'Due']}
      rows={forecast.days.map((d) => [dayLabel(d.date), d.due])}
      data={forecast.days.map((d) => ({ label: dayLabel(d.date), values: [d.due] }))}
      series={ONE('Due')}
    />
  );
}

function ReviewCharts({ reviews }: { reviews: Reviews }) {
  const month = reviews.days.slice(-30);
  const counts = (d: Reviews['days'][number]) => [d.again, d.hard, d.good, d.easy];
  const monthTotal = sum(month.map((d) => sum(counts(d))));
  const busiest = month.reduce((a, b) => (sum(counts(b)) > sum(counts(a)) ? b : a));
  const title = 'Reviews per day, by rating (30 days)';
  const summary =
    monthTotal === 0
      ? 'No reviews in the last 30 days.'
      : `${number(monthTotal)} reviews in the last 30 days, most on ${dayLabel(busiest.date)} (${number(sum(counts(busiest)))}); ` +
        `${percent(sum(month.map((d) => d.again)) / monthTotal)} rated again.`;

  const year = reviews.days.map((d) => ({ date: d.date, count: sum(counts(d)) }));
  const active = year.filter((d) => d.count > 0).length;
  const heatTitle = 'Reviews over the year';
  const heatSummary = `You reviewed on ${active} of the last 365 days. Current streak: ${reviews.streak} ${reviews.streak === 1 ? 'day' : 'days'}.`;
  const byMonth = new Map<string, { reviews: number; days: number }>();
  for (const d of year) {
    const key = d.date.slice(0, 7);
    const m = byMonth.get(key) ?? { reviews: 0, days: 0 };
    byMonth.set(key, { reviews: m.reviews + d.count, days: m.days + (d.count > 0 ? 1 : 0) });
  }
  return (
    <>
      <ChartFigure
        title={title}
        summary={summary}
        legend={RATINGS}
        table={<DataTable caption={title} head={['Day', 'Again', 'Hard', 'Good', 'Easy']} rows={month.map((d) => [dayLabel(d.date), ...counts(d)])} />}
      >
        {(width, labels) => (
          <StackedBars
            data={month.map((d) => ({ label: dayLabel(d.date), values: counts(d) }))}
            series={RATINGS}
            width={width}
            labels={labels}
            title={title}
            summary={summary}
          />
        )}
      </ChartFigure>
      <ChartFigure
        title={heatTitle}
        summary={heatSummary}
        table={
          <DataTable
            caption={heatTitle}
            head={['Month', 'Reviews', 'Days with reviews']}
            rows={[...byMonth.entries()].map(([m, v]) => [
              new Date(`${m}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
              v.reviews,
              v.days,
            ])}
          />
        }
      >
        {(width, labels) => <CalendarHeatmap days={year} width={width} labels={labels} title={heatTitle} summary={heatSummary} />}
      </ChartFigure>
    </>
  );
}

function RetentionCharts({ reviews }: { reviews: Reviews }) {
  const weeks = reviews.weeklyRetention;
  const series = [
    { name: 'Young cards (1–20 days)', color: 'var(--r-good)', values: weeks.map((w) => w.young) },
    { name: 'Mature cards (21+ days)', color: 'var(--r-again)', dashed: true, values: weeks.map((w) => w.mature) },
  ];
  const { last7Days, last30Days, lastYear } = reviews.retention;
  // From 50 %, lower when a week fell below it.
  const lowest = Math.min(...weeks.flatMap((w) => [w.young, w.mature]).filter((v): v is number => v !== null));
  const floor = Math.min(0.5, Math.floor(lowest * 10) / 10);
  const title = 'True retention by week';
  const summary =
    lastYear.reviews === 0
      ? 'No reviews of cards seen on an earlier day yet: true retention shows once there are some.'
      : `Over the last 30 days you recalled ${percent(last30Days.young)} of young cards and ${percent(last30Days.mature)} of mature ones.`;
  const periods = [
    ['Last 7 days', last7Days],
    ['Last 30 days', last30Days],
    ['Last year', lastYear],
  ] as const;
  return (
    <>
      <DataTable
        caption="True retention by period"
        head={['Period', 'Young', 'Mature', 'All', 'Reviews']}
        rows={periods.map(([name, r]) => [name, percent(r.young), percent(r.mature), percent(r.all), number(r.reviews)])}
      />
      <p className="hint">The share of reviews recalled, counting only cards last seen on an earlier day, as Anki counts true retention.</p>
      <ChartFigure
        title={title}
        summary={summary}
        legend={series}
        table={
          <DataTable
            caption={title}
            head={['Week of', 'Young', 'Mature', 'Reviews']}
            rows={weeks.map((w) => [dayLabel(w.week), percent(w.young), percent(w.mature), number(w.reviews)])}
          />
        }
      >
        {(width, labels) => (
          <Lines
            xLabels={weeks.map((w) => dayLabel(w.week))}
            series={series}
            width={width}
            labels={labels}
            title={title}
            summary={summary}
            yDomain={[floor, 1]}
            yTicks={[floor, (floor + 1) / 2, 1]}
            format={(v) => `${Math.round(v * 100)} %`}
          />
        )}
      </ChartFigure>
    </>
  );
}

function LibraryCharts({ library }: { library: Library }) {
  const states = [
    ['New', library.states.new, 'var(--k-1)'],
    ['Learning', library.states.learning, 'var(--k-2)'],
    ['Review', library.states.review, 'var(--k-3)'],
    ['Relearning', library.states.relearning, 'var(--k-4)'],
  ] as const;
  const total = sum(states.map(([, n]) => n));
  const stateTitle = 'Your expressions by state';
  const stateSummary =
    total === 0 ? 'Your library is empty.' : states.map(([name, n]) => `${name.toLowerCase()} ${number(n)}`).join(', ') + ` (${number(total)} in all).`;
  const capturedTitle = 'Expressions captured per week';
  const captured = sum(library.capturesPerWeek.map((w) => w.captured));
  const capturedSummary = `${number(captured)} expressions captured in the last 26 weeks, ${number(library.capturesPerWeek.at(-1)?.captured ?? 0)} this week.`;
  return (
    <>
      <BarsFigure
        title={stateTitle}
        summary={stateSummary}
        head={['State', 'Expressions']}
        rows={states.map(([name, n]) => [name, n])}
        data={states.map(([name, n]) => ({ label: name, values: [n] }))}
        series={ONE('Expressions')}
        height={150}
      />
      <BarsFigure
        title={capturedTitle}
        summary={capturedSummary}
        head={['Week of', 'Captured']}
        rows={library.capturesPerWeek.map((w) => [dayLabel(w.week), w.captured])}
        data={library.capturesPerWeek.map((w) => ({ label: dayLabel(w.week), values: [w.captured] }))}
        series={ONE('Captured')}
      />
    </>
  );
}

function TimeChart({ reviews }: { reviews: Reviews }) {
  const month = reviews.days.slice(-30);
  const total = sum(month.map((d) => d.durationMs));
  const activeDays = month.filter((d) => d.timedReviews > 0).length;
  const title = 'Minutes in Replay per day (30 days)';
  const summary =
    total === 0
      ? 'No timed reviews in the last 30 days.'
      : `${number(minutes(total))} minutes in the last 30 days, ${number(minutes(total / Math.max(activeDays, 1)))} a day on the days you practised.`;
  return (
    <BarsFigure
      title={title}
      summary={summary}
      head={['Day', 'Minutes', 'Timed reviews']}
      rows={month.map((d) => [dayLabel(d.date), minutes(d.durationMs), d.timedReviews])}
      data={month.map((d) => ({ label: dayLabel(d.date), values: [minutes(d.durationMs)] }))}
      series={ONE('Minutes', 'var(--chart-2)')}
      whole={false}
    />
  );
}

function CreditCharts({ credits }: { credits: Credits }) {
  const series = KINDS.map(([, name, color]) => ({ name, color }));
  const values = (d: Credits['spentPerDay'][number]) => KINDS.map(([kind]) => d.byKind[kind]);
  const total = sum(credits.spentPerDay.map((d) => sum(values(d))));
  const byKind = KINDS.map(([kind, name]) => [name, sum(credits.spentPerDay.map((d) => d.byKind[kind]))] as const).filter(([, n]) => n > 0);
  const title = 'Credits spent per day, by kind (30 days)';
  const summary =
    total === 0
      ? 'No credits spent in the last 30 days.'
      : `${number(total)} credits spent in the last 30 days: ${byKind.map(([name, n]) => `${name.toLowerCase()} ${number(n)}`).join(', ')}.`;
  const balanceTitle = 'Balance over this period';
  const balanceSummary =
    `${number(credits.balance)} credits left; this period runs from ${new Date(credits.periodStart).toLocaleDateString()} to ` +
    `${new Date(credits.periodEnd).toLocaleDateString()}.`;
  const top = Math.max(1, ...credits.balanceOverPeriod.map((d) => d.balance));
  return (
    <>
      <ChartFigure
        title={title}
        summary={summary}
        legend={series}
        table={
          <DataTable
            caption={title}
            head={['Day', ...KINDS.map(([, name]) => name)]}
            rows={credits.spentPerDay.filter((d) => sum(values(d)) > 0).map((d) => [dayLabel(d.date), ...values(d)])}
          />
        }
      >
        {(width, labels) => (
          <StackedBars
            data={credits.spentPerDay.map((d) => ({ label: dayLabel(d.date), values: values(d) }))}
            series={series}
            width={width}
            labels={labels}
            title={title}
            summary={summary}
          />
        )}
      </ChartFigure>
      <ChartFigure
        title={balanceTitle}
        summary={balanceSummary}
        table={<DataTable caption={balanceTitle} head={['Day', 'Balance']} rows={credits.balanceOverPeriod.map((d) => [dayLabel(d.date), d.balance])} />}
      >
        {(width, labels) => (
          <Lines
            xLabels={credits.balanceOverPeriod.map((d) => dayLabel(d.date))}
            series={[{ name: 'Balance', color: 'var(--chart-1)', values: credits.balanceOverPeriod.map((d) => d.balance) }]}
            width={width}
            labels={labels}
            title={balanceTitle}
            summary={balanceSummary}
            yDomain={[0, top]}
            yTicks={[0, Math.round(top / 2), top]}
            format={number}
          />
        )}
      </ChartFigure>
    </>
  );
}
