#!/usr/bin/env bash
# Drives eventfilterd with Debian's redis-benchmark (package redis-tools) over its Unix socket and prints one line per
# row: the issue-14 commands (-n 200000 -P 64 -r 1000000) and unpipelined single-client latency, in both sync modes.
# Usage: benchmarks/daemon/redis-benchmark.sh   (builds src/EventFilter.Daemon in Release first; runs the NativeAOT
# binary from benchmarks/daemon/publish-aot.sh when it exists, else the JIT build)
set -euo pipefail
cd "$(dirname "$0")/../.."
benchmarks/daemon/install-tools.sh redis
dotnet build src/EventFilter.Daemon -c Release -v q -nologo > /dev/null
aot=src/EventFilter.Daemon/bin/Release/net10.0/linux-x64/publish/eventfilterd
if [[ -x $aot ]]; then daemon=("$aot"); else daemon=(dotnet src/EventFilter.Daemon/bin/Release/net10.0/eventfilterd.dll); fi
echo "daemon: ${daemon[*]}"
for sync in periodic always; do
  data=$(mktemp -d /tmp/efbench.XXXXXX)
  socket=$data/eventfilterd.sock
  started=$(date +%s%N)
  "${daemon[@]}" --data "$data" --log-sync "$sync" > "$data.log" 2>&1 &
  pid=$!
  until redis-cli -s "$socket" PING > /dev/null 2>&1; do sleep 0.01; done
  echo "$sync: start to first PONG $(( ($(date +%s%N) - started) / 1000000 )) ms"
  redis-cli -s "$socket" BF.RESERVE f 0.01 1000000 > /dev/null
  for command in BF.ADD BF.EXISTS; do
    rps=$(redis-benchmark -s "$socket" -n 200000 -P 64 -r 1000000 $command f __rand_int__ 2>/dev/null | tr '\r' '\n' | grep 'throughput summary' | tail -1)
    echo "$sync: $command -P 64 (50 clients): $rps"
    lat=$(redis-benchmark -s "$socket" -n 20000 -c 1 -r 1000000 $command f __rand_int__ 2>/dev/null | tr '\r' '\n' | grep -A1 'avg' | tail -1)
    echo "$sync: $command one client, unpipelined, avg/min/p50/p95/p99/max ms: $lat"
  done
  echo "$sync: RSS after 200k adds into a 1M-capacity filter: $(grep VmRSS /proc/$pid/status | awk '{print $2}') kB"
  kill "$pid"; wait "$pid" || true
  rm -rf "$data" "$data.log"
done
# The same-run baseline: Debian's redis-server on its own Unix socket (append-only file fsynced every second, as in
# DaemonBench), with a set standing in for the filter (Redis 7 has no Bloom module).
data=$(mktemp -d /tmp/efbench.XXXXXX)
socket=$data/redis.sock
redis-server --port 0 --unixsocket "$socket" --dir "$data" --appendonly yes --appendfsync everysec --save "" --logfile "$data/redis.log" &
pid=$!
until redis-cli -s "$socket" PING > /dev/null 2>&1; do sleep 0.01; done
for command in SADD SISMEMBER; do
  rps=$(redis-benchmark -s "$socket" -n 200000 -P 64 -r 1000000 $command f __rand_int__ 2>/dev/null | tr '\r' '\n' | grep 'throughput summary' | tail -1)
  echo "redis: $command -P 64 (50 clients): $rps"
done
kill "$pid"; wait "$pid" || true
rm -rf "$data"
