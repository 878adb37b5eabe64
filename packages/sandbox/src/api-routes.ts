import { defaultServicePaths } from '@form-embed/protocol';

export type RouteName = keyof typeof defaultServicePaths;

export interface MatchedRoute {
  name: RouteName;
  /** `METHOD /path/template`, the key of `control.stats()`. */
  key: string;
  params: Record<string, string>;
}

const methods: Record<RouteName, 'GET' | 'POST'> = {
  me: 'GET',
  forms: 'GET',
  clients: 'GET',
  client: 'GET',
  coreForms: 'GET',
  coreForm: 'GET',
  formSession: 'POST',
  coreFormSession: 'POST',
  openapi: 'GET',
};

const compiled = (Object.keys(defaultServicePaths) as RouteName[]).map((name) => {
  const template = defaultServicePaths[name];
  const names: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param?.[1]) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('');
  return { name, method: methods[name], template, names, pattern: new RegExp(`^${source}$`) };
});

/** The routes the sandbox serves, matched on the templates of `defaultServicePaths`. */
export function matchRoute(method: string, path: string): MatchedRoute | undefined {
  for (const route of compiled) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      route.names.forEach((n, i) => {
        params[n] = decodeURIComponent(match[i + 1] ?? '');
      });
    } catch {
      return undefined;
    }
    return { name: route.name, key: `${method} ${route.template}`, params };
  }
  return undefined;
}

export function isFormSessionRoute(name: RouteName): boolean {
  return name === 'formSession' || name === 'coreFormSession';
}
