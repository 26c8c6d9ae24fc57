import { plainReason, serviceClient, unreachable } from './service.ts';

/**
 * "Check connection": who the token belongs to, their languages and credits, or a plain reason
 * (the token refused, the languages not set, the service unreachable).
 */
export async function checkConnection(): Promise<{ ok: boolean; message: string }> {
  const { api, serviceUrl } = await serviceClient();
  try {
    const me = await api.GET('/api/me');
    if (!me.data) return { ok: false, message: plainReason(me.response.status, me.error).message };
    const { email, targetLanguage, nativeLanguage } = me.data;
    if (!targetLanguage || !nativeLanguage)
      return { ok: false, message: `Connected as ${email}, but your languages are not set yet. ${plainReason(428).message}` };
    const credits = await api.GET('/api/credits');
    const balance = credits.data ? `${credits.data.balance.toLocaleString('en')} credits left` : 'credits unknown';
    return {
      ok: true,
      message: `Connected as ${email}. Learning ${languageName(targetLanguage)}, translating into ${languageName(nativeLanguage)}. ${balance}.`,
    };
  } catch {
    return { ok: false, message: unreachable(serviceUrl).message };
  }
}

function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
