using Folio.Indexing.Querying;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Engines;

/// <summary>
/// The database tier reaches the search engine only through the engine interfaces (Folio.Indexing.Engines),
/// the engine-neutral query trees and collectors, and the neutral model of Folio.Indexing.Search (schema,
/// entries, values), so a second engine can stand behind it. The Folio engine's own types (its index,
/// batch, searcher, factory, formats, postings and scoring) are named by none of its types.
/// </summary>
public class EngineSeamTests
{
    private static readonly HashSet<Type> NeutralModel =
    [
        typeof(IndexSchema), typeof(FieldOptions), typeof(FieldKind), typeof(IndexEntry), typeof(FieldValue),
        typeof(FieldValueType), typeof(ValueRange), typeof(IndexValueException),
    ];

    private static readonly string[] EngineNamespaces = ["Folio.Indexing.Search", "Folio.Indexing.Postings", "Folio.Indexing.Scoring", "Folio.Indexing.Engines.Lucene"];

    // An index definition names its engine, and the registry of engines names Folio's factory: the one place
    // (outside the engines) that does.
    private static readonly HashSet<Type> Factory = [typeof(FolioSearchEngine)];

    private static bool IsFolioEngineType(Type type) => EngineNamespaces.Contains(type.Namespace) && !NeutralModel.Contains(type) && !Factory.Contains(type);

    /// <summary>The places where the types of <paramref name="namespaceName"/> name a type of Folio's engine.</summary>
    private static List<string> EngineReferences(string namespaceName)
    {
        var references = new List<string>();
        foreach (var type in typeof(QueryRunner).Assembly.GetTypes())
        {
            if (type.Namespace != namespaceName)
                continue;
            foreach (var (named, where) in TypeReferences.Of(type))
            {
                if (IsFolioEngineType(named))
                    references.Add($"{type.FullName}, {where}: {named.FullName}");
            }
        }
        return references.Distinct().ToList();
    }

    [Theory]
    [InlineData("Folio.Indexing.Querying")]
    [InlineData("Folio.Indexing.Documents")]
    [InlineData("Folio.Indexing.Runner")]
    public void DatabaseTier_NamesNoType_OfFoliosEngine(string namespaceName)
    {
        Assert.True(typeof(QueryRunner).Assembly.GetTypes().Any(t => t.Namespace == namespaceName), $"no type in {namespaceName}");
        var references = EngineReferences(namespaceName);
        Assert.True(references.Count == 0, "The database tier names the Folio engine:\n" + string.Join('\n', references));
    }

    [Fact]
    public void EngineReferences_FindsTheEngineTypes_ThatTheFactoryNames()
    {
        var named = TypeReferences.Of(typeof(FolioSearchEngine)).Select(reference => reference.Type).ToHashSet();
        Assert.Contains(typeof(SearchIndex), named);
        var searcherUses = TypeReferences.Of(typeof(IndexSearcher)).Select(reference => reference.Type).ToHashSet();
        Assert.Contains(typeof(Folio.Indexing.Scoring.TermScorer), searcherUses);
    }
}
