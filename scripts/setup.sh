#!/usr/bin/env bash
# Installs whatever tokbound's build and tests need and is missing; idempotent, seconds when all is there.
#
# The WebAssembly target comes from rustup where `rustup target add` works (a laptop with internet).
# Where it cannot download (a registries-only Debian 12 machine), it falls back to Debian's rustc-web
# with its std sources, building std for wasm32 (see scripts/webenv for the flags).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .toolchain
TRUNK_VERSION=0.21.14
say() { printf 'setup: %s\n' "$*" >&2; }

have() { command -v "$1" >/dev/null 2>&1; }
apt_updated=0
apt_install() {
  if ! have apt-get; then say "please install: $* (no apt-get here)"; return 1; fi
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! have cargo; then
  say "cargo not found: install Rust with rustup (https://rustup.rs) and run again"; exit 1
fi
export PATH="$HOME/.cargo/bin:$PATH"

# 1. The wasm32 toolchain: rustup's target, else Debian's rustc-web with build-std.
mode="${TOKBOUND_WASM_TOOLCHAIN:-}"   # rustup | debian, to force one path
[ -z "$mode" ] && [ -f .toolchain/mode ] && mode=$(cat .toolchain/mode)
if [ -z "$mode" ]; then
  if have rustup && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    mode=rustup
  elif have rustup && timeout 30 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
    mode=rustup
  else
    say "rustup cannot add wasm32-unknown-unknown here: using Debian's rustc-web with build-std"
    mode=debian
  fi
fi
if [ "$mode" = debian ]; then
  if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust ] || ! have wasm-ld-22; then
    apt_install rustc-web cargo-web rust-web-src lld-22
  fi
  mkdir -p .toolchain/bin
  ln -sf /usr/bin/cargo .toolchain/bin/cargo
  ln -sf /usr/bin/rustc .toolchain/bin/rustc
fi
echo "$mode" > .toolchain/mode
# std's source, to rebuild std for size in the release page (scripts/webenv); optional.
if [ "$mode" = rustup ] && ! [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
  timeout 120 rustup component add rust-src >/dev/null 2>&1 || say "rust-src unavailable: the page builds without rebuilding std for size"
fi

# 2. Node.js, and binaryen's wasm-opt from npm (Trunk runs it and never downloads it; Debian 12's
#    own wasm-opt is too old for the reference-types tables current Rust emits).
if ! have node || ! have npm; then apt_install nodejs npm; fi
npm_ci() {
  if [ ! -d "$1/node_modules" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; then
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
npm_ci scripts/node

# 3. Trunk, pinned.
if ! have trunk || [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (several minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# 4. wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock.
wbg=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if ! have wasm-bindgen || [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg" ] || ! have wasm-bindgen-test-runner; then
  say "installing wasm-bindgen-cli $wbg (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$wbg" --force
fi

# 4b. wasm-split-cli, which cuts the release page's module in parts (scripts/node/split.mjs).
WASM_SPLIT_VERSION=0.2.4
if ! have wasm-split-cli || ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (a few minutes, once)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
fi

# 5. A browser and its driver for the browser and end-to-end tests.
if ! have chromium && ! have chromium-browser && ! have google-chrome; then
  apt_install chromium chromium-driver
elif ! have chromedriver; then
  apt_install chromium-driver
fi

# 6. Node's packages for the end-to-end tests (playwright-core drives the installed browser).
npm_ci tests/e2e
# 7. Every crate the builds need, in cargo's cache: Trunk runs cargo --offline, and building std
#    for wasm32 (the Debian path) needs std's own dependencies too.
scripts/webenv cargo fetch --target wasm32-unknown-unknown --quiet
TOKBOUND_RELEASE=1 scripts/webenv cargo fetch --target wasm32-unknown-unknown --quiet
cargo fetch --quiet
say "ready ($mode toolchain for wasm32)"
