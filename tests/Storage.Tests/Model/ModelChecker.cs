using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Model;

/// <summary>A difference between what the engine holds and what the model says it should hold.</summary>
public sealed class ModelMismatchException(string message, Exception? inner = null) : Exception(message, inner);

/// <summary>The model's three trees as one transaction (a reader or the writer) sees them.</summary>
internal readonly record struct TreeView(Func<Tree?> Docs, Func<MultiValueTree?> Index, Func<FixedSizeTree?> Etags)
{
    public static TreeView Of(ReadTransaction read) =>
        new(() => read.OpenTree(StorageModel.DocsName), () => read.OpenMultiValueTree(StorageModel.IndexName), () => read.OpenFixedSizeTree(StorageModel.EtagsName));

    public static TreeView Of(WriteTransaction write) =>
        new(() => write.OpenTree(StorageModel.DocsName), () => write.OpenMultiValueTree(StorageModel.IndexName), () => write.OpenFixedSizeTree(StorageModel.EtagsName));
}

/// <summary>
/// Compares a view with a model: every entry in order through a forward cursor, plus a random sample
/// of backward steps, seeks and point lookups. Throws <see cref="ModelMismatchException"/> naming the
/// first difference.
/// </summary>
internal static class ModelChecker
{
    private const int BackwardSample = 24;
    private const int SeekSample = 4;

    public static void Check(TreeView view, StorageModel model, Random random, string where)
    {
        CheckDocs(view.Docs(), model.Docs, random, where);
        CheckIndex(view.Index(), model, random, where);
        CheckEtags(view.Etags(), model.Etags, random, where);
    }

    private static void CheckDocs(Tree? tree, SortedDictionary<byte[], byte[]>? model, Random random, string where)
    {
        if (!ExpectExists(tree, model, StorageModel.DocsName, where))
            return;
        Expect(tree!.Count == model!.Count, where, $"tree '{tree.Name}' counts {tree.Count} entries; the model holds {model.Count}");

        var keys = new List<byte[]>(model.Count);
        var cursor = tree.CreateCursor();
        var more = cursor.First();
        foreach (var (key, value) in model)
        {
            Expect(more, where, $"the forward scan of '{tree.Name}' ended after {keys.Count} entries; the model holds {model.Count}");
            Expect(cursor.Key.SequenceEqual(key), where, $"entry {keys.Count} of '{tree.Name}' has key {Describe(cursor.Key)}; the model has {Describe(key)}");
            Expect(cursor.Value.SequenceEqual(value), where, $"key {Describe(key)} of '{tree.Name}' holds {cursor.Value.Length} bytes that differ from the model's {value.Length}");
            keys.Add(key);
            more = cursor.MoveNext();
        }
        Expect(!more, where, $"the forward scan of '{tree.Name}' found more than the model's {model.Count} entries");

        more = cursor.Last();
        for (var i = keys.Count - 1; i >= Math.Max(0, keys.Count - BackwardSample); i--)
        {
            Expect(more && cursor.Key.SequenceEqual(keys[i]), where, $"the backward scan of '{tree.Name}' does not reach entry {i} ({Describe(keys[i])})");
            more = cursor.MovePrevious();
        }
        if (keys.Count <= BackwardSample)
            Expect(!more, where, $"the backward scan of '{tree.Name}' found entries before the first");

        for (var s = 0; s < SeekSample; s++)
        {
            var probe = Probe(keys, random);
            var index = LowerBound(keys, probe);
            var found = cursor.Seek(probe);
            Expect(found == index < keys.Count, where, $"Seek({Describe(probe)}) in '{tree.Name}' returned {found}");
            if (found)
            {
                Expect(cursor.Key.SequenceEqual(keys[index]), where, $"Seek({Describe(probe)}) in '{tree.Name}' landed on {Describe(cursor.Key)}, not {Describe(keys[index])}");
                var next = cursor.MoveNext();
                Expect(next == index + 1 < keys.Count && (!next || cursor.Key.SequenceEqual(keys[index + 1])), where, $"MoveNext after Seek({Describe(probe)}) in '{tree.Name}' went wrong");
            }

            var atOrBefore = index < keys.Count && keys[index].AsSpan().SequenceEqual(probe) ? index : index - 1;
            found = cursor.SeekLastAtOrBefore(probe);
            Expect(found == atOrBefore >= 0 && (!found || cursor.Key.SequenceEqual(keys[atOrBefore])), where, $"SeekLastAtOrBefore({Describe(probe)}) in '{tree.Name}' went wrong");

            var present = tree.TryGet(probe, out var value);
            var expected = model.TryGetValue(probe, out var modelValue);
            Expect(present == expected && (!present || value.SequenceEqual(modelValue)), where, $"TryGet({Describe(probe)}) in '{tree.Name}' returned {present}, the model says {expected}");
        }
    }

    private static void CheckIndex(MultiValueTree? tree, StorageModel model, Random random, string where)
    {
        if (!ExpectExists(tree, model.Index, StorageModel.IndexName, where))
            return;
        Expect(tree!.Count == model.IndexPairs, where, $"tree '{tree.Name}' counts {tree.Count} pairs; the model holds {model.IndexPairs}");
        foreach (var (key, values) in model.Index!)
        {
            var cursor = tree.OpenValues(key);
            var position = 0;
            foreach (var value in values)
            {
                Expect(cursor.MoveNext(), where, $"key {Describe(key)} of '{tree.Name}' ends after {position} values; the model has {values.Count}");
                Expect(cursor.Value.SequenceEqual(value), where, $"value {position} of key {Describe(key)} in '{tree.Name}' is {Describe(cursor.Value)}, not {Describe(value)}");
                position++;
            }
            Expect(!cursor.MoveNext(), where, $"key {Describe(key)} of '{tree.Name}' has more than the model's {values.Count} values");
        }

        var keys = model.Index!.Keys.ToList();
        for (var s = 0; s < SeekSample && keys.Count > 0; s++)
        {
            var key = keys[random.Next(keys.Count)];
            var values = model.Index[key].ToList();
            var probe = Probe(values, random);
            if (probe.Length > StorageModel.IndexValueRoom(key))
                probe = probe[..StorageModel.IndexValueRoom(key)];
            var index = LowerBound(values, probe);
            var cursor = tree.OpenValues(key);
            var found = cursor.Seek(probe);
            Expect(found == index < values.Count && (!found || cursor.Value.SequenceEqual(values[index])), where, $"Seek({Describe(probe)}) in the values of {Describe(key)} in '{tree.Name}' went wrong");
            Expect(tree.Contains(key, probe) == model.Index[key].Contains(probe), where, $"Contains({Describe(key)}, {Describe(probe)}) in '{tree.Name}' disagrees with the model");
        }
        var missing = new byte[] { 0x42, 0x00, 0x42, (byte)random.Next(256) };
        if (!model.Index.ContainsKey(missing))
            Expect(tree.CountValues(missing) == 0, where, $"'{tree.Name}' has values for a key the model does not have");
    }

    private static void CheckEtags(FixedSizeTree? tree, SortedDictionary<long, byte[]>? model, Random random, string where)
    {
        if (!ExpectExists(tree, model, StorageModel.EtagsName, where))
            return;
        Expect(tree!.Count == model!.Count, where, $"tree '{tree.Name}' counts {tree.Count} entries; the model holds {model.Count}");
        var keys = new List<long>(model.Count);
        var cursor = tree.CreateCursor();
        var more = cursor.First();
        foreach (var (key, value) in model)
        {
            Expect(more && cursor.Key == key, where, $"entry {keys.Count} of '{tree.Name}' is not key {key}");
            Expect(cursor.Value.SequenceEqual(value), where, $"key {key} of '{tree.Name}' holds other bytes than the model");
            keys.Add(key);
            more = cursor.MoveNext();
        }
        Expect(!more, where, $"the forward scan of '{tree.Name}' found more than the model's {model.Count} entries");

        more = cursor.Last();
        for (var i = keys.Count - 1; i >= Math.Max(0, keys.Count - BackwardSample); i--)
        {
            Expect(more && cursor.Key == keys[i], where, $"the backward scan of '{tree.Name}' does not reach key {keys[i]}");
            more = cursor.MovePrevious();
        }

        for (var s = 0; s < SeekSample; s++)
        {
            var probe = keys.Count > 0 && random.Next(2) == 0 ? keys[random.Next(keys.Count)] + random.Next(-1, 2) : random.NextInt64(long.MinValue, long.MaxValue);
            var index = keys.BinarySearch(probe);
            if (index < 0)
                index = ~index;
            var found = cursor.Seek(probe);
            Expect(found == index < keys.Count && (!found || cursor.Key == keys[index]), where, $"Seek({probe}) in '{tree.Name}' went wrong");
            var present = tree.TryGet(probe, out var value);
            Expect(present == model.TryGetValue(probe, out var modelValue) && (!present || value.SequenceEqual(modelValue)), where, $"TryGet({probe}) in '{tree.Name}' disagrees with the model");
        }
    }

    private static bool ExpectExists(object? tree, object? model, string name, string where)
    {
        Expect((tree is null) == (model is null), where, model is null ? $"tree '{name}' exists; the model does not have it" : $"tree '{name}' is missing");
        return tree is not null;
    }

    /// <summary>A key to look for: one that is there, a neighbour of one, or an arbitrary one.</summary>
    private static byte[] Probe(List<byte[]> keys, Random random)
    {
        if (keys.Count == 0 || random.Next(4) == 0)
        {
            var arbitrary = new byte[random.Next(1, 12)];
            random.NextBytes(arbitrary);
            return arbitrary;
        }
        var key = keys[random.Next(keys.Count)];
        return random.Next(3) switch
        {
            0 => key,
            1 when key.Length < StorageLimits.MaxKeySize => [.. key, 0],
            _ => key.Length > 1 ? key[..^1] : [(byte)(key.Length == 0 ? 0 : key[0] + 1)],
        };
    }

    private static int LowerBound(List<byte[]> sorted, byte[] probe)
    {
        var index = sorted.BinarySearch(probe, ByteArrayComparer.Ordinal);
        return index < 0 ? ~index : index;
    }

    public static string Describe(ReadOnlySpan<byte> bytes) =>
        bytes.Length <= 16 ? $"[{Convert.ToHexString(bytes)}]" : $"[{Convert.ToHexString(bytes[..12])}.. {bytes.Length} bytes]";

    public static void Expect(bool condition, string where, string problem)
    {
        if (!condition)
            throw new ModelMismatchException($"{where}: {problem}");
    }
}
