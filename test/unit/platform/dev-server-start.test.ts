import { describe, expect, it } from 'vitest';
import { startFailure } from '../../../src/platform/temporal-dev-server.ts';

describe('startFailure: why the Temporal dev server did not start, in one line', () => {
  it("takes the CLI's own error line and the port it found taken", () => {
    const failure = startFailure("Error: can't set frontend HTTP port 47311: listen tcp 127.0.0.1:47311: bind: address already in use\n", 'exited');
    expect(failure.message).toBe(
      "Temporal dev server did not start: can't set frontend HTTP port 47311: listen tcp 127.0.0.1:47311: bind: address already in use",
    );
    expect(failure.takenPort).toBe(47311);
  });

  it('reduces a Go panic with its stack to the panic line', () => {
    const output = [
      'time=2026-11-22T10:11:12.123Z level=ERROR msg="failed listening for HTTP API on 127.0.0.1:40123: address already in use"',
      'panic: failed listening for HTTP API on 127.0.0.1:40123: listen tcp 127.0.0.1:40123: bind: address already in use',
      '',
      'goroutine 1 [running]:',
      'go.temporal.io/server/temporal.(*ServerImpl).Start(0xc000a1c000)',
      '\t/home/runner/go/pkg/mod/go.temporal.io/server@v1.29.0/temporal/server_impl.go:123 +0x1a',
    ].join('\n');
    const failure = startFailure(output, 'exited');
    expect(failure.message).toBe(
      'Temporal dev server did not start: failed listening for HTTP API on 127.0.0.1:40123: listen tcp 127.0.0.1:40123: bind: address already in use',
    );
    expect(failure.message).not.toContain('\n');
    expect(failure.takenPort).toBe(40123);
  });

  it('says something useful when the output names no port', () => {
    expect(startFailure('', 'exited during start-up (code 1)')).toMatchObject({
      message: 'Temporal dev server did not start: exited during start-up (code 1)',
      takenPort: null,
    });
    expect(startFailure('starting\nsqlite: unable to open database file\n', 'x').message).toBe(
      'Temporal dev server did not start: sqlite: unable to open database file',
    );
  });
});
