import { AppError } from '../domain/problems.ts';
import { MODEL_NAME_MAX_LENGTH } from '../domain/model-budget.ts';
import { isRecord } from './exact-json.ts';
import type { ProviderHttp } from './provider-http.ts';

/**
 * The model of the deployment's own endpoint when MODEL_NAME is not set: the one model its
 * `GET /models` lists, as llama.cpp's server, LM Studio with one model loaded and vLLM list theirs.
 * An endpoint that lists several (Ollama with several pulled) or none cannot be guessed: the
 * deployment must name one, and the message says which it serves. Any failure is
 * `service_unavailable`, so background work waits for it as for an endpoint that is down.
 */
export async function endpointModel(http: Pick<ProviderHttp, 'get'>): Promise<string> {
  let answer: { status: number; body: unknown };
  try {
    answer = await http.get('/models');
  } catch {
    throw new AppError('service_unavailable', 'The model endpoint could not be reached to ask which model it serves');
  }
  const { status, body } = answer;
  if (status < 200 || status > 299) throw new AppError('service_unavailable', `The model endpoint answered ${status} to GET /models: set MODEL_NAME`);
  const listed = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  const names = listed
    .map((model: unknown) => (isRecord(model) && typeof model.id === 'string' ? model.id.trim() : ''))
    .filter((name) => name !== '' && name.length <= MODEL_NAME_MAX_LENGTH);
  if (names.length === 1) return names[0]!;
  throw new AppError(
    'service_unavailable',
    names.length === 0
      ? 'The model endpoint lists no model: set MODEL_NAME'
      : `The model endpoint serves ${names.length} models (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}): set MODEL_NAME to one of them`,
  );
}
