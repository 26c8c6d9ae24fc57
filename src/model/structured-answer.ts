import { AppError } from '../domain/problems.ts';
import { isRecord } from './exact-json.ts';
import type { ModelClientLogger, StructuredRequest, StructuredResult } from './model-client.ts';
import { answerObject } from './output-modes.ts';
import { recordProviderCost, type SpendReporter } from './provider-spend.ts';

/**
 * Why an answer was rejected (the `outputProblem` member of its problem). A refusal or an answer
 * cut off at its length limit will not get better by asking again; the others may.
 */
type OutputProblem = 'refused' | 'no_content' | 'cut_off' | 'not_json' | 'schema_violation';

/** What the model is shown when it is asked to repair its answer: what it said, and what was wrong (never logged). */
export interface Repairable {
  content: string;
  problems: string[];
}

type AnswerVerdict<T> = { ok: true; result: StructuredResult<T> } | { ok: false; error: AppError; repairable: Repairable | null };

/**
 * A chat completions answer, validated against the request's zod schema: the parsed data, or
 * `provider_output_invalid` naming the problem, with what a repair would show the model when
 * asking again may help. JSON wrapped in prose or a code fence is taken out of it. A rejected
 * answer's cost is still recorded (and reported as unbilled): the provider charged for it.
 */
export function judgedAnswer<T>(
  body: Record<string, unknown>,
  req: StructuredRequest<T>,
  costUsd: string,
  configuredModel: string,
  log: ModelClientLogger | undefined,
  spend: SpendReporter,
): AnswerVerdict<T> {
  const choice: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  recordProviderCost(req.task, costUsd);
  const invalid = (problem: OutputProblem, reason: string, repairable: Repairable | null = null): AnswerVerdict<T> => {
    log?.warn({ task: req.task, reason }, 'model output rejected');
    spend.recordUnbilled({ task: req.task, reason: 'invalid_output', costUsd });
    const error = new AppError('provider_output_invalid', `The model answer for ${req.task} was rejected: ${reason}`, { outputProblem: problem });
    return { ok: false, error, repairable };
  };

  if (typeof message?.content !== 'string' || message.content === '') {
    if (typeof message?.refusal === 'string') return invalid('refused', 'the model refused');
    return invalid('no_content', 'no content', { content: '', problems: ['the answer was empty'] });
  }
  const content = message.content;
  // An answer cut off at max_tokens is incomplete even where what arrived happens to parse.
  if (isRecord(choice) && choice.finish_reason === 'length') return invalid('cut_off', 'output cut off');
  const answer = answerObject(content);
  if (answer === undefined) return invalid('not_json', 'not JSON', { content, problems: ['it is not a JSON object'] });
  const result = req.schema.safeParse(answer);
  if (!result.success) {
    const at = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(root)');
    // Paths and issue codes only in the log and the stored reason: the answer may echo user content.
    // A custom issue's message is ours (a refinement's, which names ids and placeholders, never text): it says more than its code.
    const where = result.error.issues
      .slice(0, 5)
      .map((i) => `${at(i.path)}: ${i.code === 'custom' ? i.message : i.code}`)
      .join(', ');
    const problems = result.error.issues.map((i) => `${at(i.path)}: ${i.message}`);
    return invalid('schema_violation', `schema violation at ${where}`, { content, problems });
  }

  return {
    ok: true,
    result: {
      data: result.data,
      costUsd,
      model: typeof body.model === 'string' && body.model !== '' ? body.model : configuredModel,
      generationId: typeof body.id === 'string' ? body.id : null,
    },
  };
}
