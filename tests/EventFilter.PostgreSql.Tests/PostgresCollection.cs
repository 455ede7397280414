namespace EventFilter.PostgreSql.Tests;

/// <summary>One server for every test of the project; the tests using it run one at a time (two cores).</summary>
[CollectionDefinition(Name)]
public sealed class PostgresCollection : ICollectionFixture<PostgresServer>
{
    public const string Name = "postgres";
}
