#!/usr/bin/env bash
# Publishes eventfilterd as a NativeAOT binary, src/EventFilter.Daemon/bin/Release/net10.0/linux-x64/publish/eventfilterd,
# which DaemonBench and redis-benchmark.sh then use. Installs clang and lld (Debian's) first when missing; the ILCompiler
# package comes from NuGet. The plain `dotnet build`/`dotnet test` of the solution do not need any of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
benchmarks/daemon/install-tools.sh aot
dotnet publish src/EventFilter.Daemon -c Release -r linux-x64 -p:PublishAot=true -nologo -v q
ls -l src/EventFilter.Daemon/bin/Release/net10.0/linux-x64/publish/eventfilterd
