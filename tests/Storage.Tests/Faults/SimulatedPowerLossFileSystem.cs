using Folio.Storage.Paging;
using Folio.Storage.Platform;

namespace Folio.Storage.Tests.Faults;

/// <summary>What a simulated power loss does to the writes a file had not yet flushed.</summary>
public enum CrashStrategy
{
    /// <summary>Every unflushed write is lost.</summary>
    DropAll,

    /// <summary>Every unflushed write made it (what a process crash without power loss leaves).</summary>
    KeepAll,

    /// <summary>A random subset of the unflushed writes made it, applied in random order.</summary>
    Reorder,

    /// <summary>Each unflushed write kept a random prefix of its 512-byte sectors; the rest holds the old bytes.</summary>
    Torn512,

    /// <summary>Each unflushed write kept a random prefix of its 4096-byte blocks; the rest holds the old bytes.</summary>
    Torn4096,
}

/// <summary>
/// A device that can lose power, in the spirit of FASTER's SimulatedFlakyDevice. Files live in
/// memory; each remembers its durable content (as of its last successful Flush) and the writes
/// since. Names are durable as of the last FlushDirectory. Every mutating call (write, set length,
/// flush, delete, rename, directory flush) counts as one operation; when the count reaches the
/// armed crash point, the disk image a power loss at that moment could leave is captured as a
/// <see cref="MemoryFileSystem"/> to recover from. The engine above carries on unaware (its
/// process would have died; callers stop at the next <see cref="HasCrashed"/> check). It can also
/// make a chosen Flush fail, the way a device reports a failed fsync.
/// </summary>
internal sealed class SimulatedPowerLossFileSystem : IStorageFileSystem
{
    private readonly Lock _lock = new();
    private readonly Dictionary<string, SimulatedFile> _names = new(StringComparer.Ordinal);
    private Dictionary<string, SimulatedFile> _durableNames = new(StringComparer.Ordinal);
    private long _operations;
    private long _crashAfter = long.MaxValue;
    private CrashStrategy _strategy;
    private Random _crashRandom = new(0);
    private MemoryFileSystem? _crashImage;
    private Func<string, bool>? _failFlush;
    private int _locked;

    public string Description => "(simulated power-loss device)";

    /// <summary>Mutating calls so far.</summary>
    public long Operations
    {
        get
        {
            lock (_lock)
                return _operations;
        }
    }

    /// <summary>Whether the armed crash point has passed.</summary>
    public bool HasCrashed
    {
        get
        {
            lock (_lock)
                return _crashImage is not null;
        }
    }

    /// <summary>The disk as the power loss left it.</summary>
    public MemoryFileSystem CrashImage
    {
        get
        {
            lock (_lock)
                return _crashImage ?? throw new InvalidOperationException("The power has not been lost yet.");
        }
    }

    /// <summary>What the operation that the crash followed was, for failure messages.</summary>
    public string CrashOperation { get; private set; } = "";

    /// <summary>Loses power right after the <paramref name="operation"/>-th mutating call (counting from 1).</summary>
    public void CrashAfter(long operation, CrashStrategy strategy, int seed)
    {
        lock (_lock)
        {
            _crashAfter = operation;
            _strategy = strategy;
            _crashRandom = new Random(seed);
        }
    }

    /// <summary>Loses power now.</summary>
    public MemoryFileSystem CrashNow(CrashStrategy strategy, int seed)
    {
        lock (_lock)
        {
            _strategy = strategy;
            _crashRandom = new Random(seed);
            CrashOperation = "(crashed on request)";
            return _crashImage = BuildCrashImage();
        }
    }

    /// <summary>Makes the next Flush of a file whose name matches throw an <see cref="IOException"/>; its writes stay unflushed.</summary>
    public void FailNextFlush(Func<string, bool> fileName)
    {
        lock (_lock)
            _failFlush = fileName;
    }

    public IStorageFile Open(string name)
    {
        lock (_lock)
        {
            if (!_names.TryGetValue(name, out var file))
                _names[name] = file = new SimulatedFile(name);
            return new Handle(this, file);
        }
    }

    public bool Exists(string name)
    {
        lock (_lock)
            return _names.ContainsKey(name);
    }

    public void Delete(string name)
    {
        lock (_lock)
        {
            _names.Remove(name);
            Tick($"delete {name}");
        }
    }

    public void Rename(string from, string to)
    {
        lock (_lock)
        {
            if (!_names.Remove(from, out var file))
                throw new FileNotFoundException($"No simulated file named '{from}'.");
            if (!_names.TryAdd(to, file))
                throw new IOException($"A simulated file named '{to}' already exists.");
            file.Name = to;
            Tick($"rename {from} to {to}");
        }
    }

    public void Replace(string from, string to)
    {
        lock (_lock)
        {
            if (!_names.Remove(from, out var file))
                throw new FileNotFoundException($"No simulated file named '{from}'.");
            _names[to] = file;
            file.Name = to;
            Tick($"replace {to} with {from}");
        }
    }

    public string[] List(string suffix)
    {
        lock (_lock)
        {
            var names = _names.Keys.Where(name => name.EndsWith(suffix, StringComparison.Ordinal)).ToArray();
            Array.Sort(names, StringComparer.Ordinal);
            return names;
        }
    }

    public void FlushDirectory()
    {
        lock (_lock)
        {
            _durableNames = new Dictionary<string, SimulatedFile>(_names, StringComparer.Ordinal);
            Tick("flush the directory");
        }
    }

    public IDisposable AcquireLock()
    {
        if (Interlocked.Exchange(ref _locked, 1) != 0)
            throw new StorageLockedException("The simulated device is already open in another environment.");
        return new Releaser(this);
    }

    // The data file's pager writes through the wrapped file, so its writes are recorded like any other.
    public Pager OpenPager(string name, int pageSize) => new MemoryImagePager(Open(name), pageSize);

    private void Write(SimulatedFile file, long offset, ReadOnlySpan<byte> data)
    {
        lock (_lock)
        {
            file.Live.Write(offset, data);
            file.Pending.Add(new PendingWrite(offset, data.ToArray(), -1));
            Tick($"write {data.Length} bytes at {offset} of {file.Name}");
        }
    }

    private void SetLength(SimulatedFile file, long length)
    {
        lock (_lock)
        {
            file.Live.SetLength(length);
            file.Pending.Add(new PendingWrite(0, null, length));
            Tick($"set the length of {file.Name} to {length}");
        }
    }

    private void Flush(SimulatedFile file)
    {
        lock (_lock)
        {
            if (_failFlush is { } fail && fail(file.Name))
            {
                _failFlush = null;
                Tick($"flush {file.Name} (failing)");
                throw new IOException($"Simulated flush failure of {file.Name}.");
            }
            foreach (var write in file.Pending)
                write.ApplyTo(file.Durable);
            file.Pending.Clear();
            Tick($"flush {file.Name}");
        }
    }

    private void Tick(string operation)
    {
        _operations++;
        if (_operations != _crashAfter)
            return;
        CrashOperation = $"operation {_operations}: {operation}";
        _crashImage = BuildCrashImage();
    }

    private MemoryFileSystem BuildCrashImage()
    {
        var random = _crashRandom;
        var names = _strategy switch
        {
            CrashStrategy.DropAll => _durableNames,
            CrashStrategy.KeepAll => _names,
            _ => random.Next(2) == 0 ? _durableNames : _names,
        };
        var image = new MemoryFileSystem();
        foreach (var (name, file) in names.OrderBy(pair => pair.Key, StringComparer.Ordinal))
        {
            var copy = image.Open(name);
            copy.Write(0, file.Durable.ToArray());
            switch (_strategy)
            {
                case CrashStrategy.KeepAll:
                    foreach (var write in file.Pending)
                        write.ApplyTo(copy);
                    break;
                case CrashStrategy.Reorder:
                    foreach (var write in file.Pending.Where(_ => random.Next(2) == 0).OrderBy(_ => random.Next()))
                        write.ApplyTo(copy);
                    break;
                case CrashStrategy.Torn512:
                case CrashStrategy.Torn4096:
                    var sector = _strategy == CrashStrategy.Torn512 ? 512 : 4096;
                    foreach (var write in file.Pending)
                        write.ApplyTorn(copy, sector, random);
                    break;
            }
        }
        return image;
    }

    /// <summary>One file (an inode): what its writes made durable, and what it holds now.</summary>
    private sealed class SimulatedFile(string name)
    {
        public string Name { get; set; } = name;

        public MemoryFile Live { get; } = new();

        public MemoryFile Durable { get; } = new();

        public List<PendingWrite> Pending { get; } = [];
    }

    /// <summary>A write (or, with <see cref="NewLength"/> set, a length change) not yet flushed.</summary>
    private sealed record PendingWrite(long Offset, byte[]? Data, long NewLength)
    {
        public void ApplyTo(IStorageFile file)
        {
            if (Data is null)
                file.SetLength(NewLength);
            else
                file.Write(Offset, Data);
        }

        /// <summary>Applies a random prefix of the sectors the write touches: none, some or all of them.</summary>
        public void ApplyTorn(IStorageFile file, int sectorSize, Random random)
        {
            if (Data is null)
            {
                file.SetLength(NewLength);
                return;
            }
            var firstSector = Offset / sectorSize;
            var sectors = (Offset + Data.Length - 1) / sectorSize - firstSector + 1;
            var kept = random.NextInt64(sectors + 1);
            var length = (int)Math.Clamp((firstSector + kept) * sectorSize - Offset, 0, Data.Length);
            if (length > 0)
                file.Write(Offset, Data.AsSpan(0, length));
        }
    }

    private sealed class Handle(SimulatedPowerLossFileSystem owner, SimulatedFile file) : IStorageFile
    {
        public long Length => file.Live.Length;

        public void SetLength(long length) => owner.SetLength(file, length);

        public void Write(long offset, ReadOnlySpan<byte> data) => owner.Write(file, offset, data);

        public int Read(long offset, Span<byte> buffer) => file.Live.Read(offset, buffer);

        public void Flush() => owner.Flush(file);

        public void Dispose()
        {
        }
    }

    private sealed class Releaser(SimulatedPowerLossFileSystem owner) : IDisposable
    {
        public void Dispose() => Volatile.Write(ref owner._locked, 0);
    }
}
