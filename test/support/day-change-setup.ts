import { beforeEach, vi } from 'vitest';
import { dayChangeTime, lastInstantAt } from './learner-clock.ts';

// The day-change projects' setup file: the file's hooks and each of its tests start with this process's
// clock (Node's Date only: timers stay real) at LCS_DAY_CHANGE_AT in the far zone, and it runs on from
// there. The API and the worker run in this process, so the service's "now" is the test's; PostgreSQL's
// now() stays real, ahead by less than a day. Each test goes back by at most the length of the one
// before, which the stack's in-memory rate limits (100,000 a period in tests) do not notice.
if (dayChangeTime !== undefined) {
  const time = dayChangeTime;
  const at = () => lastInstantAt(time, vi.getRealSystemTime());
  vi.useFakeTimers({ toFake: ['Date'], now: at(), shouldAdvanceTime: true });
  beforeEach(() => {
    vi.setSystemTime(at());
  });
}
