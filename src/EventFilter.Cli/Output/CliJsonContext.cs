using System.Text.Json.Serialization;
using EventFilter.Cli.Reports;
using EventFilter.Cli.Reports.Client;
using EventFilter.Cli.Reports.Daemon;

namespace EventFilter.Cli.Output;

/// <summary>
/// Source-generated serialisation of every report: no reflection, camelCase names, nulls written out
/// (a missing checkpoint is <c>"checkpoint": null</c>, not an absent field).
/// </summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true)]
[JsonSerializable(typeof(InspectReport))]
[JsonSerializable(typeof(VerifyReport))]
[JsonSerializable(typeof(RepairReport))]
[JsonSerializable(typeof(CheckReport))]
[JsonSerializable(typeof(SizingReport))]
[JsonSerializable(typeof(PingReport))]
[JsonSerializable(typeof(CreateReport))]
[JsonSerializable(typeof(AddReport))]
[JsonSerializable(typeof(ItemCheckReport))]
[JsonSerializable(typeof(FilterInfoReport))]
[JsonSerializable(typeof(FilterListReport))]
[JsonSerializable(typeof(StatsReport))]
[JsonSerializable(typeof(DropReport))]
[JsonSerializable(typeof(BackupReport))]
[JsonSerializable(typeof(RestoreReport))]
[JsonSerializable(typeof(DataDirectoryReport))]
internal sealed partial class CliJsonContext : JsonSerializerContext;
