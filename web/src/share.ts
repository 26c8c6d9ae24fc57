// What another app's share sheet sent (the manifest's share_target: GET /capture?title=&text=&url=),
// and keeping it through sign-in: a signed-out share is held in this tab's session storage until
// the learner is in, then opened again.

export interface Share {
  text: string;
  title: string;
  url: string;
}

const LINK = /\bhttps?:\/\/\S+/i;

/** The shared fields; a link inside the text (as some apps share "title https://…") is taken out of it. */
export function readShare(search: string): Share {
  const params = new URLSearchParams(search);
  let text = (params.get('text') ?? '').trim();
  let url = (params.get('url') ?? '').trim();
  const inText = LINK.exec(text);
  if (inText) {
    url ||= inText[0];
    text = text.replace(inText[0], '').replace(/\s+/g, ' ').trim();
  }
  if (!URL.canParse(url)) url = '';
  return { text, title: (params.get('title') ?? '').trim(), url };
}

const KEPT = 'lcs.share';

export const keepShareThroughSignIn = (search: string) => sessionStorage.setItem(KEPT, search);

/** The share kept before sign-in, once: its address in the app. */
export function takeKeptShare(): string | null {
  const search = sessionStorage.getItem(KEPT);
  sessionStorage.removeItem(KEPT);
  return search;
}
