// <FormEmbed> as the element's README (React 18 and 19) writes it, typed by React 18's types. The
// lines marked to expect an error are misuses that must stay errors.
import { messages as english, type FormEmbedElement } from '@form-embed/element';
import de from '@form-embed/element/locales/de';
import { FormEmbed, type FormEmbedProps } from '@form-embed/element/react';
import { type ReactChild, useRef } from 'react';

// React 18's types, not the element's React 19's, which have no ReactChild.
export type OnReact18 = ReactChild;

export function ItRequest({ lang, signOut }: { lang: 'en' | 'de'; signOut: () => Promise<void> }) {
  const form = useRef<FormEmbedElement>(null);
  const onSignOut = async () => {
    await signOut();
    form.current?.remint();
  };
  return (
    <>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
      <FormEmbed
        key="user-1"
        ref={form}
        formId="frm_123"
        lang={lang}
        messages={lang === 'de' ? de : english}
        requestInit={{ headers: { 'X-CSRF-Token': 't' } }}
        allowedEndpointOrigins={['https://api.portal.example']}
        fetchSession={async () => ({
          embedUrl: '',
          embedOrigin: '',
          provider: 'none',
          expiresIn: 0,
        })}
        onSession={(event) => event.provider}
        onError={(event) => event.code}
        onRemint={(event) => event.reason}
        onNotice={(event) => event.preventDefault()}
      />
    </>
  );
}

export const props: FormEmbedProps = { formId: 'frm_123' };
// @ts-expect-error: a misspelt prop
export const misspelt = <FormEmbed formID="frm_123" />;
// @ts-expect-error: not a loading value
export const loading = <FormEmbed formId="frm_123" loading="soon" />;
// @ts-expect-error: onNotice hears a FormEmbedNoticeEvent
export const notice = <FormEmbed formId="frm_123" onNotice={(event: KeyboardEvent) => event.key} />;
export const divRef = { current: null as HTMLDivElement | null };
// @ts-expect-error: a ref to another element
export const wrongRef = <FormEmbed formId="frm_123" ref={divRef} />;
