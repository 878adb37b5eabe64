// The console's list of forms, from the Router's catalogue (GET /form-sessions/forms).
import type { Catalogue } from '@form-embed/protocol/browser';

const signInKinds: Record<string, string> = {
  microsoft: 'Microsoft sign-in',
  google: 'Google sign-in',
  none: 'No sign-in',
};

/** The catalogue's forms as the options of `select`, grouped by the kind of sign-in. */
export function listForms(select: HTMLSelectElement, forms: Catalogue['forms']): void {
  // The kind of form heads a group of options, so that each option (and the side panel) holds
  // the form's name alone.
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const entry of forms) {
    const value = entry.kind === 'form' ? `form:${entry.formId}` : `core:${entry.slug}`;
    // An authType newer than this release is passed on as the service named it.
    const kind =
      entry.kind === 'form'
        ? (signInKinds[entry.authType] ?? `${entry.authType} sign-in`)
        : 'Core forms';
    let group = groups.get(kind);
    if (!group) {
      group = document.createElement('optgroup');
      group.label = kind;
      groups.set(kind, group);
      select.append(group);
    }
    group.append(new Option(entry.name, value));
  }
}
