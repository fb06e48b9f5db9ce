using Folio.Storage.Platform;
using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Model;

/// <summary>Where a model run keeps its environment.</summary>
public enum ModelStore
{
    /// <summary>A <see cref="MemoryFileSystem"/> kept across reopens; flushes only when a step asks.</summary>
    Memory,

    /// <summary>As <see cref="Memory"/>, with the background flusher running all the time alongside the steps.</summary>
    MemoryWithBackgroundFlush,

    /// <summary>A real temporary directory (memory-mapped data file, fdatasync).</summary>
    Directory,
}

/// <summary>
/// Runs random steps against an environment and a <see cref="StorageModel"/> side by side and
/// compares them after every step. Every choice comes from one seeded <see cref="Random"/>, so a
/// seed and a step count reproduce a failure exactly (with <see cref="ModelStore.MemoryWithBackgroundFlush"/>
/// the steps repeat, the flusher's timing does not).
/// </summary>
internal sealed class ModelRunner : IDisposable
{
    private const int MaxOpenReaders = 3;
    private const int RecentSteps = 12;
    private const int ManyDocs = 500;
    private static readonly byte[] Alphabet = [0x00, 0x01, 0x61, 0x62, 0x7F, 0x80, 0xFE, 0xFF];

    private readonly int _seed;
    private readonly ModelStore _store;
    private readonly Random _random;
    private readonly Random _checkRandom;
    private readonly TempDirectory? _directory;
    private readonly StorageOptions _options;
    private readonly int _etagValueSize;
    private readonly List<Reader> _readers = [];
    private readonly Queue<string> _recent = new();
    private StorageEnvironment _env;
    private StorageModel _committed = new();
    private StorageModel? _working;
    private WriteTransaction? _write;
    private string _doing = "opening";

    private ModelRunner(int seed, ModelStore store)
    {
        _seed = seed;
        _store = store;
        _random = new Random(seed);
        // Checks sample with their own generator, so changing what they sample never changes the steps.
        _checkRandom = new Random(~seed);
        _etagValueSize = _random.Next(4) switch { 0 => 0, 1 => 8, 2 => 24, _ => 300 };
        var journalFileSize = _random.Next(3) switch { 0 => 64L << 10, 1 => 256L << 10, _ => 1L << 20 };
        StorageOptions options;
        if (store == ModelStore.Directory)
        {
            _directory = new TempDirectory("model");
            options = StorageOptions.ForPath(_directory.Path);
        }
        else
        {
            options = new StorageOptions { FileSystem = new MemoryFileSystem() };
        }
        _options = options with
        {
            JournalFileSize = journalFileSize,
            BackgroundFlush = store == ModelStore.MemoryWithBackgroundFlush,
            FlushInterval = TimeSpan.FromMilliseconds(1),
            FlushThresholdBytes = 64 << 10,
            // Odd seeds pack values of 4-16 KB into shared runs (as a compaction's new file does), even ones give each a page.
            PackMidsizeValues = seed % 2 == 1,
        };
        _env = StorageEnvironment.Open(_options);
    }

    /// <summary>Runs <paramref name="steps"/> steps of seed <paramref name="seed"/>; throws <see cref="ModelMismatchException"/> naming seed and step on the first difference.</summary>
    public static void Run(int seed, int steps, ModelStore store)
    {
        using var runner = new ModelRunner(seed, store);
        runner.RunSteps(steps);
    }

    private void RunSteps(int steps)
    {
        for (var step = 1; step <= steps + 1; step++)
        {
            try
            {
                if (step <= steps)
                    Step(step);
                else
                    Finish();
                CheckAll();
                Remember(step);
            }
            catch (Exception e)
            {
                throw new ModelMismatchException(
                    $"Seed {_seed}, step {step} of {steps} ({_store}) failed while doing: {_doing}\n" +
                    $"  {e.GetType().Name}: {e.Message}\n" +
                    $"  Reproduce with ModelRunner.Run(seed: {_seed}, steps: {steps}, ModelStore.{_store}).\n" +
                    $"  Steps before it:\n    {string.Join("\n    ", _recent)}",
                    e);
            }
        }
    }

    private void Step(int step)
    {
        var roll = _random.Next(1000);
        switch (roll)
        {
            case < 260: PutDoc(); break;
            case < 340: DeleteDoc(existing: true); break;
            case < 355: DeleteDoc(existing: false); break;
            case < 435: AddIndex(); break;
            case < 475: RemoveIndex(existing: true); break;
            case < 482: RemoveIndex(existing: false); break;
            case < 490: RemoveAllIndex(); break;
            case < 560: PutEtag(); break;
            case < 590: DeleteEtag(existing: true); break;
            case < 597: DeleteEtag(existing: false); break;
            case < 598: DeleteTree(); break;
            case < 600: BulkDeleteDocs(); break;
            case < 720: Commit(); break;
            case < 745: Rollback(); break;
            case < 790: AddReader(step); break;
            case < 830: CloseReader(); break;
            case < 870: Flush(); break;
            case < 885: CleanReopen(); break;
            case < 900: CrashReopen(); break;
            case < 920: BulkPutDocs(); break;
            default: PutDoc(); break;
        }
    }

    private WriteTransaction Write()
    {
        if (_write is null)
        {
            _write = _env.BeginWrite();
            _working = _committed.Clone();
        }
        return _write;
    }

    private void PutDoc()
    {
        var tx = Write();
        var docs = _working!.Docs ??= new SortedDictionary<byte[], byte[]>(ByteArrayComparer.Ordinal);
        var overwrite = docs.Count > 0 && _random.Next(100) < (docs.Count > ManyDocs ? 80 : 25);
        var key = overwrite ? Pick(docs.Keys) : NewKey(docs.Keys, StorageLimits.MaxKeySize);
        var value = NewValue();
        _doing = $"put docs {ModelChecker.Describe(key)} = {value.Length} bytes";
        tx.CreateTree(StorageModel.DocsName).Put(key, value);
        docs[key] = value;
    }

    /// <summary>Many entries with small values at once, half with long keys (a branch holds few of those), so trees grow deep and splits cascade.</summary>
    private void BulkPutDocs()
    {
        var tx = Write();
        var docs = _working!.Docs ??= new SortedDictionary<byte[], byte[]>(ByteArrayComparer.Ordinal);
        var count = docs.Count > ManyDocs ? _random.Next(10, 40) : _random.Next(40, 150);
        var longKeys = _random.Next(2) == 0;
        _doing = $"put {count} small docs with {(longKeys ? "long" : "short")} keys";
        var tree = tx.CreateTree(StorageModel.DocsName);
        for (var i = 0; i < count; i++)
        {
            var key = NewKey(docs.Keys, longKeys ? StorageLimits.MaxKeySize : 16);
            if (longKeys && key.Length < 700)
                key = [.. key, .. new byte[700 - key.Length]];
            if (docs.ContainsKey(key))
                continue;
            var value = new byte[_random.Next(100)];
            _random.NextBytes(value);
            tree.Put(key, value);
            docs[key] = value;
        }
    }

    /// <summary>A run of neighbouring entries at once, so pages empty, merge and the tree shrinks.</summary>
    private void BulkDeleteDocs()
    {
        var docs = (_working ?? _committed).Docs;
        if (docs is null || docs.Count == 0)
        {
            BulkPutDocs();
            return;
        }
        var tx = Write();
        docs = _working!.Docs!;
        var start = _random.Next(docs.Count);
        var victims = docs.Keys.Skip(start).Take(_random.Next(30, 300)).ToList();
        _doing = $"delete {victims.Count} neighbouring docs from {ModelChecker.Describe(victims[0])}";
        var tree = tx.OpenTree(StorageModel.DocsName)!;
        foreach (var key in victims)
        {
            ModelChecker.Expect(tree.Delete(key), "bulk delete", $"Delete({ModelChecker.Describe(key)}) returned false");
            docs.Remove(key);
        }
    }

    private void DeleteDoc(bool existing)
    {
        var docs = (_working ?? _committed).Docs;
        if (docs is null || (existing && docs.Count == 0))
        {
            PutDoc();
            return;
        }
        var tx = Write();
        docs = _working!.Docs!;
        var key = existing ? Pick(docs.Keys) : NewKey(docs.Keys, StorageLimits.MaxKeySize);
        _doing = $"delete docs {ModelChecker.Describe(key)} ({(existing ? "present" : "missing")})";
        var deleted = tx.OpenTree(StorageModel.DocsName)!.Delete(key);
        ModelChecker.Expect(deleted == docs.Remove(key), "delete", $"Delete returned {deleted}");
    }

    private void AddIndex()
    {
        var tx = Write();
        var index = _working!.Index ??= new SortedDictionary<byte[], SortedSet<byte[]>>(ByteArrayComparer.Ordinal);
        var key = index.Count > 0 && _random.Next(2) == 0 ? Pick(index.Keys) : NewKey(index.Keys, _random.Next(20) == 0 ? 400 : 24);
        var values = index.GetValueOrDefault(key);
        byte[] value;
        if (values is { Count: > 0 } && _random.Next(10) == 0)
        {
            value = Pick(values);
        }
        else
        {
            var room = StorageModel.IndexValueRoom(key);
            value = new byte[_random.Next(10) == 0 ? room : _random.Next(Math.Min(room, 48) + 1)];
            _random.NextBytes(value);
        }
        _doing = $"add index {ModelChecker.Describe(key)} -> {ModelChecker.Describe(value)}";
        var added = tx.CreateMultiValueTree(StorageModel.IndexName).Add(key, value);
        if (values is null)
            index[key] = values = new SortedSet<byte[]>(ByteArrayComparer.Ordinal);
        ModelChecker.Expect(added == values.Add(value), "add", $"Add returned {added}");
    }

    private void RemoveIndex(bool existing)
    {
        var index = (_working ?? _committed).Index;
        if (index is null || index.Count == 0)
        {
            AddIndex();
            return;
        }
        var tx = Write();
        index = _working!.Index!;
        var key = Pick(index.Keys);
        var values = index[key];
        var value = existing ? Pick(values) : [.. Pick(values).Take(Math.Max(0, StorageModel.IndexValueRoom(key) - 1)), 0x5A];
        _doing = $"remove index {ModelChecker.Describe(key)} -> {ModelChecker.Describe(value)} ({(existing ? "present" : "maybe missing")})";
        var removed = tx.OpenMultiValueTree(StorageModel.IndexName)!.Remove(key, value);
        ModelChecker.Expect(removed == values.Remove(value), "remove", $"Remove returned {removed}");
        if (values.Count == 0)
            index.Remove(key);
    }

    private void RemoveAllIndex()
    {
        var index = (_working ?? _committed).Index;
        if (index is null || index.Count == 0)
        {
            AddIndex();
            return;
        }
        var tx = Write();
        index = _working!.Index!;
        var key = Pick(index.Keys);
        _doing = $"remove all of index {ModelChecker.Describe(key)} ({index[key].Count} values)";
        var removed = tx.OpenMultiValueTree(StorageModel.IndexName)!.RemoveAll(key);
        ModelChecker.Expect(removed == index[key].Count, "remove all", $"RemoveAll returned {removed}");
        index.Remove(key);
    }

    private void PutEtag()
    {
        var tx = Write();
        var etags = _working!.Etags ??= new SortedDictionary<long, byte[]>();
        var key = _random.Next(10) switch
        {
            < 3 when etags.Count > 0 => Pick(etags.Keys),
            < 8 => _random.Next(-2000, 2000),
            8 => _random.Next(4) switch { 0 => long.MinValue, 1 => long.MaxValue, 2 => 0, _ => -1 },
            _ => _random.NextInt64(long.MinValue, long.MaxValue),
        };
        var value = new byte[_etagValueSize];
        _random.NextBytes(value);
        _doing = $"put etag {key}";
        tx.CreateFixedSizeTree(StorageModel.EtagsName, _etagValueSize).Put(key, value);
        etags[key] = value;
    }

    private void DeleteEtag(bool existing)
    {
        var etags = (_working ?? _committed).Etags;
        if (etags is null || (existing && etags.Count == 0))
        {
            PutEtag();
            return;
        }
        var tx = Write();
        etags = _working!.Etags!;
        var key = existing ? Pick(etags.Keys) : _random.Next(2000, 3000);
        _doing = $"delete etag {key}";
        var deleted = tx.OpenFixedSizeTree(StorageModel.EtagsName)!.Delete(key);
        ModelChecker.Expect(deleted == etags.Remove(key), "delete", $"Delete returned {deleted}");
    }

    private void DeleteTree()
    {
        var tx = Write();
        var name = _random.Next(3) switch { 0 => StorageModel.DocsName, 1 => StorageModel.IndexName, _ => StorageModel.EtagsName };
        _doing = $"delete tree {name}";
        var existed = name switch
        {
            StorageModel.DocsName => _working!.Docs is not null,
            StorageModel.IndexName => _working!.Index is not null,
            _ => _working!.Etags is not null,
        };
        ModelChecker.Expect(tx.DeleteTree(name) == existed, "delete tree", $"DeleteTree did not return {existed}");
        switch (name)
        {
            case StorageModel.DocsName: _working.Docs = null; break;
            case StorageModel.IndexName: _working.Index = null; break;
            default: _working.Etags = null; break;
        }
    }

    private void Commit()
    {
        _doing = _write is null ? "commit of an empty transaction" : "commit";
        var before = _env.LastCommittedTransactionId;
        Write().Commit();
        _committed = _working!;
        _write = null;
        _working = null;
        ModelChecker.Expect(_env.LastCommittedTransactionId >= before, "commit", "the last committed transaction id went back");
    }

    private void Rollback()
    {
        if (_write is null)
        {
            _doing = "rollback (no transaction open)";
            return;
        }
        var dispose = _random.Next(2) == 0;
        _doing = dispose ? "roll back by disposing" : "rollback";
        if (dispose)
            _write.Dispose();
        else
            _write.Rollback();
        _write = null;
        _working = null;
    }

    private void AddReader(int step)
    {
        if (_readers.Count >= MaxOpenReaders)
        {
            CloseReader();
            return;
        }
        _doing = "open a reader";
        var read = _env.BeginRead();
        ModelChecker.Expect(read.Id == _env.LastCommittedTransactionId, "open reader", $"a new reader sees transaction {read.Id}, not the last committed {_env.LastCommittedTransactionId}");
        _readers.Add(new Reader(read, _committed, step));
    }

    private void CloseReader()
    {
        if (_readers.Count == 0)
        {
            _doing = "open a reader (none to close)";
            _readers.Add(new Reader(_env.BeginRead(), _committed, 0));
            return;
        }
        var index = _random.Next(_readers.Count);
        var reader = _readers[index];
        _doing = $"check and close the reader opened at step {reader.Step}";
        CheckReader(reader);
        reader.Read.Dispose();
        _readers.RemoveAt(index);
    }

    private void CheckReader(Reader reader) =>
        ModelChecker.Check(TreeView.Of(reader.Read), reader.Model, _checkRandom, $"the reader opened at step {reader.Step}");

    private void CloseAllReaders()
    {
        foreach (var reader in _readers)
        {
            CheckReader(reader);
            reader.Read.Dispose();
        }
        _readers.Clear();
    }

    private void Flush()
    {
        _doing = $"flush to the data file ({_readers.Count} readers open)";
        _env.FlushToDataFile();
    }

    private void CleanReopen()
    {
        var commit = _write is not null && _random.Next(2) == 0;
        _doing = $"close and reopen ({(_write is null ? "no transaction open" : commit ? "after committing" : "after rolling back")})";
        CloseAllReaders();
        if (commit)
            Commit();
        else
            _write?.Dispose();
        _write = null;
        _working = null;
        var committed = _env.LastCommittedTransactionId;
        _env.Dispose();
        _env = StorageEnvironment.Open(_options);
        ModelChecker.Expect(_env.LastCommittedTransactionId == committed, "reopen", $"the environment reopened at transaction {_env.LastCommittedTransactionId}, not {committed}");
    }

    private void CrashReopen()
    {
        _doing = $"crash and reopen ({(_write is null ? "no transaction open" : "a write transaction open")})";
        CloseAllReaders();
        var committed = _env.LastCommittedTransactionId;
        _env.SimulateCrash();
        _write?.Dispose();
        _write = null;
        _working = null;
        _env = StorageEnvironment.Open(_options);
        ModelChecker.Expect(_env.LastCommittedTransactionId == committed, "recovery", $"the environment recovered to transaction {_env.LastCommittedTransactionId}, not {committed}");
    }

    /// <summary>The last step: commits what is open, closes cleanly, then crashes once more, checking after each reopen.</summary>
    private void Finish()
    {
        if (_write is not null)
            Commit();
        CleanReopen();
        CheckAll();
        CrashReopen();
        _doing = "final checks";
    }

    private void CheckAll()
    {
        using (var read = _env.BeginRead())
            ModelChecker.Check(TreeView.Of(read), _committed, _checkRandom, "the committed state");
        if (_write is not null)
            ModelChecker.Check(TreeView.Of(_write), _working!, _checkRandom, "the open write transaction");
        _env.Verify();
    }

    private void Remember(int step)
    {
        _recent.Enqueue($"{step}: {_doing}");
        if (_recent.Count > RecentSteps)
            _recent.Dequeue();
    }

    private T Pick<T>(ICollection<T> items) => items.ElementAt(_random.Next(items.Count));

    /// <summary>
    /// A key not in <paramref name="existing"/>: mostly short, some long, some of the longest allowed;
    /// from a small alphabet (zeros and 0xFF included), sometimes extending a present key, so shared
    /// prefixes and near neighbours are common.
    /// </summary>
    private byte[] NewKey(ICollection<byte[]> existing, int maxLength)
    {
        while (true)
        {
            var length = _random.Next(100) switch
            {
                < 5 => maxLength,
                < 15 => _random.Next(200, 1024),
                < 40 => _random.Next(17, 200),
                _ => _random.Next(1, 17),
            };
            length = Math.Min(length, maxLength);
            var key = new byte[length];
            var start = 0;
            if (existing.Count > 0 && _random.Next(5) == 0)
            {
                var near = Pick(existing);
                start = Math.Min(_random.Next(near.Length + 1), length);
                near.AsSpan(0, start).CopyTo(key);
            }
            for (var i = start; i < length; i++)
                key[i] = Alphabet[_random.Next(Alphabet.Length)];
            if (!existing.Contains(key))
                return key;
        }
    }

    /// <summary>Mostly small values, some near the inline limit, some overflowing, now and then a 200 KB one.</summary>
    private byte[] NewValue()
    {
        var size = _random.Next(1000) switch
        {
            < 5 => 200_000 + _random.Next(1000),
            < 100 => _random.Next(4000, 20_001),
            < 250 => _random.Next(1500, 4200),
            < 550 => _random.Next(65, 1500),
            _ => _random.Next(0, 65),
        };
        var value = new byte[size];
        _random.NextBytes(value);
        return value;
    }

    public void Dispose()
    {
        foreach (var reader in _readers)
            reader.Read.Dispose();
        _readers.Clear();
        _write?.Dispose();
        _env.Dispose();
        _directory?.Dispose();
    }

    private sealed record Reader(ReadTransaction Read, StorageModel Model, int Step);
}
