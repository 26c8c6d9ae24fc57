import { APP_PATHS, type AppPath } from '../../src/domain/app-paths.ts';

export { APP_PATHS };

/** The route `pathname` is at, with its parameters, or null for an address the app does not have. */
export function matchPath(pathname: string): { path: AppPath; params: Record<string, string> } | null {
  for (const path of Object.values(APP_PATHS)) {
    const pattern = path.split('/');
    const parts = pathname.replace(/\/+$/, '').split('/');
    if (path === '/' && pathname === '/') return { path, params: {} };
    if (pattern.length !== parts.length || path === '/') continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((segment, i) => {
      if (segment.startsWith(':')) return (params[segment.slice(1)] = decodeURIComponent(parts[i]!)) !== '';
      return segment === parts[i];
    });
    if (fits) return { path, params };
  }
  return null;
}
