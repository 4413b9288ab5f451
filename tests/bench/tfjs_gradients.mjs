// Registers TensorFlow.js's gradient functions for tfjs-core used on its own under node (train_tfjs.mjs).
// tfjs-core's node bundle (dist/tf-core.node.js) has the ops and the kernels' registry but not the gradients: those
// live only in its ES-module sources (dist/register_all_gradients.js and dist/gradients/*.js), written for bundlers
// (extensionless relative imports in a package node treats as CommonJS). This file installs module hooks that load
// exactly those sources as ES modules, resolving './x' to './x.js', then imports register_all_gradients.js. The
// registry is global (tfjs keeps it on globalThis), so the gradients apply to the tfjs-core the script requires.
import { register } from 'node:module';

const hooks = `
const DIST = '/@tensorflow/tfjs-core/dist/';
const isCoreSource = (url) => url.startsWith('file:') && url.includes(DIST) && !/\\/tf-core[^/]*\\.js$/.test(url);
export async function resolve(specifier, context, next) {
  if (context.parentURL && isCoreSource(context.parentURL) && specifier.startsWith('.') && !specifier.endsWith('.js')) {
    try { return await next(specifier + '.js', context); } catch { return next(specifier + '/index.js', context); }
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (isCoreSource(url) && url.endsWith('.js')) return { ...(await next(url, { ...context, format: 'module' })), format: 'module', shortCircuit: true };
  return next(url, context);
}`;

export async function registerAllGradients(root) {
  register('data:text/javascript,' + encodeURIComponent(hooks), import.meta.url);
  await import(new URL(`file://${root}/node_modules/@tensorflow/tfjs-core/dist/register_all_gradients.js`).href);
}
