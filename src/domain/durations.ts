const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `1h`, `24h`, `7d` → milliseconds; null for anything else. For operators' `--since`. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : null;
}
