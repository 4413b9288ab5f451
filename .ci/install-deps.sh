#!/usr/bin/env bash
# Installs everything AttnLab needs on Debian 12, idempotently: Debian packages, the Dear ImGui 1.86 sources
# (from Debian's `imgui` source package, into third_party/, which git ignores) and the npm packages of
# package-lock.json. Runs as root, or through sudo otherwise. Says what it installs; silent when nothing is missing.
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
  clang libclang-rt-14-dev           # libFuzzer and sanitizers
  nodejs npm                         # browser tests and the wasm core under node
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A machine may already have node/npm from elsewhere; do not fight it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
want=(); for p in "${missing[@]}"; do [ -n "$p" ] && want+=("$p"); done

apt_updated=0
apt_update() { [ "$apt_updated" = 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }; }

if [ "${#want[@]}" -gt 0 ]; then
  echo "install-deps: installing Debian packages: ${want[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
fi

# Dear ImGui 1.86 sources: Debian's binary package has no backends and an x86 .a only, so take the source package.
IMGUI_DIR=third_party/imgui
if [ ! -f "$IMGUI_DIR/imgui.cpp" ]; then
  echo "install-deps: fetching Dear ImGui sources (Debian source package 'imgui') into $IMGUI_DIR"
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
  [ -f "$src/imgui.cpp" ] || { echo "install-deps: 'apt-get source imgui' gave no imgui.cpp" >&2; exit 1; }
  mkdir -p third_party && rm -rf "$IMGUI_DIR" && cp -r "$src" "$IMGUI_DIR"
  rm -rf "$work"
  grep -m1 'IMGUI_VERSION ' "$IMGUI_DIR/imgui.h"
fi

# npm packages (playwright-core, ...) pinned by package-lock.json. Never download a browser: we drive Debian's.
if [ -f package-lock.json ] && { [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/onnxruntime-web ]; }; then
  echo "install-deps: installing npm packages from package-lock.json"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
