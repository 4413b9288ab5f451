// Strings and bytes into the wasm heap, and calls of the C++ exports (src/app/js_bridge.cpp) with them. Every
// string argument is copied in as UTF-8 (malloc'ed, freed after the call); Module.HEAPU8 is read after each malloc,
// since the memory may have grown.
import { Module } from './runtime.js';

// A UTF-8 copy of `text` in the heap, NUL-terminated. The caller frees it (or hands it to the C++ side).
export function heapString(text) {
  const size = Module.lengthBytesUTF8(text) + 1;
  const ptr = Module._malloc(size);
  Module.stringToUTF8(text, ptr, size);
  return ptr;
}

// A copy of `bytes` in the heap (at least one byte allocated, so an empty file has an address too).
export function heapBytes(bytes) {
  const ptr = Module._malloc(Math.max(1, bytes.length));
  Module.HEAPU8.set(bytes, ptr);
  return ptr;
}

// Calls `use(ptr, length)` with a heap copy of `bytes`, freed afterwards unless `keep` (ownership passed to the C++
// side). Returns what `use` returns.
export function withHeapBytes(bytes, use, keep = false) {
  const ptr = heapBytes(bytes);
  let kept = false;
  try {
    const result = use(ptr, bytes.length);
    kept = keep;
    return result;
  } finally {
    if (!kept) Module._free(ptr);
  }
}

// Module._<name>(...args), each string argument copied into the heap for the call; returns the export's value.
export function callExport(name, ...args) {
  const ptrs = [];
  try {
    const values = args.map((a) => {
      if (typeof a !== 'string') return a;
      const ptr = heapString(a);
      ptrs.push(ptr);
      return ptr;
    });
    return Module['_' + name](...values);
  } finally {
    ptrs.forEach((p) => Module._free(p));
  }
}

// The same, for an export that returns a C string: its text.
export function callString(name, ...args) {
  return Module.UTF8ToString(callExport(name, ...args));
}
