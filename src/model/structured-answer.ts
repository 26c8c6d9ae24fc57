import { AppError } from '../domain/problems.ts';
import { isRecord } from './exact-json.ts';
import type { ModelClientLogger, StructuredRequest, StructuredResult } from './model-client.ts';
import { reportedCostUsd } from './provider-cost.ts';
import { recordProviderCost, type SpendReporter } from './provider-spend.ts';

/**
 * Why an answer was rejected (the `outputProblem` member of its problem). A refusal or an answer
 * cut off at its length limit will not get better by asking again; the others may.
 */
type OutputProblem = 'refused' | 'no_content' | 'cut_off' | 'not_json' | 'schema_violation';

/**
 * A chat completions answer, validated against the request's zod schema: the parsed data and
 * the provider's cost, or `provider_output_invalid` naming the problem. A rejected answer's cost
 * is still recorded (and reported as unbilled): the provider charged for it.
 */
export function validatedAnswer<T>(
  body: Record<string, unknown>,
  req: StructuredRequest<T>,
  configuredModel: string,
  log: ModelClientLogger | undefined,
  spend: SpendReporter,
): StructuredResult<T> {
  const choice: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  const costUsd = reportedCostUsd(body.usage, req.task, log);
  recordProviderCost(req.task, costUsd);
  const invalid = (problem: OutputProblem, reason: string) => {
    log?.warn({ task: req.task, reason }, 'model output rejected');
    spend.recordUnbilled({ task: req.task, reason: 'invalid_output', costUsd });
    return new AppError('provider_output_invalid', `The model answer for ${req.task} was rejected: ${reason}`, { outputProblem: problem });
  };

  if (typeof message?.content !== 'string' || message.content === '') {
    throw typeof message?.refusal === 'string' ? invalid('refused', 'the model refused') : invalid('no_content', 'no content');
  }
  // An answer cut off at max_tokens is incomplete even where what arrived happens to parse.
  if (isRecord(choice) && choice.finish_reason === 'length') throw invalid('cut_off', 'output cut off');
  let answer: unknown;
  try {
    answer = JSON.parse(message.content);
  } catch {
    throw invalid('not_json', 'not JSON');
  }
  const result = req.schema.safeParse(answer);
  if (!result.success) {
    // Paths and issue codes only: the answer may echo user content.
    const where = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.code}`)
      .join(', ');
    throw invalid('schema_violation', `schema violation at ${where}`);
  }

  return {
    data: result.data,
    costUsd,
    model: typeof body.model === 'string' ? body.model : configuredModel,
    generationId: typeof body.id === 'string' ? body.id : null,
  };
}
