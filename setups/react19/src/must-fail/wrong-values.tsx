// Each misuse below must fail to type-check: the setup expects an error on each marked line, and
// no error anywhere else in the project.
import '@form-embed/element/react-jsx';
import { FormEmbed } from '@form-embed/element/react';

export const rawTag = <form-embed form-id="form_microsoft" loading="soon" />; // must-fail: raw loading
export const wrapper = <FormEmbed formId="form_microsoft" loading="soon" />; // must-fail: wrapper loading
export const handler = (
  <form-embed form-id="form_microsoft" onform-embed-session={(event: KeyboardEvent) => event.key} /> // must-fail: raw event type
);
export const rawMessages = <form-embed form-id="form_microsoft" messages={{ frame: 1 }} />; // must-fail: raw messages
export const rawOrigins = (
  <form-embed form-id="form_microsoft" allowedEndpointOrigins="https://a.example" /> // must-fail: raw origins
);
export const notice = (
  <FormEmbed formId="form_microsoft" onNotice={(event: KeyboardEvent) => event.key} /> // must-fail: wrapper notice type
);
