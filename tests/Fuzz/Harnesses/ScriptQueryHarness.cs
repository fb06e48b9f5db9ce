using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Indexing.Scripting;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// RQL with JavaScript (<c>declare function</c>, <c>select { … }</c>), parsed, planned and run through
/// <see cref="QueryRunner"/> on a small in-memory database (<see cref="ScriptFuzzDatabase"/>), so the projection is
/// compiled by Jint and run on real results with tight limits. Refusals are the parser's, the compiler's and the
/// script's (<see cref="ScriptException"/>, the query's budget and memory cap), each answered 4xx; a write to the
/// database is a broken invariant, and a run past AFL's 2 s limit (four times the budget) a hang. Queries without JavaScript are left to the
/// <c>rql</c> harness.
/// </summary>
public static class ScriptQueryHarness
{
    private static readonly QueryOptions Options = new()
    {
        Timeout = TimeSpan.FromMilliseconds(500),
        MaxMemoryBytes = 256L * 1024 * 1024,
        // A query naming new fields would otherwise wait for its auto index longer than AFL's hang limit.
        AutoIndexWait = TimeSpan.Zero,
        ScriptLimits = new ScriptLimits { Timeout = TimeSpan.FromMilliseconds(200), MaxStatements = 200_000, MaxMemoryBytes = 32L * 1024 * 1024 },
    };

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        var text = Encoding.UTF8.GetString(input);
        RqlQuery parsed;
        try
        {
            parsed = RqlParser.Parse(text);
        }
        catch (RqlParseException)
        {
            return;
        }
        if (parsed.ScriptProjection is null && parsed.Functions.Count == 0)
            return;
        var database = ScriptFuzzDatabase.Instance;
        var before = database.Store.LastEtag;
        try
        {
            using var result = database.Runner.RunAsync(text, Options).GetAwaiter().GetResult();
            foreach (var row in result.Results)
                System.Text.Json.JsonDocument.Parse(row).Dispose();
        }
        catch (Exception e) when (e is RqlParseException or QueryException or ScriptException or QueryTimeoutException or QueryMemoryLimitException
            or FieldPathException or IndexDefinitionException or IndexNotFoundException)
        {
        }
        InvariantException.Check(database.Store.LastEtag == before, "The query wrote to the database.");
    }
}
