// `@form-embed/element/react` under the `development` condition: the same, with warnings.
import './warnings.js';

export * from '../react.js';
