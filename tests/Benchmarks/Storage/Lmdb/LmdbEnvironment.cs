using static Folio.Benchmarks.Storage.Lmdb.LmdbNative;

namespace Folio.Benchmarks.Storage.Lmdb;

/// <summary>
/// An LMDB environment with one unnamed database, opened with flags 0: every commit is durable
/// (data pages synced, then the meta page synced), which is the contract Folio's commits keep too.
/// Read-ahead stays on: the benchmarks read data the page cache already holds, where it plays no part.
/// </summary>
internal sealed unsafe class LmdbEnvironment : IDisposable
{
    private nint _env;

    public LmdbEnvironment(string directory, long mapSize = 4L << 30, int maxReaders = 126)
    {
        Directory.CreateDirectory(directory);
        Check(EnvCreate(out _env), "mdb_env_create");
        try
        {
            Check(EnvSetMapSize(_env, (nuint)mapSize), "mdb_env_set_mapsize");
            Check(EnvSetMaxReaders(_env, (uint)maxReaders), "mdb_env_set_maxreaders");
            Check(EnvOpen(_env, directory, 0, 0b110_100_100), "mdb_env_open");
            var txn = BeginWrite();
            Check(DbiOpen(txn, null, Create, out var dbi), "mdb_dbi_open");
            Commit(txn);
            Dbi = dbi;
        }
        catch
        {
            EnvClose(_env);
            _env = 0;
            throw;
        }
    }

    public uint Dbi { get; }

    public nint BeginWrite()
    {
        Check(TxnBegin(_env, 0, 0, out var txn), "mdb_txn_begin");
        return txn;
    }

    /// <summary>A read-only transaction; it holds the calling thread's reader slot until reset or aborted.</summary>
    public nint BeginRead()
    {
        Check(TxnBegin(_env, 0, ReadOnly, out var txn), "mdb_txn_begin");
        return txn;
    }

    public static void Commit(nint txn) => Check(TxnCommit(txn), "mdb_txn_commit");

    public static void Abort(nint txn) => TxnAbort(txn);

    public static void Reset(nint txn) => TxnReset(txn);

    public static void Renew(nint txn) => Check(TxnRenew(txn), "mdb_txn_renew");

    public void Put(nint txn, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* k = key)
        fixed (byte* v = value)
        {
            var keyVal = new Value { Size = (nuint)key.Length, Data = k };
            var dataVal = new Value { Size = (nuint)value.Length, Data = v };
            Check(LmdbNative.Put(txn, Dbi, &keyVal, &dataVal, 0), "mdb_put");
        }
    }

    /// <summary>The value under <paramref name="key"/>, pointing into the map: valid until the transaction ends.</summary>
    public bool TryGet(nint txn, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        fixed (byte* k = key)
        {
            var keyVal = new Value { Size = (nuint)key.Length, Data = k };
            Value dataVal;
            var error = Get(txn, Dbi, &keyVal, &dataVal);
            if (error == NotFound)
            {
                value = default;
                return false;
            }
            Check(error, "mdb_get");
            value = new ReadOnlySpan<byte>(dataVal.Data, checked((int)dataVal.Size));
            return true;
        }
    }

    public void Dispose()
    {
        if (_env == 0)
            return;
        EnvClose(_env);
        _env = 0;
    }
}
