// `@form-embed/element/define` under the `development` condition: the same, with warnings.
import './warnings.js';

export * from '../define.js';
