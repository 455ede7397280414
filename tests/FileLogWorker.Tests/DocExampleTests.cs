using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace FileLogWorker.Tests;

/// <summary>
/// The C# examples of the README, the package READMEs and docs/configuration.md compile against today's API. Each is
/// compiled as written, after the few declarations its prose leaves to the reader (your log, your appender, the
/// position of your record), which stand before it here. The hosting guide's code is the sample itself
/// (<see cref="HostingGuideTests"/>).
/// </summary>
public sealed class DocExampleTests
{
    // A project's implicit usings, and the namespaces the packages' types live in.
    private const string Usings = """
        global using System;
        global using System.Collections.Generic;
        global using System.IO;
        global using System.Linq;
        global using System.Threading;
        global using System.Threading.Tasks;
        global using EventFilter;
        global using EventFilter.Hosting;
        global using EventFilter.Specification;
        global using Microsoft.Extensions.DependencyInjection;
        global using Microsoft.Extensions.Hosting;

        """;

    // What the examples call "your log", "your appender" and so on.
    private const string ReadersParts = """
        sealed class MyLog : IStreamNameLog
        {
            public long EndPosition => 0;
            public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) => ValueTask.CompletedTask;
            public static Task<MyLog> OpenAsync(string directory) => Task.FromResult(new MyLog());
            public static Task CutAsync(string directory, long position) => Task.CompletedTask;
        }

        sealed class MyAppender : BackgroundService
        {
            public MyAppender() { }
            public MyAppender(MyLog log, IStreamExistenceFilter filter) { }
            protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.CompletedTask;
        }

        sealed class MyHostUnderTest(MyLog log, MyAppender appender) : IHostUnderTest
        {
            public IStreamNameLog Log => log;
            public Task AppendAsync(string streamName, CancellationToken cancellationToken) => appender.StartAsync(cancellationToken);
            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
        """;

    [Theory]
    [InlineData("README.md", "")]
    [InlineData("src/EventFilter/README.md", "IStreamNameLog myLog = new MyLog(); CancellationToken stoppingToken = default; long recordEnd = 1, durablePosition = 1;")]
    [InlineData("src/EventFilter.Hosting/README.md", "IStreamExistenceFilter filter = null!; string streamName = \"s\"; long recordEnd = 1;")]
    [InlineData("src/EventFilter.Specification.Tests/README.md", "")]
    [InlineData("docs/configuration.md", "")]
    public void Every_csharp_example_compiles(string file, string given)
    {
        string text = File.ReadAllText(Path.Combine(HostingGuideTests.RepositoryRoot(), file)).ReplaceLineEndings("\n");
        string[] examples = [.. text.Split("```csharp\n").Skip(1).Select(block => block[..block.IndexOf("\n```", StringComparison.Ordinal)])];
        Assert.NotEmpty(examples);

        foreach (string example in examples)
        {
            // Top-level statements come first, then the reader's types; a using directive of the example's own goes first of all.
            string[] lines = example.Split('\n');
            string usings = string.Join('\n', lines.TakeWhile(line => line.StartsWith("using ", StringComparison.Ordinal) && !line.Contains('(', StringComparison.Ordinal)));
            string body = string.Join('\n', lines.Skip(usings.Length == 0 ? 0 : usings.Split('\n').Length));
            bool statements = !body.TrimStart().StartsWith("public ", StringComparison.Ordinal);
            string source = $"{usings}\n{(statements ? given + "\n" : "")}{body}\n{(statements ? "" : given)}\n{ReadersParts}";

            IEnumerable<Diagnostic> errors = Compile(source, statements).Where(d => d.Severity == DiagnosticSeverity.Error);
            Assert.True(!errors.Any(), $"{file}: an example does not compile:\n{string.Join('\n', errors)}\n--- the example ---\n{example}");
        }
    }

    private static IEnumerable<Diagnostic> Compile(string source, bool statements)
    {
        var options = new CSharpParseOptions(LanguageVersion.Latest);
        SyntaxTree[] trees = [CSharpSyntaxTree.ParseText(Usings, options), CSharpSyntaxTree.ParseText(source, options)];
        var compilation = CSharpCompilation.Create(
            "example",
            trees,
            References(),
            new CSharpCompilationOptions(statements ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        return compilation.GetDiagnostics();
    }

    // The framework this test runs on, and the project's own assemblies beside it.
    private static IEnumerable<MetadataReference> References() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Concat(Directory.GetFiles(AppContext.BaseDirectory, "*.dll"))
            .DistinctBy(Path.GetFileName)
            .Select(path => MetadataReference.CreateFromFile(path));
}
