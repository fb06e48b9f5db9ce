using System.Diagnostics.CodeAnalysis;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The harnesses by name. Each takes one input, hands it to a parser of outside bytes in process and lets through
/// only what that parser documents as its refusal; any other exception (or a broken invariant, thrown as
/// <see cref="InvariantException"/>) escapes and is a crash to AFL.
/// </summary>
public static class HarnessRegistry
{
    private static readonly Dictionary<string, Action<byte[]>> s_harnesses = new(StringComparer.Ordinal)
    {
        ["document-json"] = DocumentJsonHarness.Run,
        ["bulk-docs"] = BulkDocsHarness.Run,
        ["bulk-insert"] = BulkInsertHarness.Run,
        ["rql"] = RqlHarness.Run,
        ["rql-script"] = ScriptQueryHarness.Run,
        ["map-script"] = MapScriptHarness.Run,
        ["query-parameters"] = QueryParametersHarness.Run,
        ["index-definition"] = IndexDefinitionHarness.Run,
        ["tcp-folio"] = TcpFolioHarness.Run,
        ["tcp-seeds"] = TcpSeedsHarness.Run,
    };

    /// <summary>Every harness's name, in the order run.sh --all runs them.</summary>
    public static IEnumerable<string> Names => s_harnesses.Keys;

    /// <summary>The harness called <paramref name="name"/>.</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out Action<byte[]>? harness) => s_harnesses.TryGetValue(name, out harness);
}
