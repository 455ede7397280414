using System.Text.Json;
using System.Text.Json.Serialization;

namespace EventLog.Server.Api;

/// <summary>
/// Source-generated JSON for the API. Reading is strict, so that a mistake in a request is a 400 that says what is
/// wrong rather than an event stored wrongly: required members, no nulls where none are allowed, no unknown or
/// duplicate properties, and at most <see cref="ServerSettings.MaxJsonDepth"/> levels of nesting.
/// </summary>
[JsonSourceGenerationOptions(
    JsonSerializerDefaults.Web,
    MaxDepth = ServerSettings.MaxJsonDepth,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    RespectNullableAnnotations = true,
    AllowDuplicateProperties = false)]
[JsonSerializable(typeof(EventBody[]))]
[JsonSerializable(typeof(AppendResponse))]
[JsonSerializable(typeof(ReadResponse))]
[JsonSerializable(typeof(StreamLookupResponse))]
[JsonSerializable(typeof(FilterResponse))]
[JsonSerializable(typeof(RebuildStartedResponse))]
internal sealed partial class ServerJsonContext : JsonSerializerContext;
