// An Angular 21 page (standalone, zoneless), bootstrapping the element README's Angular
// component as it is: the test writes that block to src/it-request.ts before building, with
// only its form id changed to one the sandbox has. It mints through the portal's endpoint, which
// this setup's portal guards with Angular's XSRF convention (cookie XSRF-TOKEN, header
// X-XSRF-TOKEN), so the form is framed only if Angular set `requestInit` as a property.
//
// ngc compiles the component ahead of time (strictTemplates); Angular's own packages ship
// partially compiled, and are linked here at runtime by @angular/compiler (JIT) rather than by
// the Babel linker at build time: ngc needs @angular/compiler installed anyway, and linking in
// the browser costs the setups lane no Babel pass over Angular's bundles.
import '@angular/compiler';
import { provideHttpClient } from '@angular/common/http';
import { provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import type { FormEmbedSessionEvent } from '@form-embed/element';
import { ItRequest } from './it-request.js';

// The README's component handles errors only: the page writes the session the element reports
// (its events bubble) into the <output> the setups' browser check waits on.
document.addEventListener('form-embed-session', (event: FormEmbedSessionEvent) => {
  const output = document.querySelector('#session');
  if (output) output.textContent = `${event.provider} session on ${event.embedOrigin}`;
});

await bootstrapApplication(ItRequest, {
  providers: [provideZonelessChangeDetection(), provideHttpClient()],
});
