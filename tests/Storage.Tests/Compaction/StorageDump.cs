using System.Text;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Compaction;

/// <summary>Every tree of an environment's last commit with its kind and raw entries, as text for exact comparison.</summary>
internal static class StorageDump
{
    public static SortedDictionary<string, string> Of(StorageEnvironment env)
    {
        using var read = env.BeginRead();
        var trees = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var names = read.Pages.RootTree.CreateCursor();
        for (var more = names.First(); more; more = names.MoveNext())
        {
            var name = Encoding.UTF8.GetString(names.Key);
            var tree = read.Pages.OpenTree(name, 0)!;
            var text = new StringBuilder($"{tree.Kind}/{tree.Header.FixedValueSize}/{tree.Count}:");
            var cursor = tree.CreateCursor();
            for (var entry = cursor.First(); entry; entry = cursor.MoveNext())
                text.Append(Convert.ToHexString(cursor.Key)).Append('=').Append(Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(cursor.Value))).Append(';');
            trees[name] = text.ToString();
        }
        return trees;
    }

    /// <summary>Puts a mix of regular, multi-value and fixed-size entries (some too large for a page), then deletes every other one.</summary>
    public static void Churn(StorageEnvironment env, int count, int seed)
    {
        var random = new Random(seed);
        for (var start = 0; start < count; start += 500)
        {
            using var tx = env.BeginWrite();
            var docs = tx.CreateTree("docs");
            var byEtag = tx.CreateFixedSizeTree("by-etag", 16);
            var terms = tx.CreateMultiValueTree("terms");
            for (var i = start; i < Math.Min(count, start + 500); i++)
            {
                var size = i % 97 == 0 ? 20_000 : random.Next(50, 1_500);
                docs.Put(Support.Keys.Of($"docs/{i:D7}"), Support.Keys.Value(i, size));
                byEtag.Put(i, Support.Keys.Value(-i, 16));
                terms.Add(Support.Keys.Of($"t{i % 50}"), Support.Keys.Of(i));
            }
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("scratch").Put(Support.Keys.Of("gone"), Support.Keys.Of("soon"));
            tx.Commit();
        }
        for (var start = 0; start < count; start += 1_000)
        {
            using var tx = env.BeginWrite();
            var docs = tx.OpenTree("docs")!;
            var byEtag = tx.OpenFixedSizeTree("by-etag")!;
            var terms = tx.OpenMultiValueTree("terms")!;
            for (var i = start; i < Math.Min(count, start + 1_000); i += 2)
            {
                docs.Delete(Support.Keys.Of($"docs/{i:D7}"));
                byEtag.Delete(i);
                terms.Remove(Support.Keys.Of($"t{i % 50}"), Support.Keys.Of(i));
            }
            tx.Commit();
        }
        using (var tx = env.BeginWrite())
        {
            tx.DeleteTree("scratch");
            tx.CreateTree("empty");
            tx.Commit();
        }
    }
}
