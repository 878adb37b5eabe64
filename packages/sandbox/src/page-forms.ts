/** The form a framed page shows, found by the id in its path, and the session it belongs to. */
import type { FormTarget } from '@form-embed/protocol';
import { coreForms, forms, otherOrganisationForms } from './fixtures.js';
import { coreFormPath, designerFormPath } from './resources.js';
import type { SandboxState } from './sandbox-state.js';
import type { FormSessionRecord } from './session-store.js';

/** An embed origin by the forms it serves: `forms` (designer) or `coreForms`. */
export type EmbedOriginKind = 'forms' | 'coreForms';

export interface PageForm {
  name: string;
  target: FormTarget;
  basePath: string;
  anonymousAllowed: boolean;
}

/** The designer form (on `formsOrigin`) or Core form (on `coreFormsOrigin`) with this id. */
export function findPageForm(kind: EmbedOriginKind, id: string): PageForm | undefined {
  if (kind === 'forms') {
    const form = [...forms, ...otherOrganisationForms].find((f) => f.id === id);
    return (
      form && {
        name: form.name,
        target: { kind: 'form', formId: form.id },
        basePath: designerFormPath(form.id),
        anonymousAllowed: form.authType === 'none',
      }
    );
  }
  const form = coreForms.find((f) => f.slug === id);
  return (
    form && {
      name: form.name,
      target: { kind: 'coreForm', slug: form.slug },
      basePath: coreFormPath(form.slug),
      anonymousAllowed: false,
    }
  );
}

/** The session with this id, if it was minted for `form`. */
export function sessionOf(
  state: SandboxState,
  form: PageForm,
  sessionId: string,
): FormSessionRecord | undefined {
  const session = state.sessions.session(sessionId);
  return session && sameTarget(session.target, form.target) ? session : undefined;
}

export function sameTarget(a: FormTarget, b: FormTarget): boolean {
  return a.kind === 'form' && b.kind === 'form'
    ? a.formId === b.formId
    : a.kind === 'coreForm' && b.kind === 'coreForm' && a.slug === b.slug;
}
