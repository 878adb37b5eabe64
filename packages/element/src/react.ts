// `@form-embed/element/react`: <FormEmbed formId onSession onRemint onError onNotice />. The only
// entry that imports React. It registers <form-embed> when the first <FormEmbed> mounts.
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

// A server has no layout effects, and React 18 warns of one there.
const useClientLayoutEffect = typeof document === 'undefined' ? () => {} : React.useLayoutEffect;

/**
 * `<form-embed>` as a React component: its properties as props (`formId`, `coreSlug`,
 * `endpoint`, `loading`, `frameTitle`, `messages`, `fetchSession`, `requestInit`,
 * `allowedEndpointOrigins`) and its events as `onSession`, `onRemint`, `onError` and `onNotice`.
 *
 * The tag is registered in the first one's layout effect, after `@lit/react` has set its props:
 * a server-rendered `<form-embed>` stays inert until hydration gives it its form, transport and
 * listeners, and mints once, with all of them.
 */
export const FormEmbed: typeof Wrapped = React.forwardRef<
  FormEmbedElement,
  React.ComponentPropsWithoutRef<typeof Wrapped>
>((props, ref) => {
  useClientLayoutEffect(() => {
    FormEmbedElement.define();
  }, []);
  return React.createElement(Wrapped, { ...props, ref });
});
FormEmbed.displayName = 'FormEmbed';
