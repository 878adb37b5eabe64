// `@form-embed/element/react`: <FormEmbed formId onSession onRemint onError onNotice />. The only
// entry that imports React; it registers <form-embed> as `define` does.
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import './define.js';
import type {
  FormEmbedErrorEvent,
  FormEmbedNoticeEvent,
  FormEmbedRemintEvent,
  FormEmbedSessionEvent,
} from './events.js';
import { FormEmbedElement } from './form-embed-element.js';

/**
 * `<form-embed>` as a React component: its properties as props (`formId`, `coreSlug`,
 * `endpoint`, `loading`, `frameTitle`, `messages`, `fetchSession`, `requestInit`,
 * `allowedEndpointOrigins`) and its events as `onSession`, `onRemint`, `onError` and `onNotice`.
 */
export const FormEmbed = createComponent({
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
