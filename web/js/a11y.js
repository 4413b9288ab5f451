// The screen-reader mirror: the aria-live region (#a11y-live) gets the step, its title and the focused row's
// numbers (text from the C++ side, ui::announcement) when they change, checked every 6th frame, in the voice of its
// language.
import { Module, running } from './runtime.js';

let lastAnnouncement = '';

export function announce() {
  if (!running) return;
  const text = Module.UTF8ToString(Module._attnlab_announcement());
  if (text === lastAnnouncement) return;
  lastAnnouncement = text;
  const region = document.getElementById('a11y-live');
  if (region) {
    region.textContent = text;
    region.lang = /[\u4e00-\u9fff]/.test(text) ? 'zh-CN' : 'en';
  }
}
