// Fetches a file of the page's folder into the wasm heap: `use(ptr, length)` gets its bytes there. They are freed
// after `use` returns, or kept when `keep` is set (the C++ side then owns them). Rejects with "HTTP <status> for
// <url>" when the server answers with an error, or with the network's error.
import { withHeapBytes } from './heap.js';

export function fetchBytes(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error('HTTP ' + response.status + ' for ' + url);
    return response.arrayBuffer();
  }).then((buffer) => new Uint8Array(buffer));
}

export function fetchIntoHeap(url, use, { keep = false } = {}) {
  return fetchBytes(url).then((bytes) => withHeapBytes(bytes, use, keep));
}
