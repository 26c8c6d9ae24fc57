import { ask, type Link } from '../shared/messages.ts';
import type { ToastAction } from './ui.ts';

const LABELS: Record<Link, string> = { options: 'Open options', settings: 'Set your languages', credits: 'Credits' };

// The button that leads to where a failure is fixed (the options, the web app's settings or credits), if there is one.
export const linkActions = (link: Link | undefined): ToastAction[] => (link ? [{ label: LABELS[link], run: () => void ask({ type: 'open', link }) }] : []);
