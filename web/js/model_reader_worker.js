// The model file's reader, in a worker of its own (served as model-reader.js next to the page; started by
// model_files.js). It reads the File with Blob.stream(), the browser's fastest way here, off the page's thread, so
// the reading goes on while the page pushes what has arrived into the wasm heap. The stream's chunks are gathered
// into pieces of `pieceBytes` and transferred (not copied) to the page: {piece: ArrayBuffer}, then {done: true} or
// {error: message}. It keeps at most `aheadBytes` sent and not yet taken: the page answers each piece it has
// pushed with {taken: bytes}, so a slow page does not make the whole file pile up in memory. {cancel: true} stops.
let reader = null, ahead = 0, aheadBytes = 0, wake = null;

async function read(file, pieceBytes) {
  reader = file.stream().getReader();
  let piece = new Uint8Array(pieceBytes), fill = 0;
  const send = () => {
    const out = fill === piece.length ? piece : piece.slice(0, fill);
    ahead += out.length;
    self.postMessage({ piece: out.buffer }, [out.buffer]);
    piece = new Uint8Array(pieceBytes);
    fill = 0;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let at = 0; at < value.length;) {
      const n = Math.min(piece.length - fill, value.length - at);
      piece.set(value.subarray(at, at + n), fill);
      fill += n;
      at += n;
      if (fill === piece.length) {
        send();
        while (ahead >= aheadBytes) await new Promise((resolve) => { wake = resolve; });
      }
    }
  }
  if (fill) send();
  self.postMessage({ done: true });
}

self.onmessage = (event) => {
  const m = event.data;
  if (m.file) {
    aheadBytes = m.aheadBytes;
    read(m.file, m.pieceBytes).catch((error) => self.postMessage({ error: String((error && error.message) || error) }));
  } else if (m.taken) {
    ahead -= m.taken;
    if (wake && ahead < aheadBytes) { const w = wake; wake = null; w(); }
  } else if (m.cancel && reader) {
    reader.cancel().catch(() => {});
  }
};
