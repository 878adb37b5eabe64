// A Vite page (TypeScript, moduleResolution bundler): one import registers <form-embed>, one
// import from the element's main entry brings the types a page needs to handle failures, and a
// locale pack words its messages in German.
import '@form-embed/element/define';
import {
  FormEmbedElement,
  type FormEmbedErrorEvent,
  FormSessionError,
  type SessionErrorCode,
} from '@form-embed/element';
import de from '@form-embed/element/locales/de';

// Every element's messages, the frame's default title among them.
FormEmbedElement.messages = de;

const embed = document.querySelector('form-embed');
if (!embed) throw new Error('no <form-embed> on the page');
const output = document.querySelector<HTMLOutputElement>('#session');

embed.addEventListener('form-embed-session', (event) => {
  if (output) output.value = `${event.provider} session on ${event.embedOrigin}`;
});
embed.addEventListener('form-embed-error', (event: FormEmbedErrorEvent) => {
  const code: SessionErrorCode = event.code;
  if (output) output.value = `error ${code}`;
});
// FormSessionError is a value export: a fetchSession implementation rejects with it.
console.assert(typeof FormSessionError === 'function');
