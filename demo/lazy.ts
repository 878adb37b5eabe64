import '@form-embed/element/define';
import { askedFor } from './console-address.js';
import { byId } from './dom.js';
import { logEvents, showState } from './event-log.js';
import { useLanguage } from './language-picker.js';
import { renderHeader } from './page-header.js';

renderHeader('Lazy embed');
const element = byId('lazy');
useLanguage(askedFor('lang'), element);
showState(element, byId('state'));
// Beside the embed too: once scrolled down to it, the page note's badge is out of sight.
showState(element, byId('card-state'));
logEvents(element, byId<HTMLOListElement>('log'));
