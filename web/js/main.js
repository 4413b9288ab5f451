// The small JS around AttnLab's canvas, bundled by esbuild (web/bundle.mjs) into attnlab.js, which the page loads
// before the Emscripten runtime (index.js). Each module has one job; this file wires them together in the order
// that matters: every listener that must run before the runtime's own (keys, touches, drops on window, capture) and
// the requestAnimationFrame wrapper are installed here, synchronously, before index.js loads.
// No network request goes anywhere but the page's own folder, except the model download the user clicks for
// (huggingface.co and its file hosts *.hf.co: the Content-Security-Policy's connect-src, web/README.md).
import { start, onFirstFrame } from './startup.js';
import { keepGlStateHere } from './gl_state.js';
import { installFrameHooks, onEveryFrame } from './frames.js';
import { installClipboard } from './clipboard.js';
import { installFonts } from './fonts.js';
import { installDataFiles } from './data_files.js';
import { installLink, openLinkOfAddress, syncAddress } from './link.js';
import { chooseLanguage, linkHasLanguage } from './language.js';
import { maybeShowGoalCard } from './first_visit.js';
import { announce } from './a11y.js';
import { installTextFields, syncTextFields } from './text_fields.js';
import { installTouch, setInputKind } from './touch.js';
import { installShare } from './share.js';
import { installImport, takeConfigDrop } from './import_config.js';
import { installCheck, takeResultDrop } from './check.js';
import { installDrops, onFilesDropped } from './drops.js';
import { installModelFiles, takeModelDrop } from './model_files.js';
import { installModelDownload, linkModelSha256, lookInCache, reopenForLink, sourceOfAddress } from './model_download.js';
import { api } from './api.js';

window.attnlab = api;
keepGlStateHere();
start(api);
installFrameHooks();
installClipboard();
installFonts();
installDataFiles();
installLink();
installTextFields();
installTouch();
installShare();
installImport();
installCheck();
installModelFiles();
installModelDownload();

// A dropped file goes to the first of these that takes it.
installDrops();
onFilesDropped(takeModelDrop);   // any .safetensors among the files: a model
onFilesDropped(takeResultDrop);  // a learner's result (by name, or by its bytes while the check panel is open)
onFilesDropped(takeConfigDrop);  // anything else: a Config JSON

// After every frame the text fields' inputs follow their fields; every 6th frame the address and the live region.
onEveryFrame(syncTextFields);
onEveryFrame(syncAddress, 6);
onEveryFrame(announce, 6);

// The first frame: the link (read before the page writes its own fragment), the language, the input kind, the goal
// card, then a look into the download cache (the panel says whether a model is there; nothing is fetched) and a
// link's model reopened from it.
onFirstFrame(() => {
  const linkLanguage = linkHasLanguage();
  const linkFragment = location.hash, linkSha256 = linkModelSha256(linkFragment);
  sourceOfAddress();  // tests: ?gpt2-source-for-tests=/same/origin/path/
  openLinkOfAddress();
  chooseLanguage(linkLanguage);
  setInputKind(!!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches));
  maybeShowGoalCard();
  lookInCache().then(() => reopenForLink(linkSha256, linkFragment));
});
