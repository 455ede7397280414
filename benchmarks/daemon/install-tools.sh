#!/usr/bin/env bash
# Installs what the daemon benchmark and the NativeAOT publish need from Debian's packages, when missing:
#   redis-server, redis-tools  the comparison server, redis-cli and redis-benchmark (DaemonBench, redis-benchmark.sh)
#   clang, lld                 the native linker NativeAOT drives (benchmarks/daemon/publish-aot.sh)
# Usage: benchmarks/daemon/install-tools.sh [redis|aot|all]   (default all; needs root, as on the project's machines)
set -euo pipefail
want=${1:-all}
packages=()
if [[ $want == redis || $want == all ]]; then
  command -v redis-server > /dev/null || packages+=(redis-server)
  command -v redis-benchmark > /dev/null || packages+=(redis-tools)
fi
if [[ $want == aot || $want == all ]]; then
  command -v clang > /dev/null || packages+=(clang)
  command -v ld.lld > /dev/null || packages+=(lld)
fi
if (( ${#packages[@]} == 0 )); then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" > /dev/null
# Debian's package starts a system redis-server on 127.0.0.1:6379; the benchmark runs its own on a Unix socket only.
if [[ " ${packages[*]} " == *" redis-server "* ]] && command -v systemctl > /dev/null; then
  systemctl disable --now redis-server > /dev/null 2>&1 || true
fi
