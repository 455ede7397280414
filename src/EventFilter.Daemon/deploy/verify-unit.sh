#!/usr/bin/env bash
# Checks deploy/eventfilterd.service with `systemd-analyze verify` (and prints its offline security exposure).
# Installs Debian's systemd package first when systemd-analyze is missing (needs root, as on CI). The unit's ExecStart
# names /usr/lib/eventfilterd/eventfilterd, which verify requires to exist, so a copy is checked with ExecStart pointing
# at $1 (default /bin/true): everything else is the shipped file. Exits non-zero when verify reports anything.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v systemd-analyze > /dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends systemd > /dev/null
fi
binary=${1:-/bin/true}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s|/usr/lib/eventfilterd/eventfilterd|$binary|" eventfilterd.service > "$work/eventfilterd.service"
# verify prints problems on stderr and may still exit 0 for some of them: any output fails the check.
problems=$(cd "$work" && systemd-analyze verify ./eventfilterd.service 2>&1) || { echo "$problems"; exit 1; }
if [[ -n $problems ]]; then
  echo "$problems"
  exit 1
fi
echo "systemd-analyze verify: eventfilterd.service OK"
(cd "$work" && systemd-analyze security --offline=yes ./eventfilterd.service 2>/dev/null | tail -n 1) || true
