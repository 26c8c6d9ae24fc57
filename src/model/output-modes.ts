import { isRecord } from './exact-json.ts';

/**
 * How a request asks for structured output, best first. Not every OpenAI-compatible server takes
 * every way: some refuse a strict `json_schema` (HTTP 400), LM Studio refuses `json_object`. The
 * model client tries them in this order and remembers per endpoint and model what worked
 * (OutputModeMemory); below `json_schema` the schema travels in the system message and only the
 * validator holds the answer to it.
 */
export type OutputMode = 'json_schema' | 'json_object' | 'text';

export const OUTPUT_MODES: readonly OutputMode[] = ['json_schema', 'json_object', 'text'];

/** The next weaker way, or null after plain text. */
export const weakerMode = (mode: OutputMode): OutputMode | null => OUTPUT_MODES[OUTPUT_MODES.indexOf(mode) + 1] ?? null;

/**
 * What every process knows of the endpoint's structured output: the mode that last worked for
 * its model. `remember` is called only after an answer came back in that mode.
 */
export interface OutputModeMemory {
  recall(): Promise<OutputMode | null>;
  remember(mode: OutputMode): Promise<void>;
}

/** One process's memory, for callers without a database (unit tests, one-off clients). */
export function inProcessOutputModes(): OutputModeMemory {
  let known: OutputMode | null = null;
  return {
    recall: async () => known,
    remember: async (mode) => {
      known = mode;
    },
  };
}

/**
 * The `response_format` member of a request in this mode (none in plain text). `json_object`
 * carries the schema too: llama.cpp's server and llama-cpp-python's, which refuse `json_schema`,
 * hold the answer to a `schema` member there with a grammar; without one a small model's answer
 * is `{}` (npm run test:local-model found it). Servers that do not know the member ignore it.
 */
export function responseFormat(mode: OutputMode, task: string, schema: Record<string, unknown>): Record<string, unknown> | undefined {
  if (mode === 'json_schema') return { type: 'json_schema', json_schema: { name: task, strict: true, schema } };
  if (mode === 'json_object') return { type: 'json_object', schema };
  return undefined;
}

/**
 * The system message's addition where the endpoint does not enforce the schema: the task's name
 * and the schema itself, for the model to follow (and the fake provider to recognise the task by).
 */
export function schemaInstructions(task: string, schema: Record<string, unknown>): string {
  return [
    '',
    `Answer for the task \`${task}\` with one JSON object and nothing else: no prose, no code fence.`,
    'It must match this JSON Schema:',
    JSON.stringify(schema),
  ].join('\n');
}

/** The task named by `schemaInstructions` in a system message, and its schema (for the fake provider). */
export function instructedTask(system: string): { task: string; schema: unknown } | null {
  const match = /for the task `([a-z0-9_]+)` with one JSON object[^\n]*\nIt must match this JSON Schema:\n(.+)$/s.exec(system);
  if (!match) return null;
  try {
    return { task: match[1]!, schema: JSON.parse(match[2]!) };
  } catch {
    return null;
  }
}

/**
 * The JSON object of an answer: the content itself, or the one inside a code fence, or the
 * outermost `{…}` of an answer that wraps it in prose. Undefined when there is none.
 */
export function answerObject(content: string): unknown {
  const candidates = [content, /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(content)?.[1], outermostBraces(content)];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (isRecord(parsed)) return parsed;
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

function outermostBraces(text: string): string | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start !== -1 && end > start ? text.slice(start, end + 1) : undefined;
}

/** The longest repair note, in UTF-8 bytes: it bounds what a repair adds to a request (and so to its cost ceiling). */
export const REPAIR_NOTE_MAX_BYTES = 1_000;

/** The user message that asks again, showing the model what was wrong with its answer. */
export function repairNote(problems: readonly string[]): string {
  const note = [
    'Your answer is not valid:',
    ...problems.slice(0, 8).map((p) => `- ${p.slice(0, 160)}`),
    'Answer again with only the corrected JSON object.',
  ].join('\n');
  const bytes = Buffer.from(note, 'utf8');
  // Cut at a character boundary: a partial character would decode to U+FFFD, three bytes of its own.
  return bytes.length <= REPAIR_NOTE_MAX_BYTES
    ? note
    : bytes
        .subarray(0, REPAIR_NOTE_MAX_BYTES - 3)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}
