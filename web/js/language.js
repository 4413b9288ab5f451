// The page's language on start: ?lang=zh|en, else the link's own (the state in the address), else the browser's
// (navigator.language) on a first visit.
import { safeDecode } from './runtime.js';
import { callString } from './heap.js';
import { linkState, writeAddress } from './link.js';

// Whether the address's state names a language (asked before the page rewrites the address).
export function linkHasLanguage() {
  const state = linkState(location.hash);
  return !!state && Object.prototype.hasOwnProperty.call(state, 'lang');
}

export function chooseLanguage(linkLanguage) {
  const asked = /[?&]lang=([^&#]*)/.exec(location.search);
  let lang = null;
  if (asked) lang = safeDecode(asked[1]);
  else if (!linkLanguage && /^zh/i.test(navigator.language || '')) lang = 'zh';
  if (!lang) return;
  const error = callString('attnlab_set_state', JSON.stringify({ lang }));
  if (error) console.warn('AttnLab: ?lang=' + lang + ': ' + error);
  writeAddress();
}
