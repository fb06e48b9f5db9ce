using System.Text;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The database the JavaScript harnesses run against, made once per fuzzing process (AFL feeds one process many
/// inputs): documents in memory, indexes in memory under a temporary folder removed when the process exits.
/// </summary>
internal sealed class ScriptFuzzDatabase
{
    private static readonly Lazy<ScriptFuzzDatabase> Shared = new(() => new ScriptFuzzDatabase());

    private ScriptFuzzDatabase()
    {
        var root = Path.Combine(Path.GetTempPath(), "folio-fuzz-" + Environment.ProcessId);
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            if (Directory.Exists(root))
                Directory.Delete(root, recursive: true);
        };
        Store = DocumentStore.Open(StorageOptions.InMemory());
        Indexes = new IndexStore(Store, root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        Runner = new QueryRunner(Store, Indexes);
        for (var i = 0; i < 20; i++)
        {
            var json = $$$"""{"Name":"person-{{{i}}}","N":{{{i}}},"Tag":"t{{{i % 3}}}","Friend":"people/{{{(i + 1) % 20}}}","Lines":[{"P":{{{i}}},"Q":2}],"@metadata":{"@collection":"People"}}""";
            Store.PutAsync($"people/{i}", PreparedDocument.Parse(Encoding.UTF8.GetBytes(json))).GetAwaiter().GetResult();
        }
    }

    /// <summary>The process's database.</summary>
    public static ScriptFuzzDatabase Instance => Shared.Value;

    /// <summary>Its documents: twenty <c>People</c>.</summary>
    public DocumentStore Store { get; }

    /// <summary>Its indexes.</summary>
    public IndexStore Indexes { get; }

    /// <summary>Its query runner.</summary>
    public QueryRunner Runner { get; }
}
