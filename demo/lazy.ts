import '@form-embed/element/define';
import { byId } from './dom.js';
import { logEvents, showState } from './event-log.js';
import { renderHeader } from './page-header.js';

renderHeader('Lazy embed');
const element = byId('lazy');
showState(element, byId('state'));
// Beside the embed too: once scrolled down to it, the page note's badge is out of sight.
showState(element, byId('card-state'));
logEvents(element, byId<HTMLOListElement>('log'));
