// Saves a Blob as a file: an <a download> on a blob: URL (a navigation/download, which the Content-Security-Policy's
// connect-src and img-src do not govern).
export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
