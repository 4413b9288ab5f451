#!/usr/bin/env bash
# Installs everything AttnLab needs on Debian 12, idempotently: Debian packages, the Dear ImGui 1.86 sources
# (from Debian's `imgui` source package, into third_party/, which git ignores) and the npm packages of
# package-lock.json. Runs as root, or through sudo otherwise. Says what it installs; silent when nothing is missing.
#
# What it checks on every run, and what it remembers between runs (stamps; losing one only costs a re-check):
#   Debian  each package of PACKAGES is installed (dpkg-query, every run, so a package removed by hand is noticed).
#           Stamp build/install-deps/debian-packages: the list as last fully installed, with its sha256. When the
#           list differs (a package was added to PACKAGES), the apt index is refreshed before installing, as the new
#           name may be missing from an old index, and the run says which packages are new; when it is the same, a
#           missing package is installed from the current index first. The stamp lives in build/ (git ignores
#           it): it is a hint about this clone's list, not the truth about the machine (dpkg is), so it needs no
#           root, leaves nothing outside the repository, and `make clean` only causes one silent re-check.
#   ImGui   third_party/imgui has imgui.cpp and the backends, and imgui.h says IMGUI_VERSION "1.86"; re-fetched
#           otherwise.
#   npm     `npm ci` runs when package-lock.json changed since the last successful `npm ci` (stamp: its sha256 in
#           node_modules/.attnlab-lock-sha256, written after `npm ci` succeeds; `npm ci` deletes node_modules
#           first, so a half-done install never keeps an old stamp) or when a package of the lockfile is missing
#           from node_modules. Without a stamp (node_modules from before stamps), an install that npm's own record
#           shows to be exactly the lockfile's is stamped instead of reinstalled.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install the packages below by hand" >&2; SUDO=false; }
  [ "$SUDO" = false ] || SUDO=sudo
fi

# Debian packages: what each is for.
PACKAGES=(
  build-essential cmake pkg-config   # native toolchain
  dpkg-dev                           # `apt-get source` (Dear ImGui sources)
  emscripten                         # 3.1.6: C++ -> WebAssembly
  libeigen3-dev                      # 3.4: the math
  nlohmann-json3-dev libcli11-dev    # JSON, command line
  googletest libgtest-dev libbenchmark-dev  # unit tests, benchmarks
  libglfw3-dev libgl-dev xvfb        # desktop app and its test under a virtual display
  chromium                           # browser tests (driven by playwright-core)
  fonts-dejavu-core fonts-wqy-microhei  # UI font (Greek, math symbols) and the CJK font
  fonttools                          # pyftsubset: the UI fonts subset to the glyphs used (~500 KB gzip less)
  python3-numpy                      # the independent reference the core is checked against
  python3-onnx                       # tests/bench: builds the ONNX attention model onnxruntime-web is timed on
  python3-torch                      # tests/train: PyTorch autograd, the reference the training gradients are checked against
  clang libclang-rt-14-dev           # libFuzzer and sanitizers
  nodejs npm                         # browser tests and the wasm core under node
)
IMGUI_VERSION=1.86
STAMP_DIR=build/install-deps
DEBIAN_STAMP=$STAMP_DIR/debian-packages
NPM_STAMP=node_modules/.attnlab-lock-sha256

apt_updated=0
apt_update() { [ "$apt_updated" = 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }; }
apt_install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }

# ---------------------------------------------------------------- Debian packages
# The list as it will be stamped: sorted names, one a line, then its sha256.
list_text=$(printf '%s\n' "${PACKAGES[@]}" | LC_ALL=C sort -u)
list_sha=$(printf '%s\n' "$list_text" | sha256sum | cut -d' ' -f1)
stamped_sha=$(sed -n 's/^sha256 //p' "$DEBIAN_STAMP" 2>/dev/null || true)

# Installed or not: one dpkg-query for the whole list (a name dpkg never heard of is simply absent from its output).
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null | awk '/ install ok installed$/ {print $1}' || true)
want=()
for p in "${PACKAGES[@]}"; do
  grep -qxF "$p" <<<"$installed" || want+=("$p")
done
# A machine may already have node/npm from elsewhere; do not fight it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  kept=(); for p in ${want[@]+"${want[@]}"}; do [ "$p" = nodejs ] || [ "$p" = npm ] || kept+=("$p"); done
  want=(${kept[@]+"${kept[@]}"})
fi

if [ "${#want[@]}" -gt 0 ]; then
  if [ "$list_sha" != "$stamped_sha" ]; then
    if [ -n "$stamped_sha" ]; then
      added=$(LC_ALL=C comm -13 <(sed '/^sha256 /d' "$DEBIAN_STAMP" | LC_ALL=C sort -u) <(printf '%s\n' "$list_text") | tr '\n' ' ')
      echo "install-deps: the Debian package list changed since the last set-up${added:+ (new: ${added% })}"
    fi
    echo "install-deps: installing Debian packages: ${want[*]}"
    apt_update
    apt_install "${want[@]}"
  else
    # Same list as last time: a package went missing since. The current index usually still has it.
    echo "install-deps: installing Debian packages (no longer installed): ${want[*]}"
    apt_install "${want[@]}" 2>/dev/null || { apt_update; apt_install "${want[@]}"; }
  fi
fi
if [ "$list_sha" != "$stamped_sha" ]; then
  mkdir -p "$STAMP_DIR"
  { printf '%s\n' "$list_text"; echo "sha256 $list_sha"; } > "$DEBIAN_STAMP.tmp"
  mv -f "$DEBIAN_STAMP.tmp" "$DEBIAN_STAMP"
fi

# ---------------------------------------------------------------- Dear ImGui sources
# Debian's binary package has no backends and an x86 .a only, so take the source package.
IMGUI_DIR=third_party/imgui
imgui_version() { { sed -n 's/^#define IMGUI_VERSION  *"\([^"]*\)".*/\1/p' "$1/imgui.h" 2>/dev/null || true; } | head -n1; }
imgui_ok() {
  [ -f "$1/imgui.cpp" ] && [ -f "$1/backends/imgui_impl_opengl3.cpp" ] && [ -f "$1/backends/imgui_impl_glfw.cpp" ] &&
    [ "$(imgui_version "$1")" = "$IMGUI_VERSION" ]
}
if ! imgui_ok "$IMGUI_DIR"; then
  have=$(imgui_version "$IMGUI_DIR")
  if [ -n "$have" ] && [ "$have" != "$IMGUI_VERSION" ]; then
    echo "install-deps: $IMGUI_DIR is Dear ImGui $have, AttnLab needs $IMGUI_VERSION: fetching it again"
  else
    echo "install-deps: fetching Dear ImGui $IMGUI_VERSION sources (Debian source package 'imgui') into $IMGUI_DIR"
  fi
  if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "install-deps: adding deb-src entries mirroring the machine's deb entries"
    tmp=$(mktemp)
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] && sed -e 's/^Types: *deb$/Types: deb-src/' "$f" >> "$tmp" && echo >> "$tmp"
    done
    [ -s "$tmp" ] && $SUDO cp "$tmp" /etc/apt/sources.list.d/attnlab-deb-src.sources
    if [ -f /etc/apt/sources.list ]; then
      grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$tmp" || true
      [ -s "$tmp" ] && $SUDO cp "$tmp" /etc/apt/sources.list.d/attnlab-deb-src.list
    fi
    rm -f "$tmp"
    apt_updated=0
  fi
  apt_update
  work=$(mktemp -d)
  (cd "$work" && apt-get source -qq imgui >/dev/null 2>&1 || apt-get source imgui)
  src=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'imgui-*' | head -n1)
  if ! imgui_ok "$src"; then
    echo "install-deps: 'apt-get source imgui' gave Dear ImGui '$(imgui_version "$src")' in '$src', not $IMGUI_VERSION" \
         "with its backends (Debian 12's package is 1.86)" >&2
    rm -rf "$work"
    exit 1
  fi
  mkdir -p third_party && rm -rf "$IMGUI_DIR" && cp -r "$src" "$IMGUI_DIR"
  rm -rf "$work"
  echo "install-deps: Dear ImGui $(imgui_version "$IMGUI_DIR") in $IMGUI_DIR"
fi

# ---------------------------------------------------------------- npm packages
# playwright-core, onnxruntime-web, ... pinned by package-lock.json. Never download a browser: we drive Debian's.
# npm_check MODE: prints why `npm ci` is needed, nothing when node_modules holds package-lock.json's packages.
#   every non-optional package of the lockfile must be in node_modules (one deleted by hand is noticed);
#   MODE "unstamped" (no stamp yet: first run after a clone's own `npm ci`, or an install made before stamps
#   existed): the install is adopted only if npm's own record of node_modules (node_modules/.package-lock.json,
#   written by npm ci / npm install) lists exactly the lockfile's packages, versions and integrity hashes.
npm_check() {
  node - "$1" <<'JS' 2>/dev/null || echo "package-lock.json or node_modules could not be read"
const fs = require('fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pkgs = Object.entries(lock.packages || {}).filter(([path]) => path);
const gone = pkgs.filter(([path, p]) => !p.optional && !p.link && !fs.existsSync(path + '/package.json'))
  .map(([path]) => path.replace(/^.*node_modules\//, ''));
if (gone.length) {
  process.stdout.write('missing from node_modules: ' + gone.join(' '));
} else if (process.argv[2] === 'unstamped') {
  let record = null;
  try { record = JSON.parse(fs.readFileSync('node_modules/.package-lock.json', 'utf8')).packages || {}; } catch {}
  const key = (p) => JSON.stringify([p.version, p.resolved, p.integrity]);
  const wanted = pkgs.filter(([path, p]) => !p.optional || record?.[path]);
  const have = Object.keys(record || {}).filter((path) => path);
  const same = record && have.length === wanted.length &&
    wanted.every(([path, p]) => record[path] && key(record[path]) === key(p));
  if (!same) process.stdout.write('no record of an npm ci of this package-lock.json');
}
JS
}
if [ -f package-lock.json ]; then
  lock_sha=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$NPM_STAMP" ]; then
    why=$(npm_check unstamped)
  elif [ "$(cat "$NPM_STAMP")" != "$lock_sha" ]; then
    why="package-lock.json changed since the last npm ci"
  else
    why=$(npm_check stamped)
  fi
  if [ -n "$why" ]; then
    echo "install-deps: installing npm packages from package-lock.json ($why)"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --no-update-notifier --loglevel=error
  fi
  if [ -d node_modules ] && [ "$(cat "$NPM_STAMP" 2>/dev/null)" != "$lock_sha" ]; then
    echo "$lock_sha" > "$NPM_STAMP"
  fi
fi
