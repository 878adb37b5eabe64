import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { z } from 'zod';
import {
  FORM_REF_MAX_LENGTH,
  type FormSessionUser,
  FormSessionUserSchema,
  formRefRefusal,
  isDotSegment,
  isKnownSessionErrorCode,
  isPortalErrorCode,
  isPublicAvailability,
  isValidFormRef,
  isWithdrawnForTenant,
  PortalErrorCodes,
} from '../src/index.js';

describe('form refs', () => {
  test('an empty value, . and .. are dot segments; anything else is not', () => {
    for (const value of ['', '.', '..']) assert.equal(isDotSegment(value), true, value);
    for (const value of ['...', 'a.', '.a', 'frm_1']) assert.equal(isDotSegment(value), false);
  });

  test(`a form id or slug may be at most ${FORM_REF_MAX_LENGTH} characters and not a dot segment`, () => {
    assert.equal(isValidFormRef('a'.repeat(FORM_REF_MAX_LENGTH)), true);
    assert.equal(isValidFormRef('a'.repeat(FORM_REF_MAX_LENGTH + 1)), false);
    assert.equal(isValidFormRef('..'), false);
    assert.equal(isValidFormRef('new-starter'), true);
  });
});

describe('form refs a server refuses to mint', () => {
  test('the contract’s rule, and path syntax a gateway that decodes paths would act on, each with its reason', () => {
    const refusals = [
      'new-starter',
      '',
      '..',
      'a'.repeat(201),
      'a/b',
      'a\\b',
      'a?b',
      'a#b',
      'a%2Fb',
    ].map((formId) => formRefRefusal({ kind: 'form', formId }));
    assert.deepEqual(refusals, [
      undefined,
      'The form id is not a valid path segment.',
      'The form id is not a valid path segment.',
      `The form id must be at most ${FORM_REF_MAX_LENGTH} characters.`,
      ...Array(5).fill('The form id must not contain /, \\, ?, # or %.'),
    ]);
    assert.equal(
      formRefRefusal({ kind: 'coreForm', slug: 'a/b' }),
      'The Core form slug must not contain /, \\, ?, # or %.',
    );
    // isValidFormRef, which the element uses, holds the contract's rule alone.
    assert.equal(isValidFormRef('a/b'), true);
  });
});

describe('Core form availability', () => {
  test('only public and both allow an embedded session', () => {
    assert.deepEqual(['disabled', 'internal', 'public', 'both', null].map(isPublicAvailability), [
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  const override = (enabled: boolean, availability: 'internal' | 'public' | null) => ({
    clientOverrides: [{ tenantId: 'AAAA-1', tenantName: 'Contoso', enabled, availability }],
  });

  test('a client override withdraws a form when disabled or not public; null inherits the base', () => {
    assert.equal(isWithdrawnForTenant(override(false, null), 'aaaa-1'), true);
    assert.equal(isWithdrawnForTenant(override(true, 'internal'), 'aaaa-1'), true);
    assert.equal(isWithdrawnForTenant(override(true, 'public'), 'aaaa-1'), false);
    assert.equal(isWithdrawnForTenant(override(true, null), 'aaaa-1'), false);
  });

  test("an override may leave out any of its fields (the contract marks none R): without enabled or availability it overrides nothing, without tenantId it is no client's", () => {
    const only = (fields: Record<string, unknown>) => ({ clientOverrides: [fields] });
    assert.equal(isWithdrawnForTenant(only({ tenantId: 'AAAA-1' }), 'aaaa-1'), false);
    assert.equal(
      isWithdrawnForTenant(only({ tenantId: 'AAAA-1', enabled: false }), 'aaaa-1'),
      true,
    );
    assert.equal(
      isWithdrawnForTenant(only({ tenantId: 'AAAA-1', availability: 'internal' }), 'aaaa-1'),
      true,
    );
    assert.equal(isWithdrawnForTenant(only({ enabled: false }), 'aaaa-1'), false);
  });

  test('an override applies only to its own tenant, whose id is compared without regard to case', () => {
    assert.equal(isWithdrawnForTenant(override(false, null), 'AAAA-1'), true);
    assert.equal(isWithdrawnForTenant(override(false, null), 'bbbb-2'), false);
  });
});

describe('portal codes', () => {
  test("sign_in_required is the portal's own 401, not retryable, and not a SessionError code of the service", () => {
    assert.deepEqual(PortalErrorCodes.sign_in_required, { status: 401, retryable: false });
    assert.equal(isPortalErrorCode('sign_in_required'), true);
    assert.equal(isKnownSessionErrorCode('sign_in_required'), false);
    assert.equal(isPortalErrorCode('toString'), false);
  });
});

// FormSessionUser is written out (its fields' docs reach a partner's editor, which the schema's
// inferred type would not carry): the typecheck holds it the same as what the schema parses.
test('FormSessionUser is exactly what FormSessionUserSchema parses', () => {
  // Identical, not only assignable both ways (an extra optional field would pass that).
  type Same<A, B> =
    (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
  const same: Same<FormSessionUser, z.infer<typeof FormSessionUserSchema>> = true;
  const user: FormSessionUser = FormSessionUserSchema.parse({ clientId: 'c' });
  assert.ok(same && user.clientId === 'c');
});
