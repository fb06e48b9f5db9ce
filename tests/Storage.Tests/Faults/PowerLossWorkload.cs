using Folio.Storage.Tests.Model;
using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Faults;

/// <summary>
/// A deterministic run of committed transactions on a <see cref="SimulatedPowerLossFileSystem"/>,
/// with flushes to the data file, clean reopens and process crashes between them, that stops at
/// the first <see cref="SimulatedPowerLossFileSystem.HasCrashed"/> check after the power is lost.
/// It records the state every commit made and which commits returned before the power went.
/// </summary>
internal sealed class PowerLossWorkload
{
    public const int Transactions = 40;

    private readonly SimulatedPowerLossFileSystem _fileSystem;
    private readonly Random _random;
    private readonly StorageOptions _options;
    private StorageEnvironment? _env;
    private ReadTransaction? _reader;
    private int _readerUntil;

    private PowerLossWorkload(SimulatedPowerLossFileSystem fileSystem, int seed)
    {
        _fileSystem = fileSystem;
        _random = new Random(seed);
        _options = new StorageOptions
        {
            FileSystem = fileSystem,
            BackgroundFlush = false,
            JournalFileSize = _random.Next(2) == 0 ? 64 << 10 : 256 << 10,
            // Even seeds pack values of 4-16 KB into shared runs, whose changes are journaled as partial entries.
            PackMidsizeValues = seed % 2 == 0,
        };
    }

    /// <summary><c>States[t]</c> is what transaction t left (<c>States[0]</c>: the empty environment), acknowledged or in flight.</summary>
    public List<StorageModel> States { get; } = [new StorageModel()];

    /// <summary>Commits that returned before the power was lost; their ids are 1 to this.</summary>
    public int Acknowledged { get; private set; }

    /// <summary>Whether the power was lost while a commit ran (transaction <see cref="Acknowledged"/> + 1).</summary>
    public bool CommitInFlight { get; private set; }

    public StorageOptions Options => _options;

    public static PowerLossWorkload Run(SimulatedPowerLossFileSystem fileSystem, int seed)
    {
        var workload = new PowerLossWorkload(fileSystem, seed);
        try
        {
            workload.Execute();
        }
        finally
        {
            workload._reader?.Dispose();
            workload._env?.SimulateCrash();
        }
        return workload;
    }

    private void Execute()
    {
        _env = StorageEnvironment.Open(_options);
        var model = States[0];
        for (var t = 1; t <= Transactions && !_fileSystem.HasCrashed; t++)
        {
            var working = model.Clone();
            using (var tx = _env.BeginWrite())
            {
                var operations = _random.Next(1, 9);
                for (var i = 0; i < operations; i++)
                    Change(tx, working, mustWrite: i == 0);
                if (_random.Next(15) == 0)
                {
                    tx.Rollback();
                    t--;
                    continue;
                }
                CommitInFlight = true;
                tx.Commit();
            }
            States.Add(working);
            if (_fileSystem.HasCrashed)
                return;
            CommitInFlight = false;
            Acknowledged++;
            model = working;
            Between(t);
        }
        if (_fileSystem.HasCrashed)
            return;
        _reader?.Dispose();
        _reader = null;
        var env = _env;
        _env = null;
        env.Dispose();
    }

    private void Change(WriteTransaction tx, StorageModel model, bool mustWrite)
    {
        var roll = mustWrite ? 0 : _random.Next(10);
        if (roll < 5 || model.Docs is not { Count: > 0 })
        {
            var docs = model.Docs ??= new SortedDictionary<byte[], byte[]>(ByteArrayComparer.Ordinal);
            var key = Key();
            var value = new byte[_random.Next(100) switch
            {
                < 1 => 100_000,
                < 10 => _random.Next(8000, 30_000),
                < 30 => _random.Next(500, 8000),
                _ => _random.Next(500),
            }];
            _random.NextBytes(value);
            // Half the values repeat a short run, as text does, so journal records are compressed as well as raw.
            if (_random.Next(2) == 0)
            {
                for (var i = 16; i < value.Length; i++)
                    value[i] = value[i % 16];
            }
            tx.CreateTree(StorageModel.DocsName).Put(key, value);
            docs[key] = value;
        }
        else if (roll < 7)
        {
            var key = model.Docs.Keys.ElementAt(_random.Next(model.Docs.Count));
            tx.OpenTree(StorageModel.DocsName)!.Delete(key);
            model.Docs.Remove(key);
        }
        else if (roll < 9)
        {
            var etags = model.Etags ??= new SortedDictionary<long, byte[]>();
            var key = (long)_random.Next(-50, 50);
            var value = new byte[16];
            _random.NextBytes(value);
            tx.CreateFixedSizeTree(StorageModel.EtagsName, 16).Put(key, value);
            etags[key] = value;
        }
        else
        {
            var index = model.Index ??= new SortedDictionary<byte[], SortedSet<byte[]>>(ByteArrayComparer.Ordinal);
            var key = new[] { (byte)_random.Next(4) };
            var value = new byte[_random.Next(40)];
            _random.NextBytes(value);
            tx.CreateMultiValueTree(StorageModel.IndexName).Add(key, value);
            if (!index.TryGetValue(key, out var values))
                index[key] = values = new SortedSet<byte[]>(ByteArrayComparer.Ordinal);
            values.Add(value);
        }
    }

    /// <summary>A key from a pool small enough that puts often replace earlier values.</summary>
    private byte[] Key()
    {
        var number = _random.Next(80);
        var length = number % 10 == 0 ? StorageLimits.MaxKeySize : 1 + number * 3;
        var key = new byte[length];
        new Random(number).NextBytes(key);
        return key;
    }

    /// <summary>What happens after a commit: a flush to the data file, a reader that holds a snapshot back, a reopen or a process crash.</summary>
    private void Between(int transaction)
    {
        if (_reader is { } reader && transaction >= _readerUntil)
        {
            reader.Dispose();
            _reader = null;
        }
        var roll = _random.Next(100);
        if (roll < 20)
        {
            _env!.FlushToDataFile();
        }
        else if (roll < 28 && _reader is null)
        {
            _reader = _env!.BeginRead();
            _readerUntil = transaction + _random.Next(1, 5);
        }
        else if (roll < 33)
        {
            _reader?.Dispose();
            _reader = null;
            _env!.Dispose();
            _env = null;
            _env = StorageEnvironment.Open(_options);
        }
        else if (roll < 38)
        {
            _reader?.Dispose();
            _reader = null;
            _env!.SimulateCrash();
            _env = null;
            _env = StorageEnvironment.Open(_options);
        }
    }
}
