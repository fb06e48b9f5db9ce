using System.Runtime.InteropServices;

namespace Folio.Benchmarks.Storage.Lmdb;

/// <summary>
/// The few LMDB 0.9 entry points the benchmarks call, bound to Debian's liblmdb0 (install it with
/// tests/Benchmarks/setup-peers.sh). Handles stay raw pointers: the benchmarks own their lifetimes,
/// and a SafeHandle per transaction would add work LMDB's own C callers never pay.
/// </summary>
internal static unsafe partial class LmdbNative
{
    private const string Library = "liblmdb.so.0";

    public const int NotFound = -30798;

    // mdb_txn_begin flags.
    public const uint ReadOnly = 0x20000;

    // mdb_dbi_open flags.
    public const uint Create = 0x40000;

    /// <summary>LMDB's key and value descriptor (<c>MDB_val</c>): a size_t length and a pointer.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Value
    {
        public nuint Size;
        public byte* Data;
    }

    [LibraryImport(Library, EntryPoint = "mdb_env_create")]
    public static partial int EnvCreate(out nint env);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_mapsize")]
    public static partial int EnvSetMapSize(nint env, nuint size);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_maxreaders")]
    public static partial int EnvSetMaxReaders(nint env, uint readers);

    [LibraryImport(Library, EntryPoint = "mdb_env_open", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int EnvOpen(nint env, string path, uint flags, uint mode);

    [LibraryImport(Library, EntryPoint = "mdb_env_close")]
    public static partial void EnvClose(nint env);

    [LibraryImport(Library, EntryPoint = "mdb_txn_begin")]
    public static partial int TxnBegin(nint env, nint parent, uint flags, out nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_commit")]
    public static partial int TxnCommit(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_abort")]
    public static partial void TxnAbort(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_reset")]
    public static partial void TxnReset(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_renew")]
    public static partial int TxnRenew(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_dbi_open", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int DbiOpen(nint txn, string? name, uint flags, out uint dbi);

    [LibraryImport(Library, EntryPoint = "mdb_put")]
    public static partial int Put(nint txn, uint dbi, Value* key, Value* data, uint flags);

    [LibraryImport(Library, EntryPoint = "mdb_get")]
    public static partial int Get(nint txn, uint dbi, Value* key, Value* data);

    [LibraryImport(Library, EntryPoint = "mdb_version")]
    public static partial nint Version(out int major, out int minor, out int patch);

    [LibraryImport(Library, EntryPoint = "mdb_strerror")]
    public static partial nint StrError(int error);

    /// <summary>Throws with LMDB's own message when <paramref name="error"/> is not MDB_SUCCESS.</summary>
    public static void Check(int error, string call)
    {
        if (error != 0)
            throw new LmdbException(call, error, Marshal.PtrToStringUTF8(StrError(error)) ?? "unknown error");
    }
}

/// <summary>An LMDB call that returned an error code.</summary>
internal sealed class LmdbException(string call, int error, string message)
    : Exception($"{call} failed with {error}: {message}")
{
    public int Error { get; } = error;
}
