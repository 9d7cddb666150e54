#!/usr/bin/env bash
# Installs every Debian package that building and testing gpuport needs. Idempotent: when all
# packages are present it changes nothing and needs no network.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config git
  libcli11-dev libfmt-dev nlohmann-json3-dev libexpected-dev
  googletest libgtest-dev libgmock-dev
  # gpuport profile: gzip traces and SQLite exports (nsys, rocpd), --step patterns (RE2).
  zlib1g-dev libsqlite3-dev libre2-dev
  # The hipify table generator and its freshness test.
  python3
  # `gpuport hipify --verify` and its tests compile translated code with Debian's HIP (5.2).
  hipcc libamdhip64-dev rocm-device-libs
  libhiprand-dev librocrand-dev libhipsparse-dev librocsparse-dev librocprim-dev librocm-smi-dev
  # gpuport audit: the .gpuport.toml config (header-only TOML) and the headless-browser test of
  # the HTML report.
  libcpptoml-dev chromium
  # gpuport bench: the event-driven HTTP client and mock server (standalone asio), https.
  libasio-dev libssl-dev
)
# Extra sets for the optional jobs: `setup.sh fuzz`, `setup.sh bench`.
for extra in "$@"; do
  case "$extra" in
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    bench) packages+=(ripgrep time python3 wrk valgrind) ;;
    *) echo "setup.sh: unknown extra '$extra' (known: fuzz, bench)" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
