/**
 * `h('button', { class: 'primary', onclick }, 'Save')`: an element with attributes, listeners
 * (`on…`) and children. Text children are text nodes, so user content is never parsed as HTML.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'value') element.value = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

export const byId = (id) => document.getElementById(id);

/** Shows one element of a group and hides the rest. */
export function showOnly(visible, ...all) {
  for (const element of all) element.hidden = element !== visible;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export const formatDateTime = (iso) => dateFormat.format(new Date(iso));
export const formatDay = (iso) => dayFormat.format(new Date(iso));

/** "in 3 days", "in 10 minutes": the largest unit that fits. */
export function fromNow(iso, now = Date.now()) {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  const units = [['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    // 59.6 s reads better as "in 1 minute" than as "in 60 seconds".
    if (Math.abs(seconds) >= size * 0.9) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds), 'second');
}

/** Code points, not UTF-16 units: the service's masks are counted in code points. */
export const codePoints = (text) => Array.from(text);

/** Disables a form's controls while `work` runs, so a double click sends one request. */
export async function busy(form, work) {
  const controls = [...form.querySelectorAll('button, input, select')].filter((c) => !c.disabled);
  controls.forEach((c) => { c.disabled = true; });
  form.setAttribute('aria-busy', 'true');
  try {
    await work();
  } finally {
    controls.forEach((c) => { c.disabled = false; });
    form.removeAttribute('aria-busy');
  }
}
