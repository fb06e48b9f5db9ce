using System.Buffers.Binary;
using Folio.Benchmarks.Storage.Lmdb;
using Folio.Storage;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// The workloads both engines run, written once so the load driver and the BenchmarkDotNet suites
/// measure the same thing: 16-byte keys, fixed-size values, one tree (Folio) or the unnamed
/// database (LMDB), reads in snapshots of <see cref="ReadsPerTransaction"/> lookups.
/// </summary>
internal static class StorageWorkload
{
    public const string TreeName = "bench";
    public const int KeySize = 16;
    public const int ValueSize = 128;
    public const int ReadsPerTransaction = 1000;

    /// <summary><paramref name="count"/> keys, each a big-endian counter, so they sort in insertion order.</summary>
    public static byte[] SequentialKeys(int count)
    {
        var keys = new byte[(long)count * KeySize];
        for (var i = 0; i < count; i++)
            BinaryPrimitives.WriteInt64BigEndian(keys.AsSpan(i * KeySize + 8, 8), i);
        return keys;
    }

    /// <summary><paramref name="count"/> random keys (128 random bits each, so in practice distinct).</summary>
    public static byte[] RandomKeys(int count, int seed)
    {
        var keys = new byte[(long)count * KeySize];
        new Random(seed).NextBytes(keys);
        return keys;
    }

    public static ReadOnlySpan<byte> Key(byte[] keys, int index) => keys.AsSpan(index * KeySize, KeySize);

    /// <summary>Bytes that neither engine could compress or share, though neither tries.</summary>
    public static byte[] Value(int size)
    {
        var value = new byte[size];
        new Random(size).NextBytes(value);
        return value;
    }

    /// <summary>A fresh directory under <paramref name="root"/>, emptied first if a previous run left it.</summary>
    public static string FreshDirectory(string root, string name)
    {
        var path = Path.Combine(root, name);
        if (Directory.Exists(path))
            Directory.Delete(path, recursive: true);
        Directory.CreateDirectory(path);
        return path;
    }

    public static StorageEnvironment OpenFolio(string directory)
    {
        var env = StorageEnvironment.Open(StorageOptions.ForPath(directory));
        using var tx = env.BeginWrite();
        tx.CreateTree(TreeName);
        tx.Commit();
        return env;
    }

    /// <summary>Inserts keys [<paramref name="from"/>, <paramref name="to"/>) in durable transactions of <paramref name="perTransaction"/>.</summary>
    public static void FolioInsert(StorageEnvironment env, byte[] keys, int from, int to, int perTransaction, byte[] value)
    {
        for (var start = from; start < to; start += perTransaction)
        {
            using var tx = env.BeginWrite();
            var tree = tx.OpenTree(TreeName) ?? throw new InvalidOperationException("The benchmark tree is missing.");
            var end = Math.Min(to, start + perTransaction);
            for (var i = start; i < end; i++)
                tree.Put(Key(keys, i), value);
            tx.Commit();
        }
    }

    public static void LmdbInsert(LmdbEnvironment env, byte[] keys, int from, int to, int perTransaction, byte[] value)
    {
        for (var start = from; start < to; start += perTransaction)
        {
            var txn = env.BeginWrite();
            try
            {
                var end = Math.Min(to, start + perTransaction);
                for (var i = start; i < end; i++)
                    env.Put(txn, Key(keys, i), value);
            }
            catch
            {
                LmdbEnvironment.Abort(txn);
                throw;
            }
            LmdbEnvironment.Commit(txn);
        }
    }

    /// <summary>Looks up <paramref name="reads"/> keys drawn uniformly from the first <paramref name="keyCount"/>; returns a checksum of the values.</summary>
    public static long FolioRead(StorageEnvironment env, byte[] keys, int keyCount, int reads, int seed)
    {
        var random = new Random(seed);
        long checksum = 0;
        for (var done = 0; done < reads; done += ReadsPerTransaction)
        {
            using var tx = env.BeginRead();
            var tree = tx.OpenTree(TreeName) ?? throw new InvalidOperationException("The benchmark tree is missing.");
            var batch = Math.Min(ReadsPerTransaction, reads - done);
            for (var i = 0; i < batch; i++)
            {
                if (!tree.TryGet(Key(keys, random.Next(keyCount)), out var value))
                    throw new InvalidOperationException("A key the benchmark inserted was not found.");
                checksum += value[0];
            }
        }
        return checksum;
    }

    public static long LmdbRead(LmdbEnvironment env, byte[] keys, int keyCount, int reads, int seed)
    {
        var random = new Random(seed);
        long checksum = 0;
        for (var done = 0; done < reads; done += ReadsPerTransaction)
        {
            var txn = env.BeginRead();
            try
            {
                var batch = Math.Min(ReadsPerTransaction, reads - done);
                for (var i = 0; i < batch; i++)
                {
                    if (!env.TryGet(txn, Key(keys, random.Next(keyCount)), out var value))
                        throw new InvalidOperationException("A key the benchmark inserted was not found.");
                    checksum += value[0];
                }
            }
            finally
            {
                LmdbEnvironment.Abort(txn);
            }
        }
        return checksum;
    }

    /// <summary>Runs <paramref name="work"/> on <paramref name="threads"/> dedicated threads at once and waits for all.</summary>
    public static void OnThreads(int threads, Action<int> work)
    {
        if (threads == 1)
        {
            work(0);
            return;
        }
        var errors = new Exception?[threads];
        var workers = new Thread[threads];
        for (var t = 0; t < threads; t++)
        {
            var index = t;
            workers[t] = new Thread(() =>
            {
                try
                {
                    work(index);
                }
                catch (Exception e)
                {
                    errors[index] = e;
                }
            });
            workers[t].Start();
        }
        foreach (var worker in workers)
            worker.Join();
        foreach (var error in errors)
        {
            if (error is not null)
                throw new AggregateException(error);
        }
    }
}
