// `@form-embed/element/react` under the `development` condition: the same, with warnings.
// A client module as the plain entry is; named exports, since Next.js refuses `export *` from one.
'use client';

import './warnings.js';

export { FormEmbed, type FormEmbedProps } from '../react.js';
