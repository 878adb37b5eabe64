// `@form-embed/element/react`: <FormEmbed formId onSession onRemint onError onNotice />. The only
// entry that imports React. It registers <form-embed> when the first <FormEmbed> mounts.
// A client module for React Server Components (Next.js's App Router): a Server Component page
// can render <FormEmbed> as it is, instead of failing on the hooks below.
'use client';

import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type {
  FormEmbedErrorEvent,
  FormEmbedNoticeEvent,
  FormEmbedRemintEvent,
  FormEmbedSessionEvent,
} from './events.js';
import { FormEmbedElement } from './form-embed-element.js';

// `@lit/react` sets as properties the props it finds on the class's prototype; Lit puts its
// accessors there when it finalizes the class, which registering would do only later.
void FormEmbedElement.observedAttributes;

const Wrapped = createComponent({
  react: React,
  tagName: 'form-embed',
  elementClass: FormEmbedElement,
  displayName: 'FormEmbed',
  events: {
    onSession: 'form-embed-session' as EventName<FormEmbedSessionEvent>,
    onRemint: 'form-embed-remint' as EventName<FormEmbedRemintEvent>,
    onError: 'form-embed-error' as EventName<FormEmbedErrorEvent>,
    onNotice: 'form-embed-notice' as EventName<FormEmbedNoticeEvent>,
  },
});

/** What `<FormEmbed>` takes: the element's settable properties, its events, and HTML attributes. */
export type FormEmbedProps = Partial<
  Pick<
    FormEmbedElement,
    | 'formId'
    | 'coreSlug'
    | 'endpoint'
    | 'loading'
    | 'frameTitle'
    | 'messages'
    | 'fetchSession'
    | 'requestInit'
    | 'allowedEndpointOrigins'
  >
> &
  Omit<React.HTMLAttributes<FormEmbedElement>, 'onError'> & {
    /** `form-embed-session`: a session was framed. */
    onSession?: (event: FormEmbedSessionEvent) => void;
    /** `form-embed-remint`: the framed page asked for a new session (cancelable). */
    onRemint?: (event: FormEmbedRemintEvent) => void;
    /** `form-embed-error`: a mint failed, retried or not (`willRetry`). */
    onError?: (event: FormEmbedErrorEvent) => void;
    /** `form-embed-notice`: the lapse notice is about to show (cancelable). */
    onNotice?: (event: FormEmbedNoticeEvent) => void;
  };

// A server has no layout effects, and React 18 warns of one there.
const useClientLayoutEffect = typeof document === 'undefined' ? () => {} : React.useLayoutEffect;
const subscribeToNothing = () => () => {};
const onTheClient = () => true;
const onTheServer = () => false;

/**
 * `<form-embed>` as a React component: its properties as props (`formId`, `coreSlug`,
 * `endpoint`, `loading`, `frameTitle`, `messages`, `fetchSession`, `requestInit`,
 * `allowedEndpointOrigins`) and its events as `onSession`, `onRemint`, `onError` and `onNotice`.
 *
 * Rendered on the client only: on a server, and while hydrating, it renders nothing. A
 * server-rendered tag would be upgraded by the first one to register the element, before its
 * own hydration had given it its form (inside a `<Suspense>` boundary not yet hydrated, say).
 * The tag is registered in the first one's layout effect, after `@lit/react` has set its props,
 * and a ref receives the registered element.
 */
export const FormEmbed: React.ForwardRefExoticComponent<
  FormEmbedProps & React.RefAttributes<FormEmbedElement>
> = React.forwardRef<FormEmbedElement, FormEmbedProps>((props, ref) => {
  const client = React.useSyncExternalStore(subscribeToNothing, onTheClient, onTheServer);
  const element = React.useRef<FormEmbedElement>(null);
  useClientLayoutEffect(() => {
    if (client) FormEmbedElement.define();
  }, [client]);
  // After the registration above, so that a ref never sees the element before its upgrade.
  React.useImperativeHandle(ref, () => (client ? element.current : null) as FormEmbedElement, [
    client,
  ]);
  return client ? React.createElement(Wrapped, { ...props, ref: element }) : null;
});
FormEmbed.displayName = 'FormEmbed';

declare global {
  interface HTMLElementTagNameMap {
    'form-embed': FormEmbedElement;
  }
}
