import { describe, expect, it, vi } from 'vitest';
import { type Dependency, supervise } from '../../../src/platform/supervisor.ts';

/** A dependency whose death the test decides. */
function dependency(pid: number) {
  let die!: () => void;
  const exited = new Promise<void>((resolve) => {
    die = resolve;
  });
  const dep: Dependency & { die(): void; stopped: boolean } = {
    pid,
    exited,
    die,
    stopped: false,
    async stop() {
      dep.stopped = true;
      die();
    },
  };
  return dep;
}

const policy = { initialDelayMs: 1, maxDelayMs: 4, stableAfterMs: 60_000, maxFailures: 3 };
const quiet = () => ({ error: vi.fn(), warn: vi.fn() });

describe('supervise', () => {
  it('restarts a dependency that died, logging it as an error, and stops it for good on request', async () => {
    const logger = quiet();
    const first = dependency(1);
    const second = dependency(2);
    const restart = vi.fn(async () => second);
    const supervised = supervise({ name: 'thing', first, restart, logger, giveUp: () => expect.fail('gave up'), policy });
    first.die();
    await vi.waitFor(() => expect(supervised.current()).toBe(second));
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ dependency: 'thing', pid: 1 }), 'thing exited unexpectedly; restarting it');
    expect(logger.warn).toHaveBeenCalledWith({ dependency: 'thing', pid: 2 }, 'thing restarted');
    await supervised.stop();
    expect(second.stopped).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(restart).toHaveBeenCalledTimes(1);
  });

  it('once released for a shutdown, lets the dependency exit without a restart or an error line', async () => {
    const logger = quiet();
    const first = dependency(1);
    const restart = vi.fn(async () => dependency(2));
    const supervised = supervise({ name: 'thing', first, restart, logger, giveUp: () => expect.fail('gave up'), policy });
    supervised.release();
    first.die();
    await new Promise((r) => setTimeout(r, 20));
    expect(restart).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
    expect(supervised.current()).toBe(first);
  });

  it('gives up after too many failures in a row, so the process can exit for its own supervisor', async () => {
    const giveUp = vi.fn();
    const first = dependency(1);
    const restart = vi.fn(async () => {
      throw new Error('port taken');
    });
    supervise({ name: 'thing', first, restart, logger: quiet(), giveUp, policy });
    first.die();
    await vi.waitFor(() => expect(giveUp).toHaveBeenCalledOnce());
    expect(restart).toHaveBeenCalledTimes(policy.maxFailures);
    expect(giveUp.mock.calls[0]![0].message).toContain('could not be kept running');
  });

  it('counts a dependency that dies again soon after its restart as a failure in a row', async () => {
    const giveUp = vi.fn();
    const deps = [1, 2, 3, 4, 5].map(dependency);
    let next = 1;
    const restart = vi.fn(async () => {
      const dep = deps[next++]!;
      setTimeout(() => dep.die(), 1);
      return dep;
    });
    supervise({ name: 'thing', first: deps[0]!, restart, logger: quiet(), giveUp, policy });
    deps[0]!.die();
    await vi.waitFor(() => expect(giveUp).toHaveBeenCalledOnce());
    expect(restart).toHaveBeenCalledTimes(policy.maxFailures);
  });
});
