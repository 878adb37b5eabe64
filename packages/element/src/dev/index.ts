// `@form-embed/element` under the `development` condition: the same, with warnings.
import './warnings.js';

export * from '../index.js';
